// The `infrastructure` pack: infrastructure-as-code commands that tear down what they manage.
import type { SimpleCommand } from '../../shell/types.js';
import type { Finding } from '../finding.js';
import { flag, packFinding, positionals } from './finding.js';

const TERRAFORM = new Set(['terraform', 'tofu', 'opentofu', 'terragrunt']);

export function infrastructureRule(cmd: SimpleCommand): Finding | undefined {
  const [program] = cmd.argv;
  if (program === undefined) return undefined;
  if (TERRAFORM.has(program)) {
    // `-chdir=dir` comes before the subcommand; terraform's own options all use `-name=value`.
    const p = positionals(cmd.argv, new Set(['-var', '-var-file', '-target', '-state', '-lock-timeout']));
    const sub = p[0] === 'run-all' || p[0] === 'run' ? p[1] : p[0];
    if (sub === 'destroy') return packFinding('infrastructure', 'destroy', `${program} destroy deletes every resource it manages`, cmd);
    if (sub === 'apply' && flag(cmd.argv, ['destroy']) || (sub === 'apply' && cmd.argv.includes('-destroy'))) return packFinding('infrastructure', 'destroy', `${program} apply -destroy deletes every resource it manages`, cmd);
    if (sub === 'state' && (p[1] === 'rm' || p[1] === 'remove')) return packFinding('infrastructure', 'state-remove', `${program} state rm forgets resources, which then leak or get recreated`, cmd);
    if (sub === 'workspace' && p[1] === 'delete') return packFinding('infrastructure', 'state-remove', `${program} workspace delete drops a workspace's state`, cmd);
    return undefined;
  }
  if (program === 'pulumi') {
    const p = positionals(cmd.argv, new Set(['-s', '--stack', '-C', '--cwd', '--target', '-t', '--config-file', '--message', '-m', '--parallel', '-p']));
    if (p[0] === 'destroy' || p[0] === 'down') return packFinding('infrastructure', 'destroy', `pulumi ${p[0]} deletes every resource of the stack`, cmd);
    if (p[0] === 'stack' && (p[1] === 'rm' || p[1] === 'remove')) return packFinding('infrastructure', 'state-remove', 'pulumi stack rm deletes a stack and its state', cmd);
    if (p[0] === 'state' && p[1] === 'delete') return packFinding('infrastructure', 'state-remove', 'pulumi state delete forgets a resource', cmd);
    return undefined;
  }
  if (program === 'cdk' || program === 'cdktf') {
    const p = positionals(cmd.argv, new Set(['--app', '-a', '--profile', '--context', '-c']));
    if (p[0] === 'destroy') return packFinding('infrastructure', 'destroy', `${program} destroy deletes the stacks' resources`, cmd);
  }
  if ((program === 'serverless' || program === 'sls') && positionals(cmd.argv, new Set(['--stage', '-s', '--region', '-r']))[0] === 'remove') {
    return packFinding('infrastructure', 'destroy', `${program} remove deletes the service's stack`, cmd);
  }
  return undefined;
}
