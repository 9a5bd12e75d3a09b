// `match` patterns written `/.../flags`: JavaScript regexes (SHARED decision 1). A bare pattern that
// only looks like a regex would be read as a glob and silently match nothing (`Edit|Write` names no
// tool), so it is refused with the `/.../` spelling that does what was meant.

/** A compiled `/.../flags` pattern, or the reason it cannot be one. */
export type RegexPattern = { ok: true; regex: RegExp } | { ok: false; message: string };

const SLASHED = /^\/(.+)\/([a-z]*)$/s;

/** True for a pattern written `/.../` (with optional flags). */
export function isRegexPattern(pattern: string): boolean {
  return SLASHED.test(pattern);
}

/**
 * Compiles `/body/flags`. `g` and `y` are dropped: they make `test` remember where it stopped, so the
 * same pattern would answer differently on the second tool of a run.
 */
export function compileRegexPattern(pattern: string): RegexPattern {
  const m = SLASHED.exec(pattern);
  if (m === null) return { ok: false, message: `"${pattern}" is not written /.../` };
  const flags = m[2]!.replace(/[gy]/g, '');
  if (!/^[dimsuv]*$/.test(flags) || new Set(flags).size !== flags.length) return { ok: false, message: `${pattern}: unknown or repeated regex flag in "${m[2]}" (use d, i, m, s, u or v)` };
  try {
    return { ok: true, regex: new RegExp(m[1]!, flags) };
  } catch (error) {
    return { ok: false, message: `${pattern}: not a valid regex (${(error as Error).message.replace(/^Invalid regular expression: /, '')})` };
  }
}

/** The characters that give a regex away in a bare pattern: `|`, `^`, `$`, `.*`, `\`, `(`, `+`. */
const REGEX_LOOKING = /[|^$\\(+]|\.\*/;

/** Why a bare (not `/.../`) pattern cannot be a glob, with the regex spelling to use instead. */
export function regexLooking(pattern: string): string | undefined {
  if (isRegexPattern(pattern) || !REGEX_LOOKING.test(pattern)) return undefined;
  return `"${pattern}" looks like a regex, but a bare match pattern is a glob (where it would match nothing); write it as a regex: "/${pattern}/" (or list names: ["Edit", "Write"])`;
}

const compiled = new Map<string, RegExp | null>();
/** The regex of a `/.../` pattern (cached); null when it does not compile (the config check said why). */
export function regexOf(pattern: string): RegExp | null {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    const c = compileRegexPattern(pattern);
    regex = c.ok ? c.regex : null;
    compiled.set(pattern, regex);
  }
  return regex;
}
