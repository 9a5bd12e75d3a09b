// `hooks run <event>`: one event on stdin, the combined answer in the caller's dialect on stdout.
import { readSwitches } from '../../config/switches.js';
import { describeNoConfig, searchStart } from '../../config/load.js';
import { layerStatus } from '../../config/resolve.js';
import { createRunner } from '../../engine.js';
import type { Command } from '../command.js';
import { wantsColour, type CliContext } from '../context.js';
import { readEvent } from '../read-event.js';
import type { Reporter } from '../reporter.js';

export const command: Command = {
  help: `Usage: hooks run [event] [options] < event.json

Runs the configured hooks on one event read from stdin and answers in the caller's dialect.
The event may be named in any spelling (pre-tool-use, preToolUse, PreToolUse); without it the
payload's hook_event_name names it.

Options:
  --dialect <name>     claude-code | codex | gemini | cursor | copilot | docker-mcp | native
                       (default: detected from the payload)
  --config <path>      use this file as the project config instead of searching
  --verbose            one line per hook on stderr: id, outcome, time, where it came from
  --dry-run            show how the decision came about (as hooks explain) instead of answering
  --on-error <policy>  continue (default) | block: what a runner error (bad config, bad event) does

Environment:
  HOOKS_SKIP=id,id     skip these hooks for this run
  HOOKS_DISABLE=1      run no hooks (says so on stderr)
  HOOKS_ON_ERROR=block same as --on-error block

Exit codes: 0 proceed, 2 block, 1 the runner's own error (one line on stderr).

Examples:
  hooks run pre-tool-use < event.json
  hooks run pre-tool-use --config .hooksrc.example.json --verbose < hooks-examples/events/pre-tool-use.json
`,
  args: {
    positional: ['event'],
    flags: { dialect: 'string', config: 'string', verbose: 'boolean', 'on-error': 'string', 'dry-run': 'boolean' },
  },
  async run(args, ctx) {
    const flags = {
      event: args.positional.event,
      dialect: typeof args.flags.dialect === 'string' ? args.flags.dialect : undefined,
      config: typeof args.flags.config === 'string' ? args.flags.config : undefined,
    };
    if (args.flags['dry-run'] === true) {
      const { explainEvent } = await import('./explain.js');
      return explainEvent({ ...flags, json: false }, ctx);
    }
    return runEvent({ ...flags, verbose: args.flags.verbose === true }, ctx);
  },
};

export interface RunFlags {
  event?: string | undefined;
  dialect?: string | undefined;
  config?: string | undefined;
  verbose: boolean;
}

/** Runs the event; returns the exit code. */
export async function runEvent(flags: RunFlags, ctx: CliContext): Promise<number> {
  if (await disabled(ctx)) return 0;
  const { dialect, event } = await readEvent(ctx, flags);
  const cwd = flags.config === undefined ? searchStart(event.payload.cwd, ctx.env, ctx.cwd) : ctx.cwd;
  const runner = await createRunner({ cwd, env: ctx.env, ...(flags.config === undefined ? {} : { configFile: flags.config }) });

  let reporter: Reporter | undefined;
  if (flags.verbose) {
    const { createReporter } = await import('../reporter.js');
    reporter = createReporter(ctx.stderr, wantsColour(ctx.stderrIsTTY, ctx.env));
    if (runner.config.layers.length === 0) reporter.line(`hooks: ${describeNoConfig(runner.config.search, ctx.env)}`);
    for (const layer of runner.config.layers) reporter.line(`hooks: ${layer.layer} layer ${layer.file}: ${layerStatus(layer)}`);
  }
  const decision = await runner.run(event, {
    signal: ctx.signal,
    ...(reporter === undefined ? {} : { onResult: reporter.hook }),
  });
  for (const s of decision.skipped) reporter?.skipped(s.id, s.why);
  reporter?.line(`hooks: ${event.name} → ${decision.decision}${decision.reason ? ` (${decision.reason})` : ''}`);
  const answer = dialect.answer(decision);
  ctx.stdout(answer.stdout);
  ctx.stderr(answer.stderr);
  return answer.exitCode;
}

/**
 * HOOKS_DISABLE: drain stdin (the agent is writing to it), say so, answer nothing. A value the switch
 * does not understand is reported, and the hooks run.
 */
export async function disabled(ctx: CliContext): Promise<boolean> {
  const switches = readSwitches(ctx.env);
  for (const problem of switches.problems) ctx.stderr(`agent-hooks: ${problem}\n`);
  if (!switches.disabled) return false;
  await ctx.readStdin();
  ctx.stderr('agent-hooks: disabled by HOOKS_DISABLE; no hooks ran\n');
  return true;
}
