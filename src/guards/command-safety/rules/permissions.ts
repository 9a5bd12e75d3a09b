// chmod/chown disasters: world-writable or locked-out system trees.
import { normalizePath } from '../../shell/paths.js';
import type { SimpleCommand } from '../../shell/types.js';
import { has, splitArgs } from '../args.js';
import type { Finding } from '../finding.js';
import { describeClass, worstClass } from '../paths.js';

/** Trees where even a single world-writable or unreadable file is a security or boot problem. */
const SENSITIVE_PREFIX = /^(\/(etc|usr|bin|sbin|lib|lib32|lib64|boot|root|System|Library)(\/|$)|~\/\.ssh(\/|$))/;

export function permissionsRule(cmd: SimpleCommand): Finding | undefined {
  const [program] = cmd.argv;
  if (program === 'chmod') return chmod(cmd);
  if (program === 'chown' || program === 'chgrp') return chown(cmd, program);
  return undefined;
}

function chmod(cmd: SimpleCommand): Finding | undefined {
  const args = splitArgs(cmd, { longWithValue: ['reference'] });
  // `chmod -w file` reads like an option but is a mode.
  const modeOption = args.options.find((o) => !o.long && /^[rwxXst]$/.test(o.name));
  const reference = has(args, '', 'reference');
  const operands = [...args.operands];
  const mode = reference || modeOption ? undefined : operands.shift()?.value;
  const recursive = has(args, 'R', 'recursive');
  const bad = mode !== undefined ? dangerousMode(mode) : undefined;
  for (const target of operands) {
    const { cls, path } = worstClass(target, cmd.cwd);
    const normalized = normalizePath(target.value, cmd.cwd);
    if (bad && (cls !== 'other' || SENSITIVE_PREFIX.test(normalized))) {
      return { category: 'permissions', what: `chmod ${mode} (${bad}) on ${path}`, command: cmd };
    }
    if (recursive && (cls === 'root' || cls === 'root-glob' || cls === 'system' || cls === 'system-glob')) {
      return { category: 'permissions', what: `recursive chmod of ${path} (${describeClass(cls)})`, command: cmd };
    }
  }
  return undefined;
}

/** Why a mode is a disaster on a system path, or undefined when it is an ordinary mode. */
export function dangerousMode(mode: string): string | undefined {
  if (/^[0-7]{1,4}$/.test(mode)) {
    if (/^0*$/.test(mode)) return 'no access for anyone';
    const other = Number(mode[mode.length - 1]);
    return (other & 2) !== 0 ? 'world-writable' : undefined;
  }
  for (const clause of mode.split(',')) {
    const m = /^([ugoa]*)([-+=])([rwxXstugo]*)$/.exec(clause);
    if (!m) continue;
    const [, who = '', op, perms = ''] = m;
    const everyone = who === '' || who.includes('a') || who.includes('o');
    if (everyone && who !== '' && (op === '+' || op === '=') && perms.includes('w')) return 'world-writable';
    const all = who === '' || who.includes('a') || (who.includes('u') && who.includes('g') && who.includes('o'));
    if (all && ((op === '=' && perms === '') || (op === '-' && /r/.test(perms) && /w/.test(perms) && /x/.test(perms)))) {
      return 'no access for anyone';
    }
  }
  return undefined;
}

function chown(cmd: SimpleCommand, program: string): Finding | undefined {
  const args = splitArgs(cmd, { longWithValue: ['reference', 'from'] });
  const operands = has(args, '', 'reference') ? args.operands : args.operands.slice(1);
  const recursive = has(args, 'R', 'recursive');
  for (const target of operands) {
    const { cls, path } = worstClass(target, cmd.cwd);
    if (cls === 'root' || (recursive && (cls === 'root-glob' || cls === 'system' || cls === 'system-glob'))) {
      return { category: 'permissions', what: `${recursive ? 'recursive ' : ''}${program} of ${path} (${describeClass(cls)})`, command: cmd };
    }
  }
  return undefined;
}
