// Evaluates the string building in interpreter code that the guard can evaluate without running it:
// literals with their escapes (`\x2d`, `\u002d`, `\055`), concatenation (`+`, Perl's `.`, adjacent
// literals, pathlib's `/`), `chr(45)` / `String.fromCharCode(…)` / `45.chr`, base64 and hex of
// literals, `'sep'.join([...])`, `[...].join(sep)`, `os.path.join` / `path.join` / `File.join`,
// `.replace`, `.concat`, reversal, template literals and f-strings (their `${…}` / `{…}` parts
// unknown). Issue 21: `'agent-'+'hooks'`, `'\x2d'`, `chr(45)`, `Buffer.from('…','base64')` each
// hid agent-hooks' own config from a guard that read only the literals as written.
// Pure and bounded: a fixed number of rewriting rounds over at most 64 KB of code.

export type CodeLanguage = 'python' | 'js' | 'perl' | 'ruby' | 'php' | 'other';

export interface CodeString {
  /** The evaluated value; an unknown part (`${x}`, `{x}`, `$x` in Perl) is U+0000. */
  value: string;
  /** No unknown part. */
  complete: boolean;
  /** Stands alone as a call's first argument or an assigned value (`open('x', 'w')`, `p = 'x'`), not joined to something unknown. */
  whole: boolean;
}

export interface EvaluatedCode {
  /** Every string expression left after evaluation, outermost first. */
  strings: CodeString[];
  /** The code with each evaluated expression written as one quoted literal. */
  text: string;
  /** Character-code and cipher calls left unevaluated (their argument is not a literal): `chr(n)`, `fromCharCode(...codes)`, `translate(…)`. */
  unevaluated: string[];
}

export const UNKNOWN = '\u0000';
const OPEN = '\u0001';
const CLOSE = '\u0002';
const P = `${OPEN}(\\d+)${CLOSE}`;
const LIST = `(${P}(?:\\s*,\\s*${P})*)\\s*,?`;
const NUM = '(?:0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|\\d+)';

/** Evaluates what it can of `code`'s string expressions. Never throws. */
export function evaluateCode(code: string, language: CodeLanguage): EvaluatedCode {
  const values: string[] = [];
  const put = (value: string): string => `${OPEN}${values.push(value.length > 4096 ? value.slice(0, 4096) : value) - 1}${CLOSE}`;
  const get = (index: string): string => values[Number(index)] ?? UNKNOWN;
  const putDecoded = (value: string, encoding: string): string | undefined => {
    const decoded = decode(value, encoding);
    return decoded === undefined ? undefined : put(decoded);
  };
  const listValues = (list: string): string[] => [...list.matchAll(new RegExp(P, 'g'))].map((m) => get(m[1]!));
  let text = literals(code.length > 64 * 1024 ? code.slice(0, 64 * 1024) : code, language, put);

  const rules: [RegExp, (m: string[]) => string | undefined][] = [
    // chr(45), chr(0x2d), String.fromCharCode(97, 103), 45.chr, perl `chr 45`
    [new RegExp(`\\b(?:chr|unichr|String\\.fromCharCode|String\\.fromCodePoint|fromCharCode|mb_chr)\\s*\\(\\s*(${NUM}(?:\\s*,\\s*${NUM})*)\\s*\\)`, 'g'), (m) => put(codes(m[1]!))],
    [new RegExp(`(?<![\\w.])(${NUM})\\s*\\.chr\\b`, 'g'), (m) => put(codes(m[1]!))],
    [new RegExp(`\\bchr\\s+(${NUM})\\b`, 'g'), (m) => put(codes(m[1]!))],
    // Buffer.from(s, 'base64'|'hex'|'utf8'), atob(s), b64decode(s), Base64.decode64(s), decode_base64(s), base64_decode(s)
    [new RegExp(`\\bBuffer\\.from\\s*\\(\\s*${P}\\s*(?:,\\s*${P}\\s*)?\\)`, 'g'), (m) => putDecoded(get(m[1]!), m[2] === undefined ? 'utf8' : get(m[2]).toLowerCase())],
    [new RegExp(`(?:\\batob|\\b(?:base64\\.)?(?:b64decode|standard_b64decode|urlsafe_b64decode|decodebytes|decodestring)|\\bBase64\\.(?:decode64|strict_decode64|urlsafe_decode64)|\\bMIME::Base64::decode(?:_base64)?|\\bdecode_base64|\\bbase64_decode)\\s*\\(\\s*${P}\\s*(?:,\\s*\\w+\\s*=?\\s*\\w*\\s*)?\\)`, 'g'), (m) => putDecoded(get(m[1]!), 'base64')],
    [new RegExp(`(?:\\bbytes\\.fromhex|\\bbytearray\\.fromhex|\\b(?:binascii\\.)?(?:unhexlify|a2b_hex)|\\bhex2bin)\\s*\\(\\s*${P}\\s*\\)`, 'g'), (m) => putDecoded(get(m[1]!), 'hex')],
    // Conversions that keep the text: .decode(), .toString(), .to_s, str(), String(), Path()
    [new RegExp(`${P}\\s*\\.\\s*(?:decode|toString|to_s|to_str|encode|strip|trim|lstrip|rstrip|chomp|as_posix|expanduser|resolve|absolute)\\b(?:\\s*\\(\\s*(?:${P}|\\w+)?\\s*\\))?`, 'g'), (m) => put(get(m[1]!))],
    [new RegExp(`(?<![\\w$.])(?:str|String|bytes|Path|PurePath|PosixPath|pathlib\\.Path|pathlib\\.PurePath|os\\.fsencode|os\\.fsdecode|os\\.path\\.normpath|os\\.path\\.abspath|os\\.path\\.expanduser|path\\.normalize|File\\.expand_path)\\s*\\(\\s*${P}\\s*(?:,\\s*(?:${P}|\\w+)\\s*)?\\)`, 'g'), (m) => put(get(m[1]!))],
    // Reversal: s[::-1], s.split('').reverse().join(''), [...s].reverse().join(''), s.reverse (ruby), reverse(s) (perl)
    [new RegExp(`${P}\\s*\\[\\s*:\\s*:\\s*-\\s*1\\s*\\]`, 'g'), (m) => put(reverse(get(m[1]!)))],
    [new RegExp(`${P}\\s*\\.\\s*split\\s*\\(\\s*${P}\\s*\\)\\s*\\.\\s*reverse\\s*\\(\\s*\\)\\s*\\.\\s*join\\s*\\(\\s*${P}\\s*\\)`, 'g'), (m) => (get(m[2]!) === '' && get(m[3]!) === '' ? put(reverse(get(m[1]!))) : undefined)],
    [new RegExp(`\\[\\s*\\.\\.\\.\\s*${P}\\s*\\]\\s*\\.\\s*reverse\\s*\\(\\s*\\)\\s*\\.\\s*join\\s*\\(\\s*${P}\\s*\\)`, 'g'), (m) => (get(m[2]!) === '' ? put(reverse(get(m[1]!))) : undefined)],
    [new RegExp(`${P}\\s*\\.\\s*reverse\\b(?:\\s*\\(\\s*\\))?`, 'g'), (m) => put(reverse(get(m[1]!)))],
    [new RegExp(`\\b(?:scalar\\s+)?reverse\\s*\\(\\s*${P}\\s*\\)`, 'g'), (m) => put(reverse(get(m[1]!)))],
    // s.replace(a, b) (every occurrence: the over-approximation reaches what a first-only replace does when a occurs once)
    [new RegExp(`${P}\\s*\\.\\s*(?:replace|replaceAll|gsub|sub|tr)\\s*\\(\\s*${P}\\s*,\\s*${P}\\s*\\)`, 'g'), (m) => put(get(m[1]!).split(get(m[2]!)).join(get(m[3]!)))],
    [new RegExp(`${P}\\s*\\.\\s*concat\\s*\\(\\s*${LIST}\\s*\\)`, 'g'), (m) => put(get(m[1]!) + listValues(m[2]!).join(''))],
    // Joins: 'sep'.join([a, b]), [a, b].join(sep), os.path.join(a, b), path.join(…), File.join(…), perl join(sep, a, b)
    [new RegExp(`${P}\\s*\\.\\s*join\\s*\\(\\s*[[(]\\s*${LIST}\\s*[\\])]\\s*\\)`, 'g'), (m) => put(listValues(m[2]!).join(get(m[1]!)))],
    [new RegExp(`\\[\\s*${LIST}\\s*\\]\\s*\\.\\s*join\\s*\\(\\s*(?:${P})?\\s*\\)`, 'g'), (m) => put(listValues(m[1]!).join(m.at(-1) === undefined ? ',' : get(m.at(-1)!)))],
    [new RegExp(`\\b(?:os\\.path\\.join|posixpath\\.join|path\\.join|path\\.resolve|path\\.posix\\.join|path\\.posix\\.resolve|File\\.join|Pathname\\.new|Path\\.Combine|joinpath|catfile|catdir)\\s*\\(\\s*${LIST}\\s*\\)`, 'g'), (m) => put(pathJoin(listValues(m[1]!)))],
    [new RegExp(`${P}\\s*\\.\\s*joinpath\\s*\\(\\s*${LIST}\\s*\\)`, 'g'), (m) => put(pathJoin([get(m[1]!), ...listValues(m[2]!)]))],
    [new RegExp(`\\bjoin\\s*\\(?\\s*${P}\\s*,\\s*${LIST}\\s*\\)?`, 'g'), (m) => (language === 'perl' ? put(listValues(m[2]!).join(get(m[1]!))) : undefined)],
    // Concatenation: a + b, Perl/PHP a . b, adjacent literals, pathlib a / b; a parenthesised literal.
    [new RegExp(`${P}\\s*\\+\\s*${P}`, 'g'), (m) => put(get(m[1]!) + get(m[2]!))],
    [new RegExp(`${P}\\s*\\.\\s*${P}`, 'g'), (m) => put(get(m[1]!) + get(m[2]!))],
    [new RegExp(`${P}\\s*${P}`, 'g'), (m) => put(get(m[1]!) + get(m[2]!))],
    [new RegExp(`${P}\\s*/\\s*${P}`, 'g'), (m) => put(pathJoin([get(m[1]!), get(m[2]!)]))],
    [new RegExp(`(?<![\\w$.\\])])\\(\\s*${P}\\s*\\)`, 'g'), (m) => put(get(m[1]!))],
  ];
  for (let round = 0; round < 24; round++) {
    const before = text;
    for (const [re, rewrite] of rules) {
      text = text.replace(re, (...args) => {
        const groups = args.slice(0, -2).filter((a): a is string | undefined => typeof a === 'string' || a === undefined) as string[];
        return rewrite(groups) ?? (args[0] as string);
      });
      if (values.length > 20_000) break;
    }
    if (text === before || values.length > 20_000) break;
  }

  const strings: CodeString[] = [];
  for (const m of text.matchAll(new RegExp(P, 'g'))) {
    if (strings.length >= 2048) break;
    const value = get(m[1]!);
    // A window either side is enough to see what the string stands next to (and keeps this linear).
    const before = text.slice(Math.max(0, m.index - 64), m.index).replace(/\s+$/, '');
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 16).replace(/^\s+/, '');
    // The first argument of a call that is not a join, or an assigned value: a path on its own.
    const first = /\(\s*$/.test(before) && !/(?:join|joinpath|resolve|catfile|catdir|Combine|concat)\s*\($/.test(before);
    const assigned = /(?:^|[^=!<>])=$/.test(before) || /^(?:my\s+)?[$@]?\w+\s*=$/.test(before);
    const whole = (first || assigned) && /^(?:$|[),;\n])/.test(after);
    strings.push({ value, complete: !value.includes(UNKNOWN), whole });
  }
  // Character codes and ciphers turn numbers or scrambled text into names; a base64 or hex decoder of
  // a variable is not listed: its input is a literal somewhere in the code (judged decoded, below) or
  // read at run time (content, usually), and listing it would block every script that decodes data.
  const unevaluated = [...text.matchAll(/\b(?:chr|unichr|fromCharCode|fromCodePoint|rot13|rot_13|maketrans|translate|codecs\.decode|pack|unpack1?)\s*\(/g)].map((m) => m[0]);
  const shown = text.replace(new RegExp(P, 'g'), (_, i: string) => `'${get(i).replaceAll(UNKNOWN, '*')}'`);
  return { strings, text: shown, unevaluated };
}

/** Replaces each string literal with a placeholder of its value. */
function literals(code: string, language: CodeLanguage, put: (value: string) => string): string {
  let out = '';
  let i = 0;
  while (i < code.length) {
    const c = code[i]!;
    if (c === '#' && (language === 'python' || language === 'ruby' || language === 'perl') && !/[$@%{\w]/.test(code[i - 1] ?? ' ')) {
      // A comment: its quotes are not strings (an apostrophe in `# don't` would pair with the next quote).
      const end = code.indexOf('\n', i);
      i = end === -1 ? code.length : end;
      continue;
    }
    if (c !== '"' && c !== "'" && c !== '`') {
      out += c;
      i++;
      continue;
    }
    // Python prefixes (r, b, f, rb, fr, u) sit right before the quote.
    const prefix = /([rRbBuUfF]{1,2})$/.exec(out)?.[1] ?? '';
    const prefixed = prefix !== '' && !/[\w$]/.test(out[out.length - prefix.length - 1] ?? ' ') && language === 'python';
    const raw = prefixed && /r/i.test(prefix);
    const formatted = (prefixed && /f/i.test(prefix)) || c === '`';
    if (prefixed) out = out.slice(0, -prefix.length);
    const triple = language === 'python' && code.startsWith(c.repeat(3), i);
    const quote = triple ? c.repeat(3) : c;
    let j = i + quote.length;
    let body = '';
    let closed = false;
    while (j < code.length) {
      if (code.startsWith(quote, j)) {
        closed = true;
        break;
      }
      if (code[j] === '\\' && j + 1 < code.length) {
        body += code.slice(j, j + 2);
        j += 2;
        continue;
      }
      if (!triple && c !== '`' && code[j] === '\n') break;
      body += code[j];
      j++;
    }
    if (!closed) {
      out += code.slice(i, j);
      i = j;
      continue;
    }
    out += put(stringValue(body, { language, quote: c, raw, formatted }));
    i = j + quote.length;
  }
  return out;
}

function stringValue(body: string, how: { language: CodeLanguage; quote: string; raw: boolean; formatted: boolean }): string {
  const { language, quote, raw, formatted } = how;
  // Perl, Ruby and PHP interpolate variables in double quotes; single quotes only escape `\\` and the quote.
  const interpolates = quote === '"' && (language === 'perl' || language === 'ruby' || language === 'php');
  const singleOnly = quote === "'" && (language === 'perl' || language === 'ruby' || language === 'php');
  let text = body;
  // An interpolation of a plain literal is that literal (`${".e"}nv`, f"{'.e'}nv"); any other is unknown.
  const part = (inner: string): string => /^\s*(["'])((?:\\.|(?!\1)[^\\])*)\1\s*$/.exec(inner)?.[2] ?? UNKNOWN;
  if (formatted) text = quote === '`' ? text.replace(/\$\{([^}]*)\}?/g, (_, inner: string) => part(inner)) : text.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (m, inner?: string) => (m === '{{' ? '{' : m === '}}' ? '}' : part(inner ?? '')));
  if (interpolates) text = text.replace(/#\{[^}]*\}|\$\{[^}]*\}|[$@][A-Za-z_]\w*(?:(?:->)?\[[^\]]*\]|(?:->)?\{[^}]*\})*/g, UNKNOWN);
  if (raw) return text;
  if (singleOnly) return text.replace(/\\([\\'])/g, '$1');
  return unescape(text);
}

const SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', e: '\x1b', '0': '\0' };

/** Escapes as the usual interpreters read them: `\x2d`, `\u002d`, `\u{2d}`, `\055`, `\n`, `\"`. */
export function unescape(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|x\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]+\}|U[0-9a-fA-F]{8}|[0-7]{1,3}|[\s\S])/g, (whole, e: string) => {
    if (/^[0-7]{1,3}$/.test(e)) return fromCode(parseInt(e, 8));
    if (/^[xuU]/.test(e) && e.length > 1) return fromCode(parseInt(e.slice(1).replace(/[{}]/g, ''), 16));
    return SIMPLE[e] ?? e;
  });
}

function fromCode(code: number): string {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : UNKNOWN;
}

function codes(list: string): string {
  return list.split(',').map((n) => {
    const t = n.trim();
    return fromCode(/^0[xX]/.test(t) ? parseInt(t.slice(2), 16) : /^0[oO]/.test(t) ? parseInt(t.slice(2), 8) : Number(t));
  }).join('');
}

/** The text `value` decodes to, when it is printable; undefined otherwise (left unevaluated). */
function decode(value: string, encoding: string): string | undefined {
  if (value.includes(UNKNOWN)) return undefined;
  if (/^(?:utf-?8|latin1|binary|ascii|utf-?16le|ucs-?2)$/.test(encoding)) return value;
  let bytes: Buffer;
  if (encoding === 'base64' || encoding === 'base64url') {
    const clean = value.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) return undefined;
    bytes = Buffer.from(clean.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  } else if (encoding === 'hex') {
    const clean = value.replace(/\s+/g, '');
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(clean)) return undefined;
    bytes = Buffer.from(clean, 'hex');
  } else return undefined;
  const text = bytes.toString('utf8');
  return /^[\x09\x0a\x0d\x20-\x7e]*$/.test(text) ? text : undefined;
}

function reverse(value: string): string {
  return [...value].reverse().join('');
}

function pathJoin(parts: string[]): string {
  let out = '';
  for (const part of parts) out = part.startsWith('/') || out === '' ? part : `${out.replace(/\/+$/, '')}/${part}`;
  return out;
}

/**
 * The code inside each `{…}` of `code` that holds a quote: interpolations (`${…}` in a template literal,
 * `{…}` in an f-string, `#{…}` in Ruby) run code whose literals the string scanner reads as part of the
 * surrounding string. Every brace pair is taken, not only those inside strings: a block of code judged
 * twice is judged the same, and telling an interpolation from a block would need the whole grammar. The
 * closing brace is found with the strings inside skipped (`${"}" + read(".env")}`). No cap on how many:
 * a cap let harmless pairs ahead of the real one hide it; past a scanning budget, `overflow` says the
 * code was not judged whole (the caller fails closed).
 */
export function interpolations(code: string): { bodies: string[]; overflow: boolean } {
  const bodies: string[] = [];
  const budget = { left: 4 * 1024 * 1024 };
  let total = 0;
  for (let i = code.indexOf('{'); i !== -1; i = code.indexOf('{', i + 1)) {
    const end = closingBrace(code, i + 1, budget);
    if (budget.left < 0) return { bodies, overflow: true };
    const body = code.slice(i + 1, end);
    if (!/["'`]/.test(body)) continue;
    total += body.length;
    if (total > 1024 * 1024) return { bodies, overflow: true };
    bodies.push(body);
  }
  return { bodies, overflow: false };
}

/** Where the brace opened before `from` closes (or the end of the code), quoted strings skipped whole. */
function closingBrace(code: string, from: number, budget: { left: number }): number {
  let depth = 1;
  let j = from;
  while (j < code.length) {
    const c = code[j]!;
    if (c === '"' || c === "'" || c === '`') {
      let k = j + 1;
      while (k < code.length && code[k] !== c && code[k] !== '\n') k += code[k] === '\\' ? 2 : 1;
      // An unclosed quote (an apostrophe in a comment, a regex): not a string, step over the quote alone.
      j = k < code.length && code[k] === c ? k + 1 : j + 1;
    } else {
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
      j++;
    }
    if (--budget.left < 0) break;
  }
  return Math.min(j, code.length);
}

/**
 * Every quoted run with no other quote in it, escapes read (`".env"` inside `` `${read(".env")}` ``):
 * a second reading of the code's strings that an outer template literal or f-string cannot swallow,
 * since a run stops at any quote of any kind.
 */
export function bareLiterals(code: string): string[] {
  return [...code.matchAll(/(["'`])((?:\\.|[^"'`\\\n])*)\1/g)].map((m) => m[2]!);
}
