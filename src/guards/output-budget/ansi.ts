// Strips terminal escape sequences (ECMA-48 / ANSI) from text, leaving every other character as it was.
//
// Handled, in their 7-bit (ESC …) and 8-bit (C1 control) forms:
//  - CSI  (ESC [ , U+009B): parameter bytes 0x30–0x3F, intermediates 0x20–0x2F, one final 0x40–0x7E;
//  - OSC  (ESC ] , U+009D), DCS (ESC P, U+0090), SOS (ESC X, U+0098), PM (ESC ^, U+009E), APC (ESC _, U+009F):
//    a string ended by ST (ESC \ or U+009C) or BEL;
//  - every other escape sequence: ESC, intermediates 0x20–0x2F, one final 0x30–0x7E (ESC ( B, ESC 7, ESC c …);
//  - a lone ST (U+009C).
// A sequence cut short (a CSI broken by a byte that cannot be in it, a string with no terminator, an
// ESC at the very end) loses only its introducer and the bytes that fit the sequence so far: the text
// after it stays visible. So the output never holds ESC or a C1 introducer, and text without them
// comes back unchanged.

const ESC = 0x1b;
const BEL = 0x07;
const CSI8 = 0x9b;
const ST8 = 0x9c;
/** Every character that starts a sequence: ESC, CSI, ST, and the string introducers OSC, DCS, SOS, PM, APC. */
const INTRODUCER = /[\x1b\x90\x98\x9b-\x9f]/g;

/** Matches cheaply whether there is anything to strip. */
const ANY = /[\x1b\x90\x98\x9b-\x9f]/;

export interface StripResult {
  text: string;
  /** How many sequences were removed. */
  removed: number;
}

/** The common case, complete 7-bit CSI and BEL-ended OSC sequences, in one native regex pass. */
const COMMON = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\x90\x98\x9b-\x9f]*\x07/g;

/** `text` without its escape sequences. */
export function stripAnsi(text: string): StripResult {
  if (!ANY.test(text)) return { text, removed: 0 };
  // Each common match holds exactly one ESC: the ESCs that went are the sequences that went (a
  // callback to count them would cost three times the replace).
  const rest = text.replace(COMMON, '');
  const common = countEsc(text) - countEsc(rest);
  if (!ANY.test(rest)) return { text: rest, removed: common };
  const result = scan(rest);
  return { text: result.text, removed: common + result.removed };
}

function countEsc(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\x1b'); i !== -1; i = text.indexOf('\x1b', i + 1)) n++;
  return n;
}

function scan(text: string): StripResult {
  const parts: string[] = [];
  let removed = 0;
  let at = 0; // start of the plain text not yet copied
  const n = text.length;
  INTRODUCER.lastIndex = 0;
  // Jump from introducer to introducer with a native regex search: plain text is never walked in JS.
  for (let found = INTRODUCER.exec(text); found !== null; found = INTRODUCER.exec(text)) {
    const i = found.index;
    if (i < at) {
      INTRODUCER.lastIndex = at;
      continue;
    }
    const c = text.charCodeAt(i);
    parts.push(text.slice(at, i));
    removed++;
    let end: number;
    if (c === ESC) {
      const next = i + 1 < n ? text.charCodeAt(i + 1) : -1;
      if (next === 0x5b /* [ */) end = skipCsi(text, i + 2);
      else if (next === 0x5d || next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f) end = skipString(text, i + 2);
      else end = skipEscape(text, i + 1);
    } else if (c === CSI8) end = skipCsi(text, i + 1);
    else if (c === ST8) end = i + 1;
    else end = skipString(text, i + 1);
    at = end;
    INTRODUCER.lastIndex = end;
  }
  parts.push(text.slice(at));
  return { text: parts.join(''), removed };
}

/** The end of a CSI whose parameters start at `i`. */
function skipCsi(text: string, i: number): number {
  const n = text.length;
  while (i < n && inRange(text.charCodeAt(i), 0x30, 0x3f)) i++;
  while (i < n && inRange(text.charCodeAt(i), 0x20, 0x2f)) i++;
  if (i < n && inRange(text.charCodeAt(i), 0x40, 0x7e)) return i + 1;
  return i; // cut short: what follows is text
}

/** The end of a control string whose body starts at `i`: after its BEL or ST, else just its introducer. */
function skipString(text: string, i: number): number {
  const n = text.length;
  for (let j = i; j < n; j++) {
    const c = text.charCodeAt(j);
    if (c === BEL || c === ST8) return j + 1;
    if (c === ESC) {
      if (j + 1 < n && text.charCodeAt(j + 1) === 0x5c /* \ */) return j + 2;
      // Another escape starts: the string was never ended; only the introducer goes.
      return i;
    }
  }
  return i;
}

/** The end of a plain escape sequence whose body (after ESC) starts at `i`. */
function skipEscape(text: string, i: number): number {
  const n = text.length;
  let j = i;
  while (j < n && inRange(text.charCodeAt(j), 0x20, 0x2f)) j++;
  if (j < n && inRange(text.charCodeAt(j), 0x30, 0x7e)) return j + 1;
  return j;
}

function inRange(c: number, lo: number, hi: number): boolean {
  return c >= lo && c <= hi;
}
