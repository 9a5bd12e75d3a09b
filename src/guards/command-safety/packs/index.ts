// The opt-in rule packs: each is off until named in the guard's `packs` option.
import type { SimpleCommand } from '../../shell/types.js';
import type { Finding } from '../finding.js';
import type { Pack } from '../options.js';
import { cloudRule } from './cloud.js';
import { databaseRule } from './database.js';
import { dockerPackRule } from './docker.js';
import type { PackRule } from './finding.js';
import { infrastructureRule } from './infrastructure.js';
import { kubernetesRule } from './kubernetes.js';

const RULES: Readonly<Record<Pack, PackRule>> = {
  database: databaseRule,
  kubernetes: kubernetesRule,
  infrastructure: infrastructureRule,
  cloud: cloudRule,
  docker: dockerPackRule,
};

/** Each pack's rule, also applied to the tool a package runner starts (`npx cdk destroy`). */
export const PACK_RULES: Readonly<Record<Pack, PackRule>> = Object.fromEntries(
  Object.entries(RULES).map(([pack, rule]) => [pack, (cmd: SimpleCommand) => rule(cmd) ?? ranTool(cmd, rule)]),
) as Record<Pack, PackRule>;

const RUNNERS: Readonly<Record<string, readonly string[]>> = { npx: [], bunx: [], pnpx: [], pnpm: ['dlx', 'exec'], yarn: ['dlx', 'exec'], npm: ['exec', 'x'], bun: ['x'], uvx: [] };

function ranTool(cmd: SimpleCommand, rule: PackRule): Finding | undefined {
  const subcommands = RUNNERS[cmd.argv[0] ?? ''];
  if (subcommands === undefined) return undefined;
  let i = 1;
  if (subcommands.length > 0) {
    if (!subcommands.includes(cmd.argv[1] ?? '')) return undefined;
    i = 2;
  }
  // Runner options (`-y`, `--yes`, `-p pkg`) come before the tool; a value-taking one is rare enough to skip as a flag.
  while (i < cmd.argv.length && cmd.argv[i]!.startsWith('-')) i += cmd.argv[i] === '--' ? 1 : cmd.argv[i] === '-p' || cmd.argv[i] === '--package' ? 2 : 1;
  if (i >= cmd.argv.length) return undefined;
  const finding = rule({ ...cmd, argv: [basename(cmd.argv[i]!), ...cmd.argv.slice(i + 1)], words: cmd.words.slice(i) });
  return finding === undefined ? undefined : { ...finding, command: cmd };
}

function basename(program: string): string {
  const at = program.lastIndexOf('@');
  const name = at > 0 ? program.slice(0, at) : program;
  return name.slice(name.lastIndexOf('/') + 1).toLowerCase();
}
