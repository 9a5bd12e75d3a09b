// What an `extends` entry names: a path, an npm package (or a file in one), or a git repository pinned by
// a full commit hash. Parsed here, once; nothing is read or fetched. Untrusted input: a repository writes
// these strings, so each form is narrow and anything else is refused with one line.
import { holdsControl } from '../../report/printable.js';

export type ExtendsSource =
  | { kind: 'path'; path: string }
  | { kind: 'package'; name: string; subpath?: string }
  | { kind: 'git'; url: string; commit: string; path?: string };

export type Parsed = { ok: true; source: ExtendsSource } | { ok: false; message: string };

/** `git+<scheme>://…#<40 hex>[:path/in/repo.json]`. */
const GIT = /^git\+(https|ssh|file):\/\/([^#\s]*)(?:#(.*))?$/;
const COMMIT = /^[0-9a-f]{40}$/;
/** npm's rules for a package name, scoped or not (lower case, no leading dot or underscore). */
const PACKAGE = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
/** A file inside a package or repository: plain relative segments, no `..`, no leading `/` or `-`. */
const SUBPATH = /^(?!-)(?:[\w@.~-]+\/)*[\w@.~-]+$/;
/** The path of an https:// or ssh:// source, from its first "/": plain characters only (see parseGit). */
const REPO_PATH = /^\/[\p{L}\p{N}._~+\/-]+$/u;
/** The host of an https:// or ssh:// source (a name, or an IPv6 address in brackets), an optional port, and for ssh a plain user. */
const AUTHORITY = /^(?:([A-Za-z0-9_][\w-]{0,63})@)?([A-Za-z0-9][A-Za-z0-9.-]{0,252}|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Files an extended config may be: data only (JSON, YAML). A JavaScript config would run code. */
export const EXTENDS_DATA = /\.(json|ya?ml)$/i;

export function parseExtends(spec: string): Parsed {
  const fail = (why: string): Parsed => ({ ok: false, message: `extends "${printable(spec)}": ${why}` });
  if (spec.length === 0) return fail('empty');
  if (spec.length > 2048) return fail('longer than 2048 characters');
  // Control characters would reach git's command line or a message as they are, and `hooks trust` shows the URL
  // right before it asks: C1 controls (a one-byte CSI on some terminals), bidirectional overrides, separators and
  // zero-width characters could redraw or hide what it shows.
  if (holdsControl(spec)) return fail('holds a control or invisible character');
  if (spec.startsWith('git+') || /^(git|https?|ssh|file):/i.test(spec) || /^[\w.-]+@[\w.-]+:/.test(spec)) return parseGit(spec, fail);
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('~')) {
    if (spec.startsWith('~') && !spec.startsWith('~/') && spec !== '~') return fail('~user paths are not supported; write ~/… or the full path');
    if (!EXTENDS_DATA.test(spec)) return fail('an extended file must be JSON or YAML (.json, .yaml, .yml): a JavaScript config would run code');
    return { ok: true, source: { kind: 'path', path: spec } };
  }
  // A package, or a file in one: `@team/policy`, `policy/strict.json`.
  const parts = spec.split('/');
  const nameParts = spec.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameParts).join('/');
  const subpath = parts.slice(nameParts).join('/');
  if (!PACKAGE.test(name) || name.length > 214) return fail('not a path (start it with ./, ../, / or ~/), a package name or a git+https:// / git+ssh:// URL');
  if (subpath === '') return { ok: true, source: { kind: 'package', name } };
  if (!SUBPATH.test(subpath) || subpath.split('/').some((s) => s === '..' || s === '.')) return fail('the file in the package must be a plain relative path');
  if (!EXTENDS_DATA.test(subpath)) return fail('an extended file must be JSON or YAML (.json, .yaml, .yml): a JavaScript config would run code');
  return { ok: true, source: { kind: 'package', name, subpath } };
}

function parseGit(spec: string, fail: (why: string) => Parsed): Parsed {
  const m = GIT.exec(spec);
  if (m === null) return fail('a git source is written git+https://host/repo.git#<commit>, git+ssh://… or git+file:///…, pinned by a full 40-character commit hash');
  const [, scheme, rest, fragment] = m;
  if (fragment === undefined || fragment === '') return fail('a git source must be pinned by a full 40-character commit hash (…#<commit>): a branch or tag can change under you');
  const colon = fragment.indexOf(':');
  const commit = colon === -1 ? fragment : fragment.slice(0, colon);
  const file = colon === -1 ? undefined : fragment.slice(colon + 1);
  if (!COMMIT.test(commit)) return fail(`"#${printable(commit)}" is not a full 40-character commit hash (lower-case hex): a branch, tag or short hash can change under you`);
  // The host, user or port (or the path, for file://) would be read by git or ssh as an option if it began with "-".
  if (rest!.startsWith('-') || /[/@:]-/.test(rest!) || /\s/.test(rest!)) return fail('the URL may not hold spaces or a part starting with "-"');
  if (scheme === 'file' ? !rest!.startsWith('/') : !/^[^/]+\/./.test(rest!)) return fail(scheme === 'file' ? 'git+file:// needs an absolute path (git+file:///srv/repo.git)' : 'the URL needs a host and a repository path');
  if (scheme !== 'file') {
    // `hooks trust` shows this URL before it asks, and `https://github.com:443@evil.example/…` reads as GitHub
    // while git fetches from evil.example: the part before the host is refused unless it is a plain ssh user
    // (git@…). A password or token in a URL a repository commits would be leaked with it, too.
    const slash = rest!.indexOf('/');
    const authority = AUTHORITY.exec(rest!.slice(0, slash));
    if (authority === null) {
      return fail(/^[^/]*:[^/\d]/.test(rest!) ? 'write ssh://git@host/org/repo.git, with a / after the host (git+ssh:// does not take the host:path form)' : 'the URL\'s host must be a plain name or [IPv6] address with an optional :port (only ssh:// takes a user, as in git@host)');
    }
    if (scheme === 'https' && authority[1] !== undefined) return fail('an https:// source may not name a user or token before the host (drop "user@"): a committed URL would leak it, user@host reads as another host, and git\'s credential helper supplies them');
    // git decodes %-escapes and looks for "@[" anywhere in an ssh URL, path included: ssh://git@github.com/x@[evil.example]/r
    // reaches ssh as the host evil.example. The path is held to plain characters, for https too.
    if (!REPO_PATH.test(rest!.slice(slash))) return fail('the repository path may hold only letters, digits and . _ ~ + - / (no %-escapes, @, [ ] or ?)');
  }
  if (file !== undefined) {
    if (!SUBPATH.test(file) || file.split('/').some((s) => s === '..' || s === '.')) return fail('the file in the repository (after ":") must be a plain relative path');
    if (!EXTENDS_DATA.test(file)) return fail('an extended file must be JSON or YAML (.json, .yaml, .yml): a JavaScript config would run code');
  }
  const source: ExtendsSource = { kind: 'git', url: `${scheme}://${rest}`, commit, ...(file === undefined ? {} : { path: file }) };
  return { ok: true, source };
}

/** A spec as it may appear in a message: control characters escaped, long ones cut. */
export function printable(spec: string): string {
  const shown = JSON.stringify(spec).slice(1, -1);
  return shown.length > 120 ? `${shown.slice(0, 120)}…` : shown;
}
