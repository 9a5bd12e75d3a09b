// The `cloud` pack: AWS, Google Cloud and Azure commands that delete or terminate resources or
// stored objects. Read-only and create/update operations pass; a dry run passes.
import type { SimpleCommand } from '../../shell/types.js';
import type { Finding } from '../finding.js';
import { flag, packFinding, positionals } from './finding.js';

const AWS_GLOBAL = new Set(['--profile', '--region', '--output', '--endpoint-url', '--query', '--color', '--ca-bundle', '--cli-read-timeout', '--cli-connect-timeout', '--cli-binary-format']);
/** AWS operations named like deletes that only acknowledge or untag: a queue consumer deletes each message it handled. */
const AWS_ROUTINE = new Set(['delete-message', 'delete-message-batch', 'delete-tags', 'remove-tags', 'remove-tags-from-resource', 'delete-tag', 'delete-object-tagging', 'delete-bucket-tagging']);
const AWS_DESTRUCTIVE = /^(?:delete|terminate|remove|deregister|purge|batch-delete|destroy|deactivate-and-delete|schedule-key-deletion)(?:-|$)/;

const GCLOUD_GLOBAL = new Set(['--project', '--account', '--configuration', '--format', '--verbosity', '--impersonate-service-account', '--billing-project', '--region', '--zone', '--location', '--flatten', '--filter']);
const AZ_GLOBAL = new Set(['--subscription', '--output', '-o', '--query', '-g', '--resource-group', '-n', '--name']);

export function cloudRule(cmd: SimpleCommand): Finding | undefined {
  switch (cmd.argv[0]) {
    case 'aws':
      return aws(cmd);
    case 'gcloud':
      return gcloud(cmd);
    case 'gsutil':
      return gsutil(cmd);
    case 'az':
      return az(cmd);
    case 'azcopy':
      return azcopy(cmd);
    default:
      return undefined;
  }
}

function aws(cmd: SimpleCommand): Finding | undefined {
  const [service, op] = positionals(cmd.argv, AWS_GLOBAL);
  if (service === undefined || op === undefined) return undefined;
  if (flag(cmd.argv, ['dryrun', 'dry-run'])) return undefined;
  if (service === 's3') {
    if (op === 'rm') return packFinding('cloud', 'storage-delete', `aws s3 rm${flag(cmd.argv, ['recursive'], '')? ' --recursive' : ''} deletes stored objects`, cmd);
    if (op === 'rb') return packFinding('cloud', 'storage-delete', `aws s3 rb${flag(cmd.argv, ['force']) ? ' --force' : ''} deletes a bucket`, cmd);
    if ((op === 'sync') && flag(cmd.argv, ['delete'])) return packFinding('cloud', 'storage-delete', 'aws s3 sync --delete deletes objects missing from the source', cmd);
    return undefined;
  }
  if (AWS_DESTRUCTIVE.test(op) && !AWS_ROUTINE.has(op)) {
    const rule = service === 's3api' ? 'storage-delete' : op.startsWith('terminate') ? 'compute-delete' : 'resource-delete';
    return packFinding('cloud', rule, `aws ${service} ${op} deletes cloud resources`, cmd);
  }
  return undefined;
}

function gcloud(cmd: SimpleCommand): Finding | undefined {
  const p = positionals(cmd.argv, GCLOUD_GLOBAL);
  if (p[0] === 'storage' && (p[1] === 'rm' || p[1] === 'delete')) return packFinding('cloud', 'storage-delete', `gcloud storage ${p[1]} deletes stored objects`, cmd);
  // Command groups are lower-case words; the verb comes after them (`compute instances delete`).
  const verb = p.slice(0, 6).find((w) => w === 'delete' || w === 'purge');
  if (verb !== undefined) return packFinding('cloud', p[0] === 'storage' ? 'storage-delete' : 'resource-delete', `gcloud ${p.slice(0, p.indexOf(verb) + 1).join(' ')} deletes cloud resources`, cmd);
  return undefined;
}

function gsutil(cmd: SimpleCommand): Finding | undefined {
  const p = positionals(cmd.argv, new Set(['-o', '-h', '-u', '-p']));
  if (p[0] === 'rm' || p[0] === 'rb') return packFinding('cloud', 'storage-delete', `gsutil ${p[0]} deletes ${p[0] === 'rb' ? 'a bucket' : 'stored objects'}`, cmd);
  if (p[0] === 'rsync' && cmd.argv.slice(cmd.argv.indexOf('rsync')).some((a) => /^-[A-Za-z]*d[A-Za-z]*$/.test(a))) return packFinding('cloud', 'storage-delete', 'gsutil rsync -d deletes objects missing from the source', cmd);
  return undefined;
}

function az(cmd: SimpleCommand): Finding | undefined {
  const p = positionals(cmd.argv, AZ_GLOBAL);
  const verb = p.slice(0, 5).find((w) => w === 'delete' || w === 'delete-batch' || w === 'purge');
  if (verb === undefined) return undefined;
  const rule = p[0] === 'storage' ? 'storage-delete' : p[0] === 'vm' || p[0] === 'vmss' ? 'compute-delete' : 'resource-delete';
  return packFinding('cloud', rule, `az ${p.slice(0, p.indexOf(verb) + 1).join(' ')} deletes cloud resources`, cmd);
}

function azcopy(cmd: SimpleCommand): Finding | undefined {
  const p = positionals(cmd.argv, new Set(['--include-pattern', '--exclude-pattern', '--log-level', '--from-to']));
  if (p[0] === 'remove' || p[0] === 'rm') return packFinding('cloud', 'storage-delete', 'azcopy remove deletes stored objects', cmd);
  if (p[0] === 'sync') {
    const i = cmd.argv.findIndex((a) => a === '--delete-destination' || a.startsWith('--delete-destination='));
    const value = i === -1 ? undefined : cmd.argv[i]!.includes('=') ? cmd.argv[i]!.split('=')[1] : cmd.argv[i + 1];
    if (value !== undefined && /^(?:true|prompt)$/i.test(value)) return packFinding('cloud', 'storage-delete', 'azcopy sync --delete-destination deletes objects missing from the source', cmd);
  }
  return undefined;
}
