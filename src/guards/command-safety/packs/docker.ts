// The `docker` pack: any deletion of Docker or Podman volumes, where containers keep their data
// (the built-in `docker-wipe` category only catches deleting all of them at once).
import type { SimpleCommand } from '../../shell/types.js';
import type { Finding } from '../finding.js';
import { flag, packFinding, positionals } from './finding.js';

const GLOBAL = new Set(['-c', '--context', '-H', '--host', '--config', '-l', '--log-level', '-f', '--file', '-p', '--project-name', '--profile', '--env-file', '--project-directory']);

export function dockerPackRule(cmd: SimpleCommand): Finding | undefined {
  const [program] = cmd.argv;
  if (program !== 'docker' && program !== 'podman' && program !== 'docker-compose' && program !== 'podman-compose') return undefined;
  const p = positionals(cmd.argv, GLOBAL);
  const [group, action] = program.endsWith('-compose') ? ['compose', p[0]] : [p[0], p[1]];
  if (group === 'volume' && (action === 'rm' || action === 'remove' || action === 'prune')) {
    return packFinding('docker', 'volume-delete', `${program} volume ${action} deletes volumes`, cmd);
  }
  if (group === 'system' && action === 'prune' && flag(cmd.argv, ['volumes'])) return packFinding('docker', 'volume-delete', `${program} system prune --volumes deletes volumes`, cmd);
  if (group === 'compose' && (action === 'down' || action === 'rm') && flag(cmd.argv, ['volumes'], 'v')) {
    return packFinding('docker', 'volume-delete', `${program}${program.endsWith('-compose') ? '' : ' compose'} ${action} -v deletes the project's volumes`, cmd);
  }
  return undefined;
}
