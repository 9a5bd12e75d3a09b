// Glob → RegExp for sensitive-paths. Total: every input string compiles to a valid RegExp or is
// reported as too complex; nothing here throws (issue 10: a `**` word or `[b-a]` used to throw
// "Unterminated group" / "Range out of order", and the guard's failure let the command through).

export interface GlobOptions {
  /** `*`, `?` and `[...]` at the start of a segment match a leading dot (rules: a secret dotfile must not slip by). */
  dot?: boolean;
  /**
   * How `[...]` is read. `exact` follows the shell (a reversed range matches nothing), for rules
   * and user globs. `wide` reads any bracket as "one character": for a shell word the guard
   * over-approximates what it could expand to, which errs toward judging more files.
   */
  brackets?: 'exact' | 'wide';
}

/** Globs with more wildcards than this are not compiled: a backtracking RegExp could take exponential time. */
export const MAX_GLOB_WILDCARDS = 12;
/** Longest glob compiled; longer words are judged unverifiable by the caller. */
export const MAX_GLOB_LENGTH = 4096;

export type CompiledGlob = { ok: true; re: RegExp } | { ok: false; error: string };

/** True when `text` has an unescaped glob character or a brace list that the shell would expand. */
export function hasGlobMagic(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || c === '[') return true;
  }
  // `.{env,x}` is brace expansion the shell layer left as written.
  return /\{[^{}]*,[^{}]*\}/.test(text);
}

/** Compiles `glob`, or says why it will not (too long, too many wildcards). Never throws. */
export function compileGlob(glob: string, options: GlobOptions = {}): CompiledGlob {
  if (glob.length > MAX_GLOB_LENGTH) return { ok: false, error: `glob longer than ${MAX_GLOB_LENGTH} characters` };
  const source = translate(glob, options);
  if (source.wildcards > MAX_GLOB_WILDCARDS) return { ok: false, error: `glob with more than ${MAX_GLOB_WILDCARDS} wildcards` };
  try {
    return { ok: true, re: new RegExp(`^${source.re}$`, 's') };
  } catch (error) {
    // Unreachable by construction (every literal is escaped, every class is rebuilt); kept so a
    // future edit that breaks the invariant fails closed at the caller instead of throwing.
    return { ok: false, error: `glob did not compile: ${(error as Error).message}` };
  }
}

/**
 * The anchored RegExp source of a glob the guard itself writes (its rule table), without building
 * a RegExp: the judge joins hundreds of them into a few RegExps, and each RegExp costs a parse.
 */
export function globSource(glob: string, options: GlobOptions = {}): string {
  return `^${translate(glob, options).re}$`;
}

/** Like `compileGlob`, for globs the guard itself writes or the user configured: an uncompilable one matches nothing. */
export function globToRegExp(glob: string, options: GlobOptions = {}): RegExp {
  const compiled = compileGlob(glob, options);
  return compiled.ok ? compiled.re : /(?!)/;
}

function translate(glob: string, { dot = true, brackets = 'exact' }: GlobOptions): { re: string; wildcards: number } {
  const braces = matchBraces(glob);
  let out = '';
  let wildcards = 0;
  let depth = 0;
  const noDot = (i: number): string => (!dot && (i === 0 || glob[i - 1] === '/') ? '(?!\\.)' : '');
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') {
      if (i + 1 < glob.length) out += escapeRe(glob[++i]!);
      else out += '\\\\';
    } else if (c === '/' && glob.slice(i) === '/**') {
      // `dir/**` also matches `dir` itself.
      out += '(?:/.*)?';
      wildcards++;
      break;
    } else if (c === '*') {
      let j = i;
      while (glob[j + 1] === '*') j++;
      const double = j > i;
      const atSegmentStart = i === 0 || glob[i - 1] === '/';
      wildcards++;
      if (double && atSegmentStart && glob[j + 1] === '/') {
        out += noDot(i) + '(?:[^/]*/)*';
        i = j + 1;
      } else if (double) {
        out += noDot(i) + '.*';
        i = j;
      } else {
        out += noDot(i) + '[^/]*';
      }
    } else if (c === '?') {
      wildcards++;
      out += noDot(i) + '[^/]';
    } else if (c === '[') {
      const cls = bracket(glob, i, brackets);
      if (cls === undefined) out += '\\[';
      else {
        wildcards++;
        out += noDot(i) + cls.re;
        i = cls.end;
      }
    } else if (c === '{' && braces.has(i)) {
      depth++;
      out += '(?:';
    } else if (c === '}' && depth > 0 && braces.has(i)) {
      depth--;
      out += ')';
    } else if (c === ',' && depth > 0) {
      out += '|';
    } else out += escapeRe(c);
  }
  return { re: out, wildcards };
}

/** Positions of `{` and `}` that pair up (and have a comma inside, as the shell requires); others are literal. */
function matchBraces(glob: string): Set<number> {
  const paired = new Set<number>();
  const stack: { at: number; comma: boolean }[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '[') {
      // Skip a bracket expression: a `}` inside it is a member, not a closer.
      const end = bracketEnd(glob, i);
      if (end !== -1) i = end;
    } else if (c === '{') stack.push({ at: i, comma: false });
    else if (c === ',' && stack.length > 0) stack[stack.length - 1]!.comma = true;
    else if (c === '}' && stack.length > 0) {
      const open = stack.pop()!;
      if (open.comma) {
        paired.add(open.at);
        paired.add(i);
      }
    }
  }
  return paired;
}

/** Index of the `]` closing the bracket opened at `start`, or -1. `[]a]` and `[!]a]` hold a literal `]`. */
function bracketEnd(glob: string, start: number): number {
  let i = start + 1;
  if (glob[i] === '!' || glob[i] === '^') i++;
  if (glob[i] === ']') i++;
  for (; i < glob.length; i++) {
    if (glob[i] === '/') return -1;
    if (glob[i] === '[' && glob[i + 1] === ':') {
      // `[[:digit:]]`: the class name's own `]` does not close the bracket.
      const close = glob.indexOf(':]', i + 2);
      if (close !== -1 && !glob.slice(i, close).includes('/')) {
        i = close + 1;
        continue;
      }
    }
    if (glob[i] === ']') return i;
  }
  return -1;
}

/** A bracket expression rebuilt member by member, so no input can produce an invalid class. */
function bracket(glob: string, start: number, mode: 'exact' | 'wide'): { re: string; end: number } | undefined {
  const end = bracketEnd(glob, start);
  if (end === -1) return undefined;
  if (mode === 'wide') return { re: '[^/]', end };
  let i = start + 1;
  const negate = glob[i] === '!' || glob[i] === '^';
  if (negate) i++;
  const members: string[] = [];
  const body = glob.slice(i, end);
  for (let k = 0; k < body.length; k++) {
    const c = body[k]!;
    if (c === '[' && body[k + 1] === ':') {
      const close = body.indexOf(':]', k + 2);
      if (close !== -1) {
        members.push(POSIX_CLASSES[body.slice(k + 2, close)] ?? '');
        k = close + 1;
        continue;
      }
    }
    if (body[k + 1] === '-' && k + 2 < body.length) {
      const to = body[k + 2]!;
      // A reversed range (`[b-a]`) matches nothing in the shell; a RegExp would throw on it.
      if (c.codePointAt(0)! <= to.codePointAt(0)!) members.push(`${classChar(c)}-${classChar(to)}`);
      k += 2;
      continue;
    }
    members.push(classChar(c));
  }
  const set = members.join('');
  if (set === '') return { re: negate ? '[^/]' : '(?!)', end };
  return { re: negate ? `(?![/${set}])[\\s\\S]` : `(?=[^/])[${set}]`, end };
}

const POSIX_CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  xdigit: '0-9a-fA-F',
  punct: '!-\\/:-@\\[-`{-~',
  word: '\\w',
};

function classChar(c: string): string {
  return /[\\\]\[^-]/.test(c) ? `\\${c}` : c;
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
