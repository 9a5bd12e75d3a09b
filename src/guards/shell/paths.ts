// Lexical path arithmetic: no filesystem access, `~` kept as a root of its own.

/**
 * Normalizes `path` against `cwd` (when both are known): collapses `//`, `.` and `..`, drops a
 * trailing slash. `~/x/..` is `~`; `~/..` leaves home and becomes `/home`. Relative paths stay
 * relative when the working directory is unknown.
 */
export function normalizePath(path: string, cwd?: string): string {
  let full = path;
  if (!path.startsWith('/') && !path.startsWith('~') && cwd !== undefined) {
    full = cwd.endsWith('/') ? cwd + path : `${cwd}/${path}`;
  }
  const absolute = full.startsWith('/');
  const home = !absolute && (full === '~' || full.startsWith('~/'));
  const body = home ? full.slice(1) : full;
  const out: string[] = home ? ['~'] : [];
  for (const segment of body.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 1 && out[0] === '~') {
        out.splice(0, 1, '', 'home');
        continue;
      }
      if (out.length > 0 && out[out.length - 1] !== '..' && out[out.length - 1] !== '') out.pop();
      else if (!absolute && out[0] !== '') out.push('..');
      continue;
    }
    out.push(segment);
  }
  if (absolute) return `/${out.filter((s) => s !== '').join('/')}`;
  if (out[0] === '') return `/${out.slice(1).join('/')}`;
  return out.length === 0 ? '.' : out.join('/');
}
