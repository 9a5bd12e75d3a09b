// The runner's own files wherever it is installed, and what starts it: a write there replaces the
// code that runs the guards (issue 21: `echo > $(npm prefix -g)/lib/node_modules/agent-hooks/bin/hooks.js`
// and a `node` shim earlier on PATH each switched every guard off with one allowed command).
import { posix } from 'node:path';
import { packageRoot } from '../../install/bin.js';

/** The names the package installs as commands (package.json `bin`). */
export const RUNNER_BINS = ['agent-hooks', 'hooks', 'agent-hooks-client'] as const;

/**
 * What the installed commands and the hooks they run are started by (`#!/usr/bin/env node`, a hook's
 * `python3`, the command-only client's `curl`): a file of that name written anywhere can be put
 * earlier on PATH, so the name is protected in every folder, not only in PATH's folders of today.
 */
export const INTERPRETER_NAMES = ['node', 'nodejs', 'python3', 'sh', 'bash', 'perl', 'curl'] as const;

/** Global prefixes npm, Homebrew, nvm, volta and the usual user setups put `bin/` links in. */
const KNOWN_PREFIXES = ['/usr/local', '/usr', '/opt/homebrew', '/opt/local', '~/.local', '~/.npm-global', '~/.npm-packages', '~/.nvm/versions/node/*', '~/.volta', '~/.bun', '~/.local/share/pnpm', '~/Library/pnpm', '~/.yarn'];

let ownRoot: string | null | undefined;

/** This runner's package folder, found from the module's own location once per process. */
export function runnerRoot(): string | undefined {
  if (ownRoot === undefined) {
    try {
      ownRoot = packageRoot(import.meta.url);
    } catch {
      // Bundled somewhere without its package.json: the install places below still hold.
      ownRoot = null;
    }
  }
  return ownRoot ?? undefined;
}

/**
 * Globs (sensitive-paths place syntax) for the runner's files. `root` is the running copy's
 * package folder; `env` gives npm's prefix and PATH as the agent's shell inherits them.
 */
export function runnerPlaces(env: NodeJS.ProcessEnv, root: string | undefined, escape: (text: string) => string): string[] {
  const bins = `{${RUNNER_BINS.join(',')}}`;
  const prefixes = new Set<string>(KNOWN_PREFIXES);
  for (const name of ['npm_config_prefix', 'NPM_CONFIG_PREFIX', 'PREFIX', 'PNPM_HOME', 'BUN_INSTALL', 'VOLTA_HOME']) {
    const value = env[name];
    if (value && value.startsWith('/')) prefixes.add(escape(posix.resolve(value)));
  }
  const places = [
    // Any copy of the package: the global one (`<prefix>/lib/node_modules/agent-hooks`), a project's, npx's cache.
    '**/node_modules/agent-hooks',
    '**/node_modules/agent-hooks/**',
    '**/node_modules/.bin/' + bins,
    // pnpm's store layout (`node_modules/.pnpm/agent-hooks@1.0.0/node_modules/agent-hooks`) is covered above.
    '**/bin/agent-hooks',
    '**/bin/agent-hooks-client',
    ...[...prefixes].flatMap((p) => [`${p}/bin/${bins}`, `${p}/${bins}`]),
    // The server's unit: systemd (a drop-in's `Environment=HOOKS_DISABLE=1`), launchd, and the
    // user manager's own environment (`DefaultEnvironment=`, environment.d) every unit inherits.
    '~/.config/systemd/user/agent-hooks*',
    '~/.config/systemd/user/agent-hooks*/**',
    '~/.config/systemd/user/*.wants/agent-hooks*',
    '~/.config/systemd/user.conf',
    '~/.config/systemd/user.conf.d/**',
    '~/.config/environment.d/**',
    '~/.pam_environment',
    '/etc/systemd/user/agent-hooks*',
    '/etc/systemd/user/agent-hooks*/**',
    '/etc/systemd/user.conf',
    '/etc/systemd/user.conf.d/**',
    '/usr/lib/systemd/user/agent-hooks*',
    '~/Library/LaunchAgents/*agent-hooks*',
    '/Library/LaunchAgents/*agent-hooks*',
    // Git's hooks directory is chosen by `core.hooksPath` in any of git's config files.
    '~/.gitconfig',
    '~/.config/git/config',
    '/etc/gitconfig',
    '**/.git/config',
    '**/.git/config.worktree',
    '**/.git/worktrees/*/config.worktree',
    // An interpreter shim planted anywhere (a folder put earlier on PATH later runs it in place of the real one).
    ...INTERPRETER_NAMES.map((name) => `**/${name}`),
  ];
  // The command names in every folder on PATH as the guard sees it (the agent's shell inherits it).
  for (const dir of (env.PATH ?? '').split(':').slice(0, 64)) {
    if (dir.startsWith('/') && dir.length < 1024) places.push(`${escape(posix.resolve(dir))}/${bins}`);
  }
  if (root !== undefined && root !== '/') {
    const r = escape(root);
    // The running copy, wherever it is (a checkout run with `node bin/hooks.js`, an unusual prefix):
    // its code and what it loads. Its `src/` stays writable: the runner does not run it.
    places.push(r, `${r}/bin`, `${r}/bin/**`, `${r}/dist`, `${r}/dist/**`, `${r}/package.json`, `${r}/node_modules`, `${r}/node_modules/**`);
    // `<prefix>/lib/node_modules/agent-hooks` → the same prefix's `bin/` links.
    const m = /^(.*)\/lib\/node_modules\/agent-hooks$/.exec(root);
    if (m && m[1] !== '') places.push(`${escape(m[1]!)}/bin/${bins}`);
  }
  return places;
}

/** Concrete files a folder deletion (`rm -rf ~/.config/systemd`, `rm -rf <prefix>/lib/node_modules`) is tested against. */
export function runnerSamples(env: NodeJS.ProcessEnv, root: string | undefined): string[] {
  const samples = [
    '~/.config/systemd/user/agent-hooks.service',
    '~/.config/systemd/user/agent-hooks.service.d/override.conf',
    '~/.config/environment.d/agent-hooks.conf',
    '~/Library/LaunchAgents/dev.agent-hooks.serve.plist',
    '~/.gitconfig',
    '/usr/local/lib/node_modules/agent-hooks/bin/hooks.js',
    '/usr/local/bin/hooks',
  ];
  for (const name of ['npm_config_prefix', 'NPM_CONFIG_PREFIX', 'PREFIX']) {
    const value = env[name];
    if (value && value.startsWith('/')) samples.push(`${posix.resolve(value)}/lib/node_modules/agent-hooks/bin/hooks.js`, `${posix.resolve(value)}/bin/hooks`);
  }
  if (root !== undefined && root !== '/') samples.push(`${root}/bin/hooks.js`, `${root}/dist/bundle/main.js`);
  return samples;
}
