// Finds secrets in text and replaces them, leaving every other byte as it was.
import { blankEscapesBytes, rejectedByFilters, SECRET_RULES, type SecretRule } from './rules.js';
// Types only: the engine stays free of zod so that a caller such as the audit log can import it
// without paying for the schema library (zod alone is ~75 ms of start-up on Node 20 here).
import type { RedactSecretsOptionsInput } from './options.js';

const DEFAULT_MARKER = '[REDACTED:{rule}]';

export interface Finding {
  rule: string;
  /** Offsets of the replaced text in the original string (UTF-16 units, as `String#slice`). */
  start: number;
  end: number;
}

export interface RedactTextResult {
  text: string;
  findings: Finding[];
}

export interface Redactor {
  text(text: string): RedactTextResult;
  /** Deep copy-on-write: the same reference back when nothing changed. */
  value<T>(value: T): ValueResult<T>;
}

export interface ValueResult<T> {
  value: T;
  findings: Finding[];
  /** How deep objects and arrays nest in the input (0 for a scalar). */
  depth: number;
}

/** Redacts every secret in `text`. */
export function redactText(text: string, options?: RedactSecretsOptionsInput): RedactTextResult {
  return redactorFor(options).text(text);
}

/** Redacts every string inside `value` (objects and arrays keep their shape); unchanged input comes back as is. */
export function redactValue<T>(value: T, options?: RedactSecretsOptionsInput): T {
  return redactorFor(options).value(value).value;
}

/**
 * Compiles the rules once for a set of options: the guard builds one per run. `internal.windows:
 * false` makes every rule read the whole text (tests compare the two).
 */
export function createRedactor(options?: RedactSecretsOptionsInput, internal?: { windows?: boolean }): Redactor {
  const enabled: Partial<Record<string, boolean>> = options?.rules ?? {};
  const rules: SecretRule[] = SECRET_RULES.filter((rule) => enabled[rule.id] !== false);
  // Extra rules are the user's own: no placeholder filter second-guesses them.
  const builtIn = rules.length;
  for (const extra of options?.extra ?? []) {
    // An invalid pattern throws here; config entries were already checked by the options schema.
    const pattern = new RegExp(extra.pattern, 'gd' + (extra.flags ?? ''));
    rules.push({ id: extra.name, keywords: [], pattern });
  }
  const index = _keywordIndex(rules);
  // Each rule's keyword keys, computed once (this runs per string, and outputs hold thousands).
  const keys = rules.map((rule) => rule.keywords.map((keyword) => keywordKey(rule, keyword)));
  const windows = internal?.windows ?? true;
  const marker = options?.marker ?? DEFAULT_MARKER;
  const markerFor = (rule: string): string => marker.split('{rule}').join(rule);

  // A value some rule judged secret is redacted wherever it appears in the same output, in every
  // form it can take there (as is, JSON-escaped, percent-encoded), not only where the rule saw it:
  // `API_TOKEN=abc…` is found by its label, and the same value two lines down in a JSON body has
  // none. `known` carries the values found in the other strings of a structured output.
  const text = (input: string, known?: ReadonlyMap<string, string>, found?: Finding[]): RedactTextResult => {
    let spans: Finding[] = found ?? _chooseSpans(_collect(input, rules, keys, builtIn, index, windows));
    if (spans.length > 0 || (known !== undefined && known.size > 0)) {
      let secrets = known ?? new Map<string, string>();
      for (const span of spans) {
        const secret = input.slice(span.start, span.end);
        if (secrets.has(secret)) continue;
        if (secrets === known) secrets = new Map(known);
        (secrets as Map<string, string>).set(secret, span.rule);
      }
      spans = _everywhere(input, spans, secrets);
    }
    if (spans.length === 0) return { text: input, findings: [] };
    let out = '';
    let at = 0;
    for (const span of spans) {
      out += input.slice(at, span.start) + markerFor(span.rule);
      at = span.end;
    }
    return { text: out + input.slice(at), findings: spans.map(({ rule, start, end }) => ({ rule, start, end })) };
  };

  // Two passes over a structured output: the first runs the rules on every distinct string (and
  // key) and gathers the secret values; the second redacts each string with its own spans plus
  // every known value, so a token found by its label in one field is redacted in every other
  // field too. Output with no secret is walked once.
  const value = <T>(root: T): ValueResult<T> => {
    const known = new Map<string, string>();
    const spansOf = new Map<string, Finding[]>();
    const gathered = walk(root, (node) => {
      if (spansOf.has(node)) return node;
      const spans = _chooseSpans(_collect(node, rules, keys, builtIn, index, windows));
      spansOf.set(node, spans);
      for (const span of spans) {
        const secret = node.slice(span.start, span.end);
        if (!known.has(secret)) known.set(secret, span.rule);
      }
      return node;
    });
    if (known.size === 0) return { value: root, findings: [], depth: gathered.depth };
    const findings: Finding[] = [];
    return { ...walk(root, (node) => {
      const result = text(node, known, spansOf.get(node));
      for (const finding of result.findings) findings.push(finding);
      return result.findings.length === 0 ? node : result.text;
    }), findings };
  };

  // An explicit stack, not recursion: tool output nested 100,000 levels deep is walked like any
  // other, so a secret beside it is still found (a recursive walk overflowed at ~3,000 levels and the
  // secret went through unredacted).
  const walk = <T>(root: T, onString: (node: string) => string): { value: T; depth: number } => {
    if (typeof root === 'string') return { value: onString(root) as T, depth: 0 };
    if (root === null || typeof root !== 'object') return { value: root, depth: 0 };

    interface Frame {
      node: Record<string, unknown> | unknown[];
      keys: string[] | undefined;
      at: number;
      copy: Record<string, unknown> | unknown[] | undefined;
    }
    // Finished nodes map to their result; a node still on the stack maps to itself (a cycle is kept as is).
    const done = new Map<object, unknown>();
    const open = (node: object): Frame | undefined => {
      if (Array.isArray(node)) return { node, keys: undefined, at: 0, copy: undefined };
      if (_isPlainObject(node)) return { node, keys: Object.keys(node), at: 0, copy: undefined };
      return undefined;
    };
    const set = (frame: Frame, key: string | number, next: unknown): void => {
      if (frame.copy === undefined) frame.copy = Array.isArray(frame.node) ? frame.node.slice() : { ...frame.node };
      // defineProperty, not assignment: a `__proto__` key (JSON.parse makes it an own property) would
      // otherwise set the copy's prototype and leave the unredacted string in place.
      Object.defineProperty(frame.copy, key, { value: next, writable: true, enumerable: true, configurable: true });
    };
    const first = open(root);
    if (first === undefined) return { value: root, depth: 0 };
    const stack: Frame[] = [first];
    done.set(root, root);
    let depth = 1;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const length = frame.keys === undefined ? (frame.node as unknown[]).length : frame.keys.length;
      if (frame.at < length) {
        const key = frame.keys === undefined ? frame.at : frame.keys[frame.at]!;
        frame.at++;
        const child = (frame.node as Record<string | number, unknown>)[key];
        if (typeof child === 'string') {
          const next = onString(child);
          if (next !== child) set(frame, key, next);
        } else if (child !== null && typeof child === 'object') {
          if (done.has(child)) {
            const next = done.get(child);
            if (next !== child) set(frame, key, next);
          } else {
            const inner = open(child);
            if (inner !== undefined) {
              done.set(child, child);
              stack.push(inner);
              if (stack.length > depth) depth = stack.length;
            }
          }
        }
        continue;
      }
      stack.pop();
      let result = frame.copy ?? frame.node;
      // A secret can be a key too (`{"ghp_…": 1}`): such keys are renamed, keeping their order.
      if (frame.keys !== undefined) {
        const renamed = frame.keys.map((key) => onString(key));
        if (renamed.some((key, i) => key !== frame.keys![i])) {
          const source = result as Record<string, unknown>;
          const copy: Record<string, unknown> = {};
          for (const [i, key] of frame.keys.entries()) {
            let name = renamed[i]!;
            for (let n = 2; Object.hasOwn(copy, name); n++) name = `${renamed[i]} #${n}`;
            Object.defineProperty(copy, name, { value: source[key], writable: true, enumerable: true, configurable: true });
          }
          result = copy;
        }
      }
      done.set(frame.node, result);
      const parent = stack[stack.length - 1];
      if (parent !== undefined && result !== frame.node) {
        const key = parent.keys === undefined ? parent.at - 1 : parent.keys[parent.at - 1]!;
        set(parent, key, result);
      }
    }
    return { value: done.get(root) as T, depth };
  };

  return { text, value };
}

// --- internal ---

/** Exported for tests only. */
export interface Span extends Finding {
  order: number;
  generic: boolean;
}

const defaultCache = new WeakMap<object, Redactor>();
let defaultRedactor: Redactor | undefined;

function redactorFor(options: RedactSecretsOptionsInput | undefined): Redactor {
  if (options === undefined) return (defaultRedactor ??= createRedactor());
  let redactor = defaultCache.get(options);
  if (!redactor) defaultCache.set(options, (redactor = createRedactor(options)));
  return redactor;
}

/**
 * Where the rules' keywords occur, found in one pass over the text (gitleaks' prefilter, by
 * position): a loop over the bytes looks up each pair in a table of the keywords' first two
 * characters, then the third in that pair's set, and compares only the keywords that start so. A
 * separate `includes` per keyword cost ~0.7 ms per keyword per MB, one alternation regex ~35 ms per
 * MB. The loop reads a Latin-1 Buffer of the text, not `charCodeAt`: about 4× faster per character
 * in V8, and the copy costs less than a JSON.parse of the text.
 */
export interface KeywordIndex {
  /** Positions per keyword key (`c:` exact, `i:` folded), in order; a list longer than `hitCap(length)` means "everywhere". Latin-1 text only. */
  find(text: string): Map<string, number[]>;
  /** The same over the text's Latin-1 bytes. */
  findBytes(buf: Buffer): Map<string, number[]>;
}

/**
 * Past this many hits of one keyword, its rules read the whole text. It grows with the text: a
 * fixed 20,000 sent the label rules (tried once per hit) to whole-text scans from ~8 MB of plain
 * log on, and made the time per MB grow with the size. One hit per 16 bytes bounds the lists'
 * memory on adversarial text (`key` × 10 million).
 */
export function hitCap(length: number): number {
  return Math.max(20_000, length >> 4);
}

interface KeywordEntry {
  key: string;
  /** The keyword's bytes, lower-cased when `fold`. */
  bytes: Uint8Array;
  fold: boolean;
}

const keywordKey = (rule: SecretRule, keyword: string): string => (rule.keywordsIgnoreCase ? 'i:' + keyword.toLowerCase() : 'c:' + keyword);

/** How a Uint16Array reads two bytes on this machine. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** ASCII upper case to lower case, every other byte as is (what the pair table is keyed by). */
const LOWER = Uint8Array.from({ length: 256 }, (_, c) => (c >= 65 && c <= 90 ? c | 32 : c));

/** Exported for tests only (held to a plain `indexOf` search). */
export function _keywordIndex(rules: readonly SecretRule[]): KeywordIndex {
  // The loop reads the bytes two at a time, as one 16-bit number (half the steps of a byte loop).
  // A keyword of three or more bytes starting at an even offset has its first two bytes in one
  // such number, one starting at an odd offset its second and third: both pairs are entered, with
  // how far back the keyword starts (0 or 1). Two-byte keywords (`SK`, `--`, `</`, ...) are found
  // by the Buffer's native search instead. A folded keyword is entered under each case of its
  // letters, so the loop folds nothing before the full compare.
  const pairOf = LITTLE_ENDIAN ? (first: number, second: number): number => first | (second << 8) : (first: number, second: number): number => (first << 8) | second;
  // 16-bit number → bucket number (0: none) in a typed array: a 65,536-slot plain array would be
  // held as a dictionary by V8. An 8 KB bit set is looked up first: it stays in L1 cache.
  const table = new Uint16Array(1 << 16);
  const present = new Uint8Array(1 << 13);
  const buckets: { entry: KeywordEntry; back: number }[][] = [[]];
  // Per bucket, the bytes allowed right before the pair (a keyword starting one back: its first
  // byte) and right after it (one starting at the pair: its third): most pairs that occur in text
  // (`re`, `in`, `co`) fail both, and the loop never reads the bucket.
  let before = new Uint8Array(256 * 64);
  let after = new Uint8Array(256 * 64);
  const short: KeywordEntry[] = [];
  const seen = new Set<string>();
  const cases = (c: number, fold: boolean): number[] => (fold && LOWER[c] !== c ? [c, LOWER[c]!] : fold && c >= 97 && c <= 122 ? [c, c & ~32] : [c]);
  for (const rule of rules) {
    for (const keyword of rule.keywords) {
      const key = keywordKey(rule, keyword);
      if (seen.has(key)) continue;
      seen.add(key);
      const fold = rule.keywordsIgnoreCase === true;
      const word = fold ? keyword.toLowerCase() : keyword;
      // Keywords are Latin-1 and at least two characters (checked by a test over the rules).
      if (!(/^[\x00-\xff]{2,}$/.test(word))) continue;
      const bytes = Uint8Array.from(word, (c) => c.charCodeAt(0));
      const entry: KeywordEntry = { key, bytes, fold };
      if (bytes.length === 2) {
        short.push(entry);
        continue;
      }
      for (const back of [1, 0]) {
        for (const first of cases(bytes[back]!, fold)) {
          for (const second of cases(bytes[back + 1]!, fold)) {
            const pair = pairOf(first, second);
            if (table[pair] === 0) {
              table[pair] = buckets.length;
              buckets.push([]);
              if (before.length < buckets.length * 256) {
                const grownBefore = new Uint8Array(before.length * 2);
                grownBefore.set(before);
                before = grownBefore;
                const grownAfter = new Uint8Array(after.length * 2);
                grownAfter.set(after);
                after = grownAfter;
              }
            }
            present[pair >> 3]! |= 1 << (pair & 7);
            const slot = table[pair]!;
            for (const c of cases(back === 1 ? bytes[0]! : bytes[2]!, fold)) (back === 1 ? before : after)[slot * 256 + c] = 1;
            const bucket = buckets[slot]!;
            // Within a step, the keyword starting one byte back comes first: lists stay in order.
            if (!bucket.some((b) => b.entry === entry && b.back === back)) bucket.push({ entry, back });
            bucket.sort((a, b) => b.back - a.back);
          }
        }
      }
    }
  }
  const lower = LOWER;
  const index: KeywordIndex = {
    find(text) {
      return index.findBytes(Buffer.from(text, 'latin1'));
    },
    findBytes(input) {
      const out = new Map<string, number[]>();
      const length = input.length;
      const cap = hitCap(length);
      // A 16-bit view needs an even byte offset (small Buffers come from a pool at any offset).
      let buf = input;
      if ((input.byteOffset & 1) !== 0) input.copy((buf = Buffer.alloc(length)));
      const words = new Uint16Array(buf.buffer, buf.byteOffset, length >> 1);
      const steps = words.length;
      for (let w = 0; w < steps; w++) {
        const pair = words[w]!;
        if ((present[pair >> 3]! & (1 << (pair & 7))) === 0) continue;
        const slot = table[pair]!;
        // Out of the text, 0: no keyword holds a NUL, and the length check below fails anyway.
        if (before[slot * 256 + (w > 0 ? buf[2 * w - 1]! : 0)] === 0 && after[slot * 256 + (2 * w + 2 < length ? buf[2 * w + 2]! : 0)] === 0) continue;
        const bucket = buckets[slot]!;
        for (let k = 0; k < bucket.length; k++) {
          const { entry, back } = bucket[k]!;
          const at = 2 * w - back;
          const word = entry.bytes;
          if (at < 0 || at + word.length > length) continue;
          let j = 0;
          if (entry.fold) while (j < word.length && lower[buf[at + j]!] === word[j]) j++;
          else while (j < word.length && buf[at + j] === word[j]) j++;
          if (j < word.length) continue;
          let list = out.get(entry.key);
          if (list === undefined) out.set(entry.key, (list = []));
          if (list.length <= cap) list.push(at);
        }
      }
      for (const entry of short) {
        const list: number[] = [];
        const variants: Buffer[] = [];
        for (const first of cases(entry.bytes[0]!, entry.fold)) for (const second of cases(entry.bytes[1]!, entry.fold)) variants.push(Buffer.from([first, second]));
        for (const variant of variants) {
          for (let at = buf.indexOf(variant, 0); at >= 0 && list.length <= cap; at = buf.indexOf(variant, at + 1)) list.push(at);
        }
        if (variants.length > 1) list.sort((a, b) => a - b);
        if (list.length > 0) out.set(entry.key, list);
      }
      return out;
    },
  };
  return index;
}

// A rule reads only windows around its keywords' hits: from the start of the line (at most
// BEFORE characters back, more than any match starts ahead of its keyword) to the end of the line
// (at most AFTER characters on). A match that touches a window's cut edge is checked again on the
// whole text, so a cut never shortens or invents one.
const BEFORE = 256;
/** Texts shorter than this are read whole: windows cost more than they save there. */
const WINDOWS_FROM = 16_384;
const AFTER = 4096;
/** How far a cut window is widened to reach a token boundary (longer tokens are checked at the cut). */
const WIDEN = 65_536;

/** Whitespace, quotes and backslash (escapes are blanked to backslashes): no token runs across one. */
function _isBoundary(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 34 || c === 39 || c === 92 || c === 96;
}
const stickyCopies = new WeakMap<RegExp, RegExp>();

function _collect(input: string, rules: readonly SecretRule[], keys: readonly string[][], builtIn: number, index: KeywordIndex, windows: boolean): Span[] {
  const spans: Span[] = [];
  const { text: blanked, bytes } = blankEscapesBytes(input);
  let hits: Map<string, number[]> | undefined;
  let newlines: number[] | undefined;
  const windowsOf = new Map<string, [number, number][] | null>();
  rules.forEach((rule, order) => {
    // Built-in rules read the copy with escapes and colour codes blanked out (same offsets); the
    // user's extra rules and the `raw` ones read the text as it is.
    const subject = order < builtIn && !rule.raw ? blanked : input;
    const pattern = rule.pattern;
    const push = (match: RegExpExecArray, base: number): void => {
      const range = _secretRange(match, rule);
      if (!range || range[1] <= range[0]) return;
      const start = range[0] + base;
      const end = range[1] + base;
      if (order < builtIn && rejectedByFilters(rule, input.slice(start, end))) return;
      spans.push({ rule: rule.id, start, end, order, generic: rule.generic === true });
    };
    const scan = (text: string, base: number, edges: ((match: RegExpExecArray) => RegExpExecArray | null | undefined) | undefined): void => {
      pattern.lastIndex = 0;
      for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
        if (match[0] === '') {
          pattern.lastIndex++;
          continue;
        }
        const checked = edges?.(match);
        if (checked === null) continue;
        if (checked !== undefined) push(checked, 0);
        else push(match, base);
      }
    };
    if (rule.keywords.length === 0) return scan(subject, 0, undefined);
    hits ??= index.findBytes(bytes);
    if (hits.size === 0) return;
    const lists: number[][] = [];
    const cap = hitCap(bytes.length);
    let whole = rule.wholeText === true || !windows || subject.length < WINDOWS_FROM;
    for (const key of keys[order]!) {
      const list = hits.get(key);
      if (list === undefined) continue;
      lists.push(list);
      if (list.length > cap) whole = true;
    }
    if (lists.length === 0) return;
    if (whole) return scan(subject, 0, undefined);
    if (rule.startsAtKeyword === true) {
      // One sticky try per hit, in order, skipping hits inside the last match: what a scan of the
      // whole text finds, as no match can start elsewhere (the label rules: ~5× less than windows).
      const sticky = _stickyCopy(pattern);
      const positions = _merged(lists);
      let end = 0;
      for (let i = 0; i < positions.length; i++) {
        const at = positions[i]!;
        if (at < end) continue;
        sticky.lastIndex = at;
        const match = sticky.exec(subject);
        if (match === null || match[0] === '') continue;
        push(match, 0);
        end = at + match[0].length;
      }
      return;
    }
    // Rules with the same keywords (the label rules share theirs) share their windows too.
    const signature = keys[order]!.join('\n');
    let cuts = windowsOf.get(signature);
    if (cuts === undefined) windowsOf.set(signature, (cuts = _windows(blanked, lists, (newlines ??= _newlines(blanked)))));
    if (cuts === null) return scan(subject, 0, undefined);
    let sticky: RegExp | undefined;
    for (const [from, to] of cuts) {
      const cutStart = from > 0 && subject.charCodeAt(from - 1) !== 10;
      const cutEnd = to < subject.length && subject.charCodeAt(to) !== 10;
      scan(subject.slice(from, to), from, cutStart || cutEnd ? (match) => {
        const end = match.index + match[0].length;
        if (!((cutStart && match.index === 0) || (cutEnd && end === to - from))) return undefined;
        sticky ??= _stickyCopy(pattern);
        sticky.lastIndex = from + match.index;
        return sticky.exec(subject);
      } : undefined);
    }
  });
  return spans;
}

/**
 * The windows around keyword hits (`lists`, each in order), or null when they would cover more
 * than half the text (one scan of the whole text is cheaper then).
 */
function _windows(blanked: string, lists: readonly number[][], newlines: readonly number[]): [number, number][] | null {
  const positions = _merged(lists);
  const raw: [number, number][] = [];
  for (let i = 0; i < positions.length; i++) {
    const at = positions[i]!;
    const line = _lineAround(newlines, at, blanked.length);
    const from = Math.max(line[0], at - BEFORE);
    const to = Math.min(line[1], at + AFTER);
    const last = raw[raw.length - 1];
    if (last !== undefined && from <= last[1]) last[1] = Math.max(last[1], to);
    else raw.push([from, to]);
  }
  // A window cut inside a line is widened to the nearest character no token contains (space,
  // quote, backslash), within limits, so a long token is read whole; then merged again.
  const cuts: [number, number][] = [];
  let covered = 0;
  for (const [rawFrom, rawTo] of raw) {
    let from = rawFrom;
    let to = rawTo;
    if (from > 0 && blanked.charCodeAt(from - 1) !== 10) {
      const floor = Math.max(0, from - BEFORE);
      while (from > floor && !_isBoundary(blanked.charCodeAt(from - 1))) from--;
    }
    if (to < blanked.length && blanked.charCodeAt(to) !== 10) {
      const ceiling = Math.min(blanked.length, to + WIDEN);
      while (to < ceiling && !_isBoundary(blanked.charCodeAt(to))) to++;
    }
    const last = cuts[cuts.length - 1];
    if (last !== undefined && from <= last[1]) {
      if (to > last[1]) {
        covered += to - last[1];
        last[1] = to;
      }
    } else {
      cuts.push([from, to]);
      covered += to - from;
    }
  }
  return covered * 2 > blanked.length ? null : cuts;
}

/** Several keywords' hits in one ascending list: a typed array sorts numbers natively (no comparator calls). */
function _merged(lists: readonly number[][]): ArrayLike<number> {
  if (lists.length === 1) return lists[0]!;
  // Int32Array.from(lists.flat()) went through the iterator protocol: the hottest line on plain logs.
  let total = 0;
  for (const list of lists) total += list.length;
  const merged = new Int32Array(total);
  let at = 0;
  for (const list of lists) {
    merged.set(list, at);
    at += list.length;
  }
  return merged.sort();
}

function _stickyCopy(pattern: RegExp): RegExp {
  let sticky = stickyCopies.get(pattern);
  if (sticky === undefined) stickyCopies.set(pattern, (sticky = new RegExp(pattern.source, pattern.flags + 'y')));
  return sticky;
}

function _newlines(text: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) out.push(at);
  return out;
}

/** [start, end) of the line holding `at` (end at its newline), by binary search over the newlines. */
function _lineAround(newlines: readonly number[], at: number, length: number): [number, number] {
  let lo = 0;
  let hi = newlines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (newlines[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return [lo === 0 ? 0 : newlines[lo - 1]! + 1, lo < newlines.length ? newlines[lo]! : length];
}

/** Values shorter than this are not looked for elsewhere: too likely to occur by chance. */
const MIN_ECHO = 4;
/**
 * Forms longer than this are searched with indexOf, not put in the alternation: V8 refuses a regex
 * holding one literal of some 30,000+ characters ("Regular expression too large"), and a 5,000-
 * character non-ASCII value percent-encodes to 45,000. Far below the limit, and rare in practice.
 */
const MAX_REGEX_FORM = 4096;
interface EchoMatcher {
  /** Every form shorter than MAX_REGEX_FORM in one alternation, longest first; null when there is none. */
  pattern: RegExp | null;
  /** The longer forms, each searched on its own. */
  long: string[];
  rules: Map<string, string>;
}
const echoCache = new WeakMap<ReadonlyMap<string, string>, EchoMatcher | null>();

/**
 * Every form a secret value can take in the same output: as is, inside a JSON string (escaped), and
 * percent-encoded (a query string). One alternation, longest first, for all values (one scan).
 */
function _echoMatcher(secrets: ReadonlyMap<string, string>): EchoMatcher | null {
  const cached = echoCache.get(secrets);
  if (cached !== undefined) return cached;
  const rules = new Map<string, string>();
  for (const [secret, rule] of secrets) {
    if (secret.length < MIN_ECHO) continue;
    for (const form of [secret, JSON.stringify(secret).slice(1, -1), JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1), _percentEncoded(secret)]) {
      if (!rules.has(form)) rules.set(form, rule);
    }
  }
  const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const short = [...rules.keys()].filter((form) => form.length <= MAX_REGEX_FORM).sort((a, b) => b.length - a.length);
  const long = [...rules.keys()].filter((form) => form.length > MAX_REGEX_FORM);
  const matcher = rules.size === 0 ? null : { pattern: short.length === 0 ? null : new RegExp(short.map(escape).join('|'), 'g'), long, rules };
  echoCache.set(secrets, matcher);
  return matcher;
}

/** Where the forms occur: by the alternation, or (should V8 still refuse it) by indexOf, form by form. */
function _echoes(input: string, matcher: EchoMatcher): Finding[] {
  const found: Finding[] = [];
  const byIndexOf = (forms: Iterable<string>): void => {
    for (const form of forms) {
      for (let at = input.indexOf(form); at >= 0; at = input.indexOf(form, at + form.length)) {
        found.push({ rule: matcher.rules.get(form)!, start: at, end: at + form.length });
      }
    }
  };
  const { pattern } = matcher;
  if (pattern !== null) {
    try {
      pattern.lastIndex = 0;
      for (let match = pattern.exec(input); match !== null; match = pattern.exec(input)) {
        found.push({ rule: matcher.rules.get(match[0])!, start: match.index, end: match.index + match[0].length });
      }
    } catch {
      // V8 compiles a regex on its first exec: a size limit shows up here, not at construction.
      found.length = 0;
      byIndexOf([...matcher.rules.keys()].filter((form) => form.length <= MAX_REGEX_FORM));
    }
  }
  byIndexOf(matcher.long);
  return found;
}

function _percentEncoded(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return secret; // a lone surrogate: no encoded form
  }
}

/**
 * The spans the rules chose plus every other occurrence of a secret value; overlapping spans are
 * merged into one (named by the first), so no occurrence is left whole.
 */
function _everywhere(input: string, spans: Finding[], secrets: ReadonlyMap<string, string>): Finding[] {
  const matcher = _echoMatcher(secrets);
  if (matcher === null) return spans;
  const all: Finding[] = spans.concat(_echoes(input, matcher));
  if (all.length === spans.length) return spans;
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  for (const span of all) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start < last.end) {
      if (span.end > last.end) merged[merged.length - 1] = { ...last, end: span.end };
      continue;
    }
    merged.push({ rule: span.rule, start: span.start, end: span.end });
  }
  return merged;
}

function _secretRange(match: RegExpExecArray, rule: SecretRule): [number, number] | undefined {
  const indices = match.indices;
  // A rule with alternatives names each one's group (`secret`, `secret2`, …): the one that took part.
  if (indices?.groups?.secret) return indices.groups.secret;
  if (indices?.groups) for (const [name, range] of Object.entries(indices.groups)) if (range !== undefined && /^secret\d$/.test(name)) return range;
  if (rule.group !== undefined) return indices?.[rule.group];
  return [match.index, match.index + match[0].length];
}

/**
 * Non-overlapping spans: overlapping matches are merged into their union, so no byte any rule
 * matched is left in clear (dropping the shorter or later of two matches printed the rest of it:
 * `DB_PASSWORD=<head>.4b1d…` kept `<head>`). The union is named by its first format rule, earliest
 * start then longest then earlier rule, and by a generic rule (a label with any value) only when no
 * format rule took part: `token: ghs_…` reads `github-token`, not the label's rule.
 */
/** Exported for tests only. */
export function _chooseSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
  const chosen: Span[] = [];
  for (const span of spans) {
    const last = chosen[chosen.length - 1];
    if (last === undefined || span.start >= last.end) {
      chosen.push({ ...span });
      continue;
    }
    if (span.end > last.end) last.end = span.end;
    if (last.generic && !span.generic) {
      last.rule = span.rule;
      last.order = span.order;
      last.generic = false;
    }
  }
  return chosen;
}

function _isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
