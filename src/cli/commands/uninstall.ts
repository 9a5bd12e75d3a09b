// `hooks uninstall <agent>`: remove the entries `hooks install` wrote, and nothing else.
import { AGENT_NAMES, uninstall } from '../../install/index.js';
import { describe } from '../../install/report.js';
import type { Command } from '../command.js';
import { scopeOf, whereOf } from '../../install/options.js';

export const command: Command = {
  help: `Usage: hooks uninstall <agent> [options]

Removes from the agent's hook settings every entry "hooks install" wrote (the commands ending in
"# agent-hooks"); the user's entries and every other setting stay as they are. When the file is still exactly
what install wrote, it gets back the bytes it had before install, byte for byte (a file install
created is deleted). Otherwise only our entries go, and a matcher group, event list or "hooks"
table left empty by the removal goes too; a file left with nothing in it, or that was wholly ours
(.github/hooks/agent-hooks.json, the opencode and Cline plugins), is deleted. The state before the change is
kept in $XDG_STATE_HOME/agent-hooks/install/.

Agents: ${AGENT_NAMES.join(', ')} (files: see "agent-hooks install --help").

Options:
  --project   the workspace's file, in the current folder (default)
  --user      the agent's file in your home folder
  --dry-run   print a unified diff of the change and write nothing
  --allow-outside  change the settings file even where it resolves outside the project
  --mcp <name>  claude-code only: give the MCP server <name> of .mcp.json its own command back
               (undoes install --mcp <name>)

Examples:
  npx agent-hooks uninstall claude-code
  agent-hooks uninstall gemini --user --dry-run
`,
  args: {
    positional: ['agent'],
    flags: { project: 'boolean', user: 'boolean', 'dry-run': 'boolean', 'allow-outside': 'boolean', mcp: 'string' },
  },
  async run(args, ctx) {
    const where = whereOf(ctx);
    const dryRun = args.flags['dry-run'] === true;
    if (typeof args.flags.mcp === 'string') {
      const { unwrapMcp } = await import('../../install/mcp-wrap.js');
      const outcome = unwrapMcp({ agent: args.positional.agent, name: args.flags.mcp, scope: scopeOf(args.flags), where, dryRun, allowOutside: args.flags['allow-outside'] === true });
      ctx.stdout(describe(outcome, where, dryRun).replace('no agent-hooks entries in it', `"${args.flags.mcp}" is not wrapped`).replace(/agent-hooks (entry|entries)/, `wrapped MCP server "${args.flags.mcp}"`));
      return 0;
    }
    const outcome = uninstall({ agent: args.positional.agent, scope: scopeOf(args.flags), where, dryRun, allowOutside: args.flags['allow-outside'] === true });
    ctx.stdout(describe(outcome, where, dryRun));
    return 0;
  },
};
