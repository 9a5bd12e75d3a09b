// Skipping the repository's commit and push hooks.
import type { SimpleCommand } from '../../shell/types.js';
import { longMatches } from '../../shell/options.js';
import type { Finding } from '../finding.js';

/** Git global options that take a separate value. */
const GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path', '--list-cmds', '--attr-source']);
const HOOK_RUNNING = new Set(['commit', 'push', 'merge', 'rebase', 'am', 'pull', 'cherry-pick', 'revert', 'checkout', 'switch']);
/** `git commit` short options that take a value (the rest of a cluster is that value). */
const COMMIT_WITH_VALUE = 'mFcCtuS';

const HOOK_SKIP_ENV: Record<string, RegExp> = {
  HUSKY: /^(0|false)$/i,
  HUSKY_SKIP_HOOKS: /^(1|true)$/i,
  SKIP_SIMPLE_GIT_HOOKS: /^(1|true)$/i,
  LEFTHOOK: /^(0|false)$/i,
};

export function gitHooksRule(cmd: SimpleCommand): Finding | undefined {
  if (cmd.argv[0] !== 'git') return undefined;
  const argv = cmd.argv;
  let i = 1;
  for (; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) break;
    const [name, inline] = splitLong(arg);
    if (name === '-c' || name === '--config-env') {
      const value = inline ?? argv[i + 1] ?? '';
      if (/^core\.hookspath[=]?/i.test(value)) return finding(cmd, `git -c ${value} overrides the hooks directory`);
    }
    if (GLOBAL_WITH_VALUE.has(name) && inline === undefined) i += 1;
  }
  const sub = argv[i];
  if (sub === undefined) return undefined;
  const rest = argv.slice(i + 1);
  if (HOOK_RUNNING.has(sub)) {
    for (const { name, value } of cmd.assignments) {
      if (HOOK_SKIP_ENV[name]?.test(value)) return finding(cmd, `${name}=${value} skips the hooks of git ${sub}`);
      if (/^GIT_CONFIG_(PARAMETERS|KEY_\d+)$/.test(name) && /core\.hookspath/i.test(value)) {
        return finding(cmd, `${name} overrides the hooks directory`);
      }
    }
  }
  for (const arg of rest) {
    if (arg === '--') break;
    if (arg.startsWith('--') && arg.length >= 9 && longMatches(arg.slice(2), 'no-verify') && HOOK_RUNNING.has(sub)) {
      return finding(cmd, `git ${sub} ${arg} skips the hooks`);
    }
  }
  if (sub === 'commit' && commitShortN(rest)) return finding(cmd, 'git commit -n skips the hooks');
  if (sub === 'config') return hooksPathConfig(cmd, rest);
  return undefined;
}

function splitLong(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  if (!arg.startsWith('--') || eq === -1) return [arg, undefined];
  return [arg.slice(0, eq), arg.slice(eq + 1)];
}

/** `-n`, `-nm msg`, `-an`: but not `-mn` (message "n") or `-m -n`'s message. */
function commitShortN(args: string[]): boolean {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') return false;
    if (!arg.startsWith('-') || arg.startsWith('--') || arg === '-') continue;
    for (let j = 1; j < arg.length; j += 1) {
      const c = arg[j]!;
      if (c === 'n') return true;
      if (COMMIT_WITH_VALUE.includes(c)) {
        // `-u` and `-S` only take an attached value; the others take the next word when bare.
        if (j === arg.length - 1 && c !== 'u' && c !== 'S') i += 1;
        break;
      }
    }
  }
  return false;
}

function hooksPathConfig(cmd: SimpleCommand, args: string[]): Finding | undefined {
  const operands = args.filter((a) => !a.startsWith('-'));
  const key = operands[0];
  if (key === undefined || key.toLowerCase() !== 'core.hookspath' || operands.length < 2) return undefined;
  const value = operands[1]!;
  return value === '' || value === '/dev/null'
    ? finding(cmd, `git config core.hooksPath ${value || "''"} disables the hooks`)
    : undefined;
}

function finding(cmd: SimpleCommand, what: string): Finding {
  return { category: 'git-hook-bypass', what, command: cmd };
}
