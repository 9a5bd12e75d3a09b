// What a pack rule reports: the pack and its rule, so options and messages can name both.
import type { SimpleCommand } from '../../shell/types.js';
import type { Finding } from '../finding.js';
import type { Pack } from '../options.js';

export type PackRule = (cmd: SimpleCommand) => Finding | undefined;

export function packFinding(pack: Pack, rule: string, what: string, cmd: SimpleCommand): Finding {
  return { category: pack, packRule: rule, what, command: cmd };
}

/** The words after `argv[0]` that are not options, with the options that take a value skipped. */
export function positionals(argv: readonly string[], withValue: ReadonlySet<string>, from = 1): string[] {
  const out: string[] = [];
  for (let i = from; i < argv.length; i += 1) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      if (!a.includes('=') && withValue.has(a)) i += 1;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** True when `flag` (`--force`) or a short cluster containing `short` (`-rf` for `f`) is set. */
export function flag(argv: readonly string[], long: readonly string[], short = ''): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a.startsWith('--')) {
      const name = a.slice(2).split('=')[0]!;
      const value = a.includes('=') ? a.slice(a.indexOf('=') + 1).toLowerCase() : undefined;
      if (long.includes(name) && value !== 'false' && value !== '0') return true;
    } else if (short !== '' && /^-[A-Za-z]+$/.test(a) && [...a.slice(1)].some((c) => short.includes(c))) return true;
  }
  return false;
}
