// `hooks uninstall <agent>`: remove the entries `hooks install` wrote, and nothing else.
import { AGENT_NAMES, uninstall } from '../../install/index.js';
import { describe } from '../../install/report.js';
import type { Command } from '../command.js';
import { scopeOf, whereOf } from '../../install/options.js';

export const command: Command = {
  help: `Usage: hooks uninstall <agent> [options]

Removes from the agent's hook settings every entry "hooks install" wrote (the commands ending in
"# agent-hooks"); the user's entries and every other setting stay as they are. A matcher group, event
list or "hooks" table left empty by the removal goes too. A file that was wholly ours
(.github/hooks/agent-hooks.json, the opencode plugin) is deleted. The old file is copied to
<file>.agent-hooks.bak first.

Agents: ${AGENT_NAMES.join(', ')} (files: see "hooks install --help").

Options:
  --project   the workspace's file, in the current folder (default)
  --user      the agent's file in your home folder
  --dry-run   print a unified diff of the change and write nothing

Examples:
  hooks uninstall claude-code
  hooks uninstall gemini --user --dry-run
`,
  args: {
    positional: ['agent'],
    flags: { project: 'boolean', user: 'boolean', 'dry-run': 'boolean' },
  },
  async run(args, ctx) {
    const where = whereOf(ctx);
    const dryRun = args.flags['dry-run'] === true;
    const outcome = uninstall({ agent: args.positional.agent, scope: scopeOf(args.flags), where, dryRun });
    ctx.stdout(describe(outcome, where, dryRun));
    return 0;
  },
};
