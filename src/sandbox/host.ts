// The host's folders a sandbox must never make writable, and those it hides: what the host runs or
// reads as settings (the system, the runner and its interpreter, agent-hooks' and the agents' own
// folders), and where agent-hooks keeps its secrets (the server's socket and token, keys, caches).
import { lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../install/bin.js';
import { cacheDir, isInside, realOrSelf, stateDir, userConfigDir } from '../paths.js';
import { servePaths } from '../serve/paths.js';

/** A host folder and what it is, for the one-line reason that names it. */
interface Named {
  folder: string;
  what: string;
}

/** The agents' own folders under home: their settings hold hooks the host runs, and their credentials. */
export const AGENT_HOME_ENTRIES = ['.claude', '.claude.json', '.codex', '.gemini', '.cursor', '.copilot'];

/** The system's folders: programs, libraries and settings every process of the host reads. */
const SYSTEM = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/boot', '/proc', '/sys', '/dev'];

function homeOf(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.HOME !== undefined && env.HOME.startsWith('/') ? env.HOME : os.homedir());
}

/** agent-hooks' own folders: the user layer, state (trust store, keys, server token and socket), cache. */
function ownFolders(env: NodeJS.ProcessEnv): Named[] {
  const serve = servePaths(env);
  const runtime = env.XDG_RUNTIME_DIR !== undefined && env.XDG_RUNTIME_DIR.startsWith('/') ? [path.join(env.XDG_RUNTIME_DIR, 'agent-hooks')] : [];
  return [
    { folder: userConfigDir(env), what: "agent-hooks' config folder" },
    { folder: stateDir(env), what: "agent-hooks' state folder" },
    { folder: cacheDir(env), what: "agent-hooks' cache folder" },
    { folder: serve.dir, what: "the server's folder" },
    { folder: path.dirname(serve.socket), what: "the server's socket folder" },
    ...runtime.map((folder) => ({ folder, what: "agent-hooks' runtime folder" })),
  ];
}

/** Where the running agent-hooks and the node that runs it are installed. */
function installs(env: NodeJS.ProcessEnv): Named[] {
  const found: Named[] = [];
  try {
    found.push({ folder: packageRoot(), what: 'the running agent-hooks install' });
  } catch {
    // Not inside its package (a test double): the global installs below still count.
  }
  const node = path.dirname(process.execPath);
  found.push({ folder: node, what: "the folder of the node that runs agent-hooks" });
  // npm's global prefix: node's own (<prefix>/bin/node), or the one npm is configured with.
  const prefixes = [path.dirname(node), env.npm_config_prefix, env.NPM_CONFIG_PREFIX, env.PREFIX];
  for (const prefix of prefixes) {
    if (prefix === undefined || !prefix.startsWith('/')) continue;
    found.push({ folder: path.join(prefix, 'lib', 'node_modules', 'agent-hooks'), what: 'the global agent-hooks install' });
  }
  return found;
}

/** The folders the sandbox hides (an empty, read-only folder in their place): secrets and hook settings. */
export function hiddenFolders(env: NodeJS.ProcessEnv): string[] {
  const home = homeOf(env);
  const all = [...ownFolders(env).map((n) => n.folder), ...AGENT_HOME_ENTRIES.map((name) => path.join(home, name))];
  const seen = new Set<string>();
  for (const p of all) {
    // The folder a link leads to is what a read reaches. Only what is there can be covered; what is not
    // there is not readable either.
    const real = realOrSelf(p);
    if (lstatSync(real, { throwIfNoEntry: false }) !== undefined) seen.add(real);
  }
  return [...seen];
}

/**
 * Why `folder` (absolute, symlinks resolved) must not be writable in a sandbox, or undefined.
 * Refused: `/`; a folder holding home; a folder inside, equal to or holding the system's folders,
 * agent-hooks' own folders and installs, node's folder, `~/.config`, `~/.local/bin`, `~/.ssh` and the
 * agents' folders under home.
 */
export function writableProblem(folder: string, env: NodeJS.ProcessEnv): string | undefined {
  const real = realOrSelf(folder);
  if (real === '/') return `the folder ${folder} is /: a sandbox that may write all of it protects nothing`;
  const home = homeOf(env);
  for (const h of new Set([home, realOrSelf(home)])) {
    if (isInside(real, h)) return `the folder ${folder} ${real === h ? 'is' : 'holds'} your home folder (${h}): a sandbox that may write it protects nothing`;
  }
  const xdgConfig = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  // The most particular first: node's folder is /usr/bin on many systems, and says more.
  const named: Named[] = [
    ...installs(env),
    ...ownFolders(env),
    { folder: xdgConfig, what: 'the config folder of your programs' },
    { folder: path.join(home, '.local', 'bin'), what: 'your own programs' },
    { folder: path.join(home, '.ssh'), what: "ssh's folder" },
    ...AGENT_HOME_ENTRIES.map((name) => ({ folder: path.join(home, name), what: "an agent's settings" })),
    ...SYSTEM.map((f) => ({ folder: f, what: 'a system folder' })),
  ];
  const forms = named.flatMap(({ folder: f, what }) => [...new Set([path.resolve(f), realOrSelf(f)])].map((form) => ({ form, what })));
  // The nearest answer first: the folder it is or lies in, then one it holds.
  for (const { form, what } of forms) {
    if (isInside(form, real)) return `the folder ${folder} ${real === form ? 'is' : 'lies inside'} ${form} (${what}), which the host runs or keeps secrets in`;
  }
  for (const { form, what } of forms) {
    if (isInside(real, form)) return `the folder ${folder} holds ${form} (${what}), which the host runs or keeps secrets in`;
  }
  return undefined;
}
