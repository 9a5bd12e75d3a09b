// Writes to the files that decide who may log in and who is root.
import type { SimpleCommand } from '../../shell/types.js';
import { has, isWriteRedirect, splitArgs } from '../args.js';
import type { Finding } from '../finding.js';
import { isAuthFile, pathOf } from '../paths.js';

export function authFilesRule(cmd: SimpleCommand): Finding | undefined {
  for (const r of cmd.redirects) {
    if (isWriteRedirect(r.op, r.target) && isAuthFile(r.target, cmd.cwd)) {
      return finding(cmd, `redirection ${r.op} onto ${pathOf(r.target, cmd.cwd)}`);
    }
  }
  const [program] = cmd.argv;
  const auth = (value: string): boolean => isAuthFile(value, cmd.cwd);
  switch (program) {
    case 'tee':
    case 'rm':
    case 'unlink':
    case 'shred':
    case 'truncate':
    case 'mv': {
      const target = splitArgs(cmd).operands.find((w) => auth(w.value));
      return target ? finding(cmd, `${program} of ${pathOf(target.value, cmd.cwd)}`) : undefined;
    }
    case 'cp':
    case 'install':
    case 'ln':
    case 'rsync':
    case 'scp': {
      const operands = splitArgs(cmd, { shortWithValue: program === 'install' ? 'gmoS' : 'S' }).operands;
      const destination = operands[operands.length - 1];
      return destination && operands.length > 1 && auth(destination.value)
        ? finding(cmd, `${program} onto ${pathOf(destination.value, cmd.cwd)}`)
        : undefined;
    }
    case 'dd': {
      const of = cmd.argv.find((a) => a.startsWith('of='));
      return of && auth(of.slice(3)) ? finding(cmd, `dd onto ${pathOf(of.slice(3), cmd.cwd)}`) : undefined;
    }
    case 'sed':
    case 'perl':
    case 'ruby': {
      const grammar = program === 'sed'
        ? { shortWithValue: 'efl', shortOptionalValue: 'i', longWithValue: ['expression', 'file', 'line-length'] }
        : { shortWithValue: 'eElIMmx', shortOptionalValue: 'i' };
      const args = splitArgs(cmd, grammar);
      if (!has(args, 'i', 'in-place')) return undefined;
      const target = args.operands.find((w) => auth(w.value));
      return target ? finding(cmd, `${program} -i on ${pathOf(target.value, cmd.cwd)}`) : undefined;
    }
    default:
      return undefined;
  }
}

function finding(cmd: SimpleCommand, what: string): Finding {
  return { category: 'auth-files', what, command: cmd };
}
