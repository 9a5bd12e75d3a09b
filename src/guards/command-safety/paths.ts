// What a path means to the rules: the root, a home, a system directory, a disk, an auth file.
import { normalizePath } from '../shell/paths.js';
import type { ShellWord } from '../shell/types.js';

export type PathClass =
  | 'root'
  | 'root-glob'
  | 'home'
  | 'home-glob'
  | 'system'
  | 'system-glob'
  | 'parent'
  | 'other';

/** Top-level and well-known directories whose loss breaks the machine or other users. */
const SYSTEM_DIRS = new Set([
  '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/opt', '/proc',
  '/root', '/run', '/sbin', '/srv', '/sys', '/tmp', '/usr', '/var', '/snap', '/nix', '/mnt', '/media',
  '/usr/bin', '/usr/sbin', '/usr/lib', '/usr/lib64', '/usr/local', '/usr/share', '/usr/include',
  '/usr/libexec', '/usr/local/bin', '/usr/local/lib', '/var/lib', '/var/log', '/var/cache',
  '/var/spool', '/var/mail', '/var/db', '/var/run', '/etc/ssh', '/etc/pam.d', '/etc/sudoers.d',
  '/System', '/Library', '/Applications', '/Users', '/Volumes', '/private', '/private/etc',
  '/private/var', '/cores',
]);

const TEMP_DIRS = new Set(['/tmp', '/var/tmp', '/private/tmp']);
const HOME_PARENTS = ['/home/', '/Users/'];
const GLOB = /[*?[{]/;

/** The normalized form of a path word, relative to `cwd` when known. */
export function pathOf(value: string, cwd?: string): string {
  return normalizePath(value, cwd);
}

export function classifyPath(value: string, cwd?: string): PathClass {
  if (value === '') return 'other';
  const path = normalizePath(value, cwd);
  if (path === '/') return 'root';
  if (path === '~') return 'home';
  const segments = path.split('/');
  if (path.startsWith('/')) {
    if (segments.length === 2 && GLOB.test(segments[1]!)) return 'root-glob';
    if (SYSTEM_DIRS.has(path)) return 'system';
    if (path === '/root' || (segments.length === 3 && HOME_PARENTS.some((p) => path.startsWith(p)) && !GLOB.test(segments[2]!))) return 'home';
    const parent = segments.slice(0, -1).join('/');
    const last = segments[segments.length - 1]!;
    if (GLOB.test(last) && isGlobAll(last)) {
      // Emptying a temp directory is routine; removing the directory itself is not.
      if (SYSTEM_DIRS.has(parent) && !TEMP_DIRS.has(parent)) return 'system-glob';
      if (parent === '/root' || (segments.length === 4 && HOME_PARENTS.some((p) => parent.startsWith(p)))) return 'home-glob';
    }
    if (segments.length === 3 && HOME_PARENTS.some((p) => path.startsWith(p)) && GLOB.test(segments[2]!)) return 'system-glob';
    return 'other';
  }
  if (segments[0] === '~') {
    if (segments.length === 2 && isGlobAll(segments[1]!)) return 'home-glob';
    return 'other';
  }
  if (segments.every((s) => s === '..' || isGlobAll(s)) && segments[0] === '..') return 'parent';
  return 'other';
}

/** `*`, `.*`, `.[!.]*`, `*.*`, `{a,b}`: a pattern that takes (nearly) everything in its directory. */
function isGlobAll(segment: string): boolean {
  return /^\.?\*+$|^\.\[[^\]]*\]\*$|^\*\.\*$|^\{.*\}$/.test(segment);
}

export const DANGEROUS_TREE: ReadonlySet<PathClass> = new Set(['root', 'root-glob', 'home', 'home-glob', 'system', 'system-glob', 'parent']);

/**
 * The worst class a word can take: its literal value, or, when it holds unknown expansions,
 * the value left if they expand to nothing (`"$DIR"/` becomes `/`).
 */
export function worstClass(word: ShellWord, cwd?: string): { cls: PathClass; path: string } {
  const own = classifyPath(word.value, cwd);
  if (DANGEROUS_TREE.has(own) || word.literal || word.collapsed === undefined || word.collapsed === '') {
    return { cls: own, path: pathOf(word.value, cwd) };
  }
  const collapsed = classifyPath(word.collapsed, cwd);
  return DANGEROUS_TREE.has(collapsed)
    ? { cls: collapsed, path: `${word.value} (${pathOf(word.collapsed, cwd)} if empty)` }
    : { cls: own, path: pathOf(word.value, cwd) };
}

export function describeClass(cls: PathClass): string {
  switch (cls) {
    case 'root':
      return 'the root directory';
    case 'root-glob':
      return 'everything in the root directory';
    case 'home':
      return 'a home directory';
    case 'home-glob':
      return 'everything in a home directory';
    case 'system':
      return 'a system directory';
    case 'system-glob':
      return 'everything in a system directory';
    case 'parent':
      return 'a parent directory';
    default:
      return 'a path';
  }
}

/** Character and block devices that hold data; the harmless pseudo-devices are excluded. */
export function isDevice(value: string): boolean {
  const path = normalizePath(value);
  if (!path.startsWith('/dev/')) return false;
  const name = path.slice(5);
  if (/^(null|zero|full|u?random|tty|console|stdin|stdout|stderr|ptmx|kmsg)$/.test(name)) return false;
  if (/^(fd|pts|shm|mqueue|tcp|udp)(\/|$)/.test(name)) return false;
  return name !== '';
}

/** Bash's virtual network files: a redirection onto them opens a socket. */
export function isNetworkDevice(value: string): boolean {
  return /^\/dev\/(tcp|udp)\/[^/]+\/[^/]+/.test(normalizePath(value));
}

const AUTH_FILES = new Set([
  '/etc/passwd', '/etc/passwd-', '/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-',
  '/etc/group', '/etc/group-', '/etc/sudoers', '/etc/master.passwd', '/etc/security/opasswd',
  '/private/etc/passwd', '/private/etc/sudoers', '/private/etc/master.passwd', '/private/etc/group',
]);

/** System account and privilege files, and SSH's list of keys allowed to log in. */
export function isAuthFile(value: string, cwd?: string): boolean {
  const path = normalizePath(value, cwd);
  if (AUTH_FILES.has(path)) return true;
  if (/^(\/private)?\/etc\/(sudoers\.d|pam\.d)(\/|$)/.test(path)) return true;
  return /(^~|^\/root|^\/home\/[^/]+|^\/Users\/[^/]+)\/\.ssh\/authorized_keys2?$/.test(path);
}
