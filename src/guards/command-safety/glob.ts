// Deny/allow patterns: `*` is any run of characters, `?` one character, the rest literal.
// Matched with a linear-time two-pointer walk rather than a RegExp, so a pattern such as
// `*a*a*a*a*b` cannot make matching backtrack exponentially on a long command.

export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    const c = pattern[p];
    if (c === '*') {
      star = p;
      mark = t;
      p += 1;
    } else if (c !== undefined && (c === '?' || c === text[t])) {
      p += 1;
      t += 1;
    } else if (star !== -1) {
      p = star + 1;
      mark += 1;
      t = mark;
    } else return false;
  }
  while (pattern[p] === '*') p += 1;
  return p === pattern.length;
}
