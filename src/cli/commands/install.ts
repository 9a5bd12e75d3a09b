// `hooks install <agent>`: write the agent's hook settings so every event it has calls `hooks run`.
import { DEFAULT_TIMEOUT_SECONDS } from '../../config/resolve.js';
import { HooksError } from '../../errors.js';
import { hooksBin, isTransient } from '../../install/bin.js';
import { AGENT_NAMES, DEFAULT_ENTRY_TIMEOUT, install } from '../../install/index.js';
import { describe } from '../../install/report.js';
import type { Command } from '../command.js';
import { scopeOf, whereOf } from '../../install/options.js';

export const command: Command = {
  help: `Usage: hooks install <agent> [options]

Writes the agent's own hook settings so that every event the agent has runs
"<this package's bin/hooks.js> run <event> --dialect <agent>". Entries the user wrote stay as they
are, where they are; ours end in the shell comment "# agent-hooks", which is how uninstall finds them.
Running it again changes nothing. The old file is copied to <file>.agent-hooks.bak before a change;
a file that is not valid JSON is an error and is never overwritten.

Agents (${AGENT_NAMES.join(', ')}) and the file written with --project / --user:
  claude-code  .claude/settings.json           ~/.claude/settings.json ($CLAUDE_CONFIG_DIR)
  codex        .codex/hooks.json               ~/.codex/hooks.json ($CODEX_HOME)
  gemini       .gemini/settings.json           ~/.gemini/settings.json
  cursor       .cursor/hooks.json              ~/.cursor/hooks.json
  copilot      .github/hooks/agent-hooks.json  ~/.copilot/hooks/agent-hooks.json ($COPILOT_HOME)
  opencode     .opencode/plugin/agent-hooks.js ~/.config/opencode/plugin/agent-hooks.js ($XDG_CONFIG_HOME)

Options:
  --project            the workspace's file, in the current folder (default)
  --user               the agent's file in your home folder: every project
  --dry-run            print a unified diff of the change and write nothing
  --timeout <seconds>  how long the agent waits for one run (default ${DEFAULT_ENTRY_TIMEOUT}: twice the runner's
                       ${DEFAULT_TIMEOUT_SECONDS} s per-hook default, so the runner's own timeout fires first and is reported)

Examples:
  hooks install claude-code
  hooks install codex --user --dry-run
  hooks install opencode
`,
  args: {
    positional: ['agent'],
    flags: { project: 'boolean', user: 'boolean', 'dry-run': 'boolean', timeout: 'string' },
  },
  async run(args, ctx) {
    const where = whereOf(ctx);
    const dryRun = args.flags['dry-run'] === true;
    const bin = hooksBin();
    if (isTransient(bin)) {
      ctx.stderr(`agent-hooks: warning: ${bin} is in npx's cache, which npm may clear; install agent-hooks (npm i -D agent-hooks) so the path stays valid\n`);
    }
    const outcome = install({
      agent: args.positional.agent,
      scope: scopeOf(args.flags),
      where,
      dryRun,
      bin,
      timeoutSeconds: timeoutOf(args.flags.timeout),
    });
    ctx.stdout(describe(outcome, where, dryRun));
    // A step the agent asks for before our entries run: said once, when they were just written.
    if (outcome.note !== undefined && !dryRun) ctx.stderr(`agent-hooks: note: ${outcome.note}\n`);
    return 0;
  },
};

function timeoutOf(flag: string | boolean | undefined): number {
  if (typeof flag !== 'string') return DEFAULT_ENTRY_TIMEOUT;
  const seconds = Number(flag);
  if (!Number.isInteger(seconds) || seconds < 1) throw new HooksError('USAGE', `--timeout: expected a whole number of seconds, got "${flag}"`);
  return seconds;
}
