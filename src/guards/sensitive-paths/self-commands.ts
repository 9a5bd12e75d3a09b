// Commands that switch the guards off without writing a protected file by name: a package manager
// removing or replacing agent-hooks, the server stopped or restarted with other settings, a kill
// aimed at it, a `HOOKS_*` / `AGENT_HOOKS_*` variable set for a command or exported, git's hooks
// directory moved. Each is judged as a self-protection change; reading (`hooks serve status`,
// `git config --get core.hooksPath`, `npm ls -g`) passes.
import { programName } from '../shell/program.js';
import type { SimpleCommand } from '../shell/types.js';

/** A variable the runner or its server reads (`HOOKS_DISABLE`, `HOOKS_SKIP`, `AGENT_HOOKS_MANAGED_CONFIG`, ...). */
export const RUNNER_VARIABLE = /^(?:AGENT_)?HOOKS_[A-Za-z0-9_]*$/;

const RUNNER_PACKAGE = /^(?:agent-hooks(?:@.*)?|npm:agent-hooks(?:@.*)?|.*\/node_modules\/agent-hooks\/?|(?:github:|git\+|https?:\/\/).*agent-hooks.*)$/i;

/** Package manager subcommands that remove, replace or link a package, per manager (aliases included). */
const CHANGES: Record<string, ReadonlySet<string>> = {
  npm: new Set(['uninstall', 'un', 'unlink', 'remove', 'rm', 'r', 'install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add', 'update', 'up', 'upgrade', 'udpate', 'link', 'ln', 'install-test', 'it', 'install-ci-test', 'cit', 'ci', 'rebuild', 'rb', 'edit', 'dedupe', 'ddp', 'prune']),
  pnpm: new Set(['remove', 'rm', 'uninstall', 'un', 'add', 'install', 'i', 'update', 'up', 'upgrade', 'link', 'ln', 'unlink', 'dislink', 'rebuild', 'rb', 'prune']),
  yarn: new Set(['remove', 'add', 'install', 'upgrade', 'up', 'link', 'unlink', 'global']),
  bun: new Set(['remove', 'rm', 'uninstall', 'add', 'a', 'install', 'i', 'update', 'link', 'unlink']),
  volta: new Set(['install', 'uninstall', 'pin']),
  brew: new Set(['uninstall', 'remove', 'rm', 'reinstall', 'install', 'upgrade', 'link', 'unlink']),
};
/** Subcommands that, given no package, link the current folder's package into the global prefix. */
const LINKS = new Set(['link', 'ln']);

/** Options of the package managers that take a value (so the value is not read as the subcommand). */
const PM_VALUE_OPTIONS = /^(?:--prefix|-C|--dir|--cwd|--filter|-F|--workspace|-w|--userconfig|--globalconfig|--cache|--registry|--loglevel|--tag|--modules-folder|--global-folder|--store-dir)$/;

/** Server actions that stop it or start one with whatever the starting shell sets. */
const SERVE_CHANGES = new Set(['start', 'stop', 'restart', 'reload', undefined]);
const AGENT_HOOKS_BINS = new Set(['hooks', 'agent-hooks', 'hooks.js']);
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'pnpm', 'yarn', 'npm', 'bun']);

/**
 * What the server's process looks like to `pkill`/`killall`/`pgrep`: its name (`node`, the bin's
 * name when started through the link) and its command line.
 */
const SERVER_NAMES = ['node', 'nodejs', 'hooks', 'agent-hooks', 'hooks.js', 'main.js'];
const SERVER_COMMAND_LINES = [
  'node /usr/local/lib/node_modules/agent-hooks/bin/hooks.js serve --port 47100 --host 127.0.0.1 --idle 30',
  'node /usr/local/bin/hooks serve start',
  'node /home/u/.local/bin/agent-hooks serve',
  '/usr/bin/node /home/u/project/node_modules/agent-hooks/dist/bundle/main.js serve',
];

/** Why `cmd` is a self-protection change, or undefined. */
export function selfCommandRule(cmd: SimpleCommand): string | undefined {
  return runnerVariable(cmd) ?? runnerCommand(cmd) ?? runnerLink(cmd) ?? packageChange(cmd) ?? serviceChange(cmd) ?? killOfServer(cmd) ?? hooksPathChange(cmd);
}

/**
 * The runner's code as a link's source: anything in the package, a bin link, the bundle. Matched on
 * the word as typed (`~/…`, `$npm_config_prefix/…`, relative): a link needs no resolved path to be one.
 */
const RUNNER_CODE = /(?:^|\/)(?:node_modules\/agent-hooks(?:\/.*)?|node_modules\/\.bin\/(?:hooks|agent-hooks[^/]*)|bin\/(?:hooks\.js|agent-hooks[^/]*)|dist\/bundle(?:\/.*)?)$|^[/~$].*\/bin\/hooks$/i;

/**
 * `ln -s <prefix>/…/bin/hooks.js /tmp/t`: a link to the runner under another name runs `trust` or
 * `serve` where no rule knows its name (`/tmp/t trust --yes`, now or in a later call). `cp` and
 * `install` judge every operand as written, so their source is protected already; `ln` reads its sources.
 */
function runnerLink(cmd: SimpleCommand): string | undefined {
  const name = programName(cmd.argv[0] ?? '');
  if (name !== 'ln' && name !== 'link') return undefined;
  const operands = cmd.argv.slice(1).filter((a) => !a.startsWith('-') || a === '-');
  const targetDirectory = cmd.argv.some((a) => /^-[A-Za-z]*t/.test(a) || a.startsWith('--target-directory'));
  // `ln -s SRC` links into the current folder: then every operand is a source.
  const sources = operands.length === 1 || targetDirectory ? operands : operands.slice(0, -1);
  const source = sources.find((a) => RUNNER_CODE.test(a.replace(/\/+$/, '')));
  return source === undefined ? undefined : `${name} ${source} puts the runner under another name (it can run trust or serve unseen)`;
}

/** `HOOKS_DISABLE=1 cmd`, `env HOOKS_SKIP=x cmd`, `export HOOKS_DISABLE=1`, `declare -x`, `systemctl --user set-environment`, `launchctl setenv`. */
function runnerVariable(cmd: SimpleCommand): string | undefined {
  for (const a of cmd.assignments) {
    if (RUNNER_VARIABLE.test(a.name)) return `sets ${a.name} for ${cmd.argv[0] ?? 'the shell'}`;
    if (/^GIT_CONFIG_(?:PARAMETERS|KEY_\d+|VALUE_\d+|GLOBAL|SYSTEM)$/.test(a.name) && gitConfigVariableMovesHooks(a.name, a.value)) return `sets ${a.name} (git's hooks directory)`;
  }
  const name = programName(cmd.argv[0] ?? '');
  const args = cmd.argv.slice(1);
  if (['export', 'declare', 'typeset', 'local', 'readonly', 'setenv', 'set-environment'].includes(name)) {
    for (const a of args) {
      const variable = a.split('=')[0]!;
      if (RUNNER_VARIABLE.test(variable)) return `${name} ${variable}`;
    }
  }
  // `systemctl --user set-environment HOOKS_DISABLE=1`, `systemd-run -E HOOKS_…=`, `dbus-update-activation-environment`, `tmux setenv`, `launchctl setenv NAME value`.
  // `launchctl setenv NAME value`, `tmux setenv -g NAME value`: the name is a word of its own.
  if ((name === 'launchctl' && args.some((a) => a === 'setenv' || a === 'unsetenv')) || (name === 'tmux' && args.some((a) => a === 'setenv' || a === 'set-environment'))) {
    const variable = args.find((a) => RUNNER_VARIABLE.test(a));
    if (variable !== undefined) return `${name} setenv ${variable}`;
  }
  if (['systemctl', 'systemd-run', 'dbus-update-activation-environment', 'tmux', 'screen', 'launchctl', 'env', 'sudo', 'setsid', 'nohup', 'docker', 'podman'].includes(name) || cmd.wrappers.length > 0) {
    const word = args.find((a) => RUNNER_VARIABLE.test(a.replace(/^--?[A-Za-z-]+=/, '').split('=')[0]!) && a.includes('='));
    if (word !== undefined) return `${name} sets ${word.split('=')[0]}`;
  }
  return undefined;
}

function gitConfigVariableMovesHooks(name: string, value: string): boolean {
  if (name === 'GIT_CONFIG_GLOBAL' || name === 'GIT_CONFIG_SYSTEM') return true;
  return /core\.hookspath|include(?:if)?\b/i.test(value);
}

/** Index of the word the runner's own CLI starts at in `argv` (`hooks`, `npx agent-hooks`, `node …/bin/hooks.js`), or -1. */
export function runnerCommandStart(argv: readonly string[]): number {
  let i = 0;
  const first = programName(argv[0] ?? '');
  if (first === 'node' || first === 'nodejs' || first === 'bun' || first === 'deno') {
    i = 1;
    while (i < argv.length && argv[i]!.startsWith('-')) i++;
    // `bun x agent-hooks` is `bunx agent-hooks`.
    if (first === 'bun' && argv[i] === 'x') {
      i++;
      while (i < argv.length && argv[i]!.startsWith('-')) i++;
    }
  } else if (PACKAGE_RUNNERS.has(first)) {
    i = 1;
    while (i < argv.length && (argv[i]!.startsWith('-') || argv[i] === 'exec' || argv[i] === 'dlx' || argv[i] === 'run' || argv[i] === 'x')) i++;
  }
  const word = argv[i] ?? '';
  const bin = programName(word).replace(/@.*$/, '');
  if (AGENT_HOOKS_BINS.has(bin) || /(?:^|\/)agent-hooks\/(?:bin\/hooks\.js|dist\/bundle\/main\.js|dist\/cli\/main\.js)$/.test(word) || word.endsWith('/bin/hooks.js')) return i;
  return -1;
}

/** `hooks serve stop`, `HOOKS_DISABLE=1 agent-hooks serve start`, `npx agent-hooks serve`, `node …/bin/hooks.js serve`. */
function runnerCommand(cmd: SimpleCommand): string | undefined {
  const start = runnerCommandStart(cmd.argv);
  if (start === -1) return undefined;
  const rest = cmd.argv.slice(start + 1);
  const sub = rest.find((a) => !a.startsWith('-'));
  if (sub !== 'serve') return undefined;
  if (rest.includes('--print-unit') || rest.includes('--help') || rest.includes('-h')) return undefined;
  const after = rest.slice(rest.indexOf('serve') + 1);
  const action = after.find((a, k) => !a.startsWith('-') && !/^--(?:port|host|idle)$/.test(after[k - 1] ?? ''));
  if (!SERVE_CHANGES.has(action)) return undefined;
  return `${cmd.argv.slice(0, start + 1).join(' ')} serve ${action ?? '(foreground)'} stops or replaces the server`;
}

/** `npm uninstall -g agent-hooks`, `npm i -g agent-hooks@0.0.1`, `pnpm add agent-hooks@x`, `volta install agent-hooks@x`, `npm link`. */
function packageChange(cmd: SimpleCommand): string | undefined {
  const name = programName(cmd.argv[0] ?? '');
  const changes = CHANGES[name];
  if (changes === undefined) return undefined;
  const args = cmd.argv.slice(1);
  let k = 0;
  while (k < args.length && args[k]!.startsWith('-')) k += PM_VALUE_OPTIONS.test(args[k]!) ? 2 : 1;
  let sub = args[k];
  // `yarn global add|remove agent-hooks`.
  if (name === 'yarn' && sub === 'global') sub = args[++k];
  if (sub === undefined || !changes.has(sub)) return undefined;
  const operands = args.slice(k + 1).filter((a, j, all) => !a.startsWith('-') && !PM_VALUE_OPTIONS.test(all[j - 1] ?? ''));
  const named = operands.find((a) => RUNNER_PACKAGE.test(a) || RUNNER_PACKAGE.test(a.replace(/^[^@]+@npm:/, '')));
  if (named !== undefined) return `${name} ${sub} ${named} removes or replaces the runner`;
  // A bare `npm link` puts this folder's package in the global prefix: named `agent-hooks`, it replaces the runner.
  if (LINKS.has(sub) && operands.length === 0 && name !== 'brew' && name !== 'volta') return `${name} ${sub} (no package) links this folder into the global prefix`;
  return undefined;
}

/** `systemctl --user stop agent-hooks`, `launchctl bootout … agent-hooks`: the server's unit stopped, disabled or edited. */
function serviceChange(cmd: SimpleCommand): string | undefined {
  const name = programName(cmd.argv[0] ?? '');
  const args = cmd.argv.slice(1);
  if (name === 'systemctl') {
    const verb = args.find((a) => !a.startsWith('-'));
    if (verb === undefined || /^(?:status|show|cat|list-.*|is-.*|help|daemon-reload|start)$/.test(verb)) return undefined;
    const unit = args.find((a) => /agent-hooks/i.test(a) || a === '*' || /[*?[]/.test(a));
    if (unit !== undefined) return `systemctl ${verb} ${unit}`;
    return undefined;
  }
  if (name === 'launchctl') {
    const verb = args[0];
    if (verb === undefined || /^(?:list|print|blame|help|version)$/.test(verb)) return undefined;
    const unit = args.find((a) => /agent-hooks/i.test(a));
    if (unit !== undefined) return `launchctl ${verb} ${unit}`;
  }
  return undefined;
}

/** `pkill -f agent-hooks`, `killall node`, `kill $(cat …/serve.pid)`, `kill $(pgrep -f 'hooks serve')`, `kill -9 -1`. */
function killOfServer(cmd: SimpleCommand): string | undefined {
  const name = programName(cmd.argv[0] ?? '');
  const args = cmd.argv.slice(1);
  if (name === 'kill') {
    for (const word of cmd.words.slice(1)) {
      if (/agent-hooks|serve\.pid|hooks\s+serve/i.test(word.text) || /agent-hooks|serve\.pid/i.test(word.value)) return `kill ${word.text} names the server`;
      for (const sub of word.subCommands) if (finder(sub)) return `kill ${word.text}: ${sub.argv.join(' ')} finds the server`;
    }
    // `kill -9 -1`: every process the user may signal, the server with them. The first option is the signal.
    let k = 0;
    if (args[k] === '-s' || args[k] === '-n') k += 2;
    else if (args[k]?.startsWith('-') && args[k] !== '--') k += 1;
    if (args[k] === '--') k += 1;
    if (args.slice(k).includes('-1')) return 'kill -1 signals every process of the user, the server too';
    return undefined;
  }
  if (name === 'pkill' || name === 'killall' || name === 'pgrep' || name === 'skill' || name === 'slay') {
    if (name === 'pgrep') return undefined;
    return finder(cmd) ? `${name} ${args.join(' ')} matches the server` : undefined;
  }
  return undefined;
}

/** A pgrep/pkill/killall/pidof whose pattern matches the server process (or every process: none given with `-u`). */
function finder(cmd: SimpleCommand): boolean {
  const name = programName(cmd.argv[0] ?? '');
  if (!['pkill', 'pgrep', 'killall', 'pidof', 'skill', 'slay'].includes(name)) return false;
  const args = cmd.argv.slice(1);
  const full = args.some((a) => /^-[a-zA-Z]*f/.test(a) && !a.startsWith('--') || a === '--full');
  const exact = args.some((a) => /^-[a-zA-Z]*x/.test(a) || a === '--exact');
  const valueOptions = name === 'killall' ? /^-(?:[sunoy]|-signal|-user|-older-than|-younger-than|-context)$/ : /^-(?:[sugGPtUFgOn]|-signal|-euid|-uid|-group|-parent|-session|-terminal|-pidfile|-pgroup|-older|-ns|-nslist)$/;
  const patterns = args.filter((a, i) => !a.startsWith('-') && !valueOptions.test(args[i - 1] ?? ''));
  if (patterns.length === 0) return args.some((a) => /^-(?:u|U|-uid|-euid|-user)$/.test(a) || /^-[a-zA-Z]*[uU]/.test(a));
  const regexp = name === 'pkill' || name === 'pgrep' || args.some((a) => a === '-r' || a === '--regexp');
  const candidates = name === 'pidof' ? SERVER_NAMES : full ? SERVER_COMMAND_LINES : SERVER_NAMES;
  for (const pattern of patterns) {
    if (!regexp) {
      if (candidates.some((c) => c === pattern || (name !== 'killall' && c.startsWith(pattern)))) return true;
      continue;
    }
    let re: RegExp;
    try {
      re = new RegExp(exact ? `^(?:${pattern})$` : pattern);
    } catch {
      // A pattern this engine reads differently from procps' ERE: it may match the server.
      return true;
    }
    if (candidates.some((c) => re.test(c))) return true;
  }
  return false;
}

/** `git config [--global|--system|--local|--worktree|-f F] core.hooksPath X`, `git -c core.hooksPath=X …`, `include.path`. */
function hooksPathChange(cmd: SimpleCommand): string | undefined {
  if (programName(cmd.argv[0] ?? '') !== 'git') return undefined;
  const argv = cmd.argv;
  let i = 1;
  while (i < argv.length && argv[i]!.startsWith('-')) {
    if (argv[i] === '-c' && /^(?:core\.hookspath|include(?:if\.[^=]*)?\.path)(?:=|$)/i.test(argv[i + 1] ?? '')) return `git -c ${argv[i + 1]} moves git's hooks directory`;
    if (/^--config-env=(?:core\.hookspath|include)/i.test(argv[i]!)) return `git ${argv[i]} moves git's hooks directory`;
    i += /^(?:-C|-c|--git-dir|--work-tree|--namespace|--exec-path|--config-env)$/.test(argv[i]!) ? 2 : 1;
  }
  if (argv[i] !== 'config') return undefined;
  const args = argv.slice(i + 1);
  const reading = args.some((a) => /^(?:--get|--get-all|--get-regexp|--get-urlmatch|--list|-l|--show-origin|--show-scope|--name-only|get|list)$/.test(a));
  const operands: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (/^(?:-f|--file|--blob|--type|--default|--comment|--value)$/.test(a)) k++;
    else if (!a.startsWith('-')) operands.push(a);
  }
  const key = (['set', 'unset', 'get', 'list', 'edit', 'rename-section', 'remove-section'].includes(operands[0] ?? '') ? operands[1] : operands[0]) ?? '';
  if (args.some((a) => a === '--edit' || a === '-e' || a === 'edit')) return 'git config --edit can set core.hooksPath';
  if (args.some((a) => /^--(?:remove|rename)-section$/.test(a)) || /^(?:remove|rename)-section$/.test(operands[0] ?? '')) {
    if (/^core$/i.test(key) || /^include/i.test(key)) return `git config ${args.join(' ')} changes the core or include section`;
    return undefined;
  }
  if (!/^(?:core\.hookspath|include\.path|includeif\..*\.path)$/i.test(key)) return undefined;
  const changes = args.some((a) => /^(?:--unset|--unset-all|--add|--replace-all)$/.test(a)) || operands[0] === 'set' || operands[0] === 'unset' || (!reading && operands.length >= 2);
  return changes ? `git config ${key} moves git's hooks directory` : undefined;
}
