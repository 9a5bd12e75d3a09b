// Deleting every Docker (or Podman) volume, which is where containers keep their data.
import type { SimpleCommand } from '../../shell/types.js';
import { has, splitArgs } from '../args.js';
import type { Finding } from '../finding.js';

const GLOBAL_WITH_VALUE = new Set(['-c', '--context', '-H', '--host', '--config', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey', '--connection', '--url', '--root', '--runroot', '--storage-driver']);

export function dockerRule(cmd: SimpleCommand): Finding | undefined {
  const [program] = cmd.argv;
  if (program !== 'docker' && program !== 'podman') return undefined;
  let i = 1;
  while (i < cmd.argv.length && cmd.argv[i]!.startsWith('-')) i += GLOBAL_WITH_VALUE.has(cmd.argv[i]!) ? 2 : 1;
  const [group, action] = [cmd.argv[i], cmd.argv[i + 1]];
  const args = splitArgs(cmd, { longWithValue: ['filter'] }, i + 2);
  if (group === 'system' && action === 'prune' && has(args, '', 'volumes')) {
    return finding(cmd, `${program} system prune --volumes${has(args, 'a', 'all') ? ' --all' : ''} deletes volumes`);
  }
  if (group === 'volume' && action === 'prune' && has(args, 'af', 'all', 'force')) {
    return finding(cmd, `${program} volume prune ${has(args, 'a', 'all') ? '--all' : '--force'} deletes volumes`);
  }
  if (group === 'volume' && (action === 'rm' || action === 'remove')) {
    const listsAll = (c: SimpleCommand): boolean => (c.argv[0] === 'docker' || c.argv[0] === 'podman') && c.argv.includes('volume') && (c.argv.includes('ls') || c.argv.includes('list'));
    const fromList = args.operands.some((w) => w.subCommands.some(listsAll)) || (cmd.stdinArguments && cmd.pipedFrom.some(listsAll));
    if (fromList) return finding(cmd, `${program} volume rm of every volume listed by ${program} volume ls`);
  }
  return undefined;
}

function finding(cmd: SimpleCommand, what: string): Finding {
  return { category: 'docker-wipe', what, command: cmd };
}
