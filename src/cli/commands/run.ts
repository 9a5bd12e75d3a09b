// `hooks run <event>`: one event on stdin, the combined answer in the caller's dialect on stdout.
import { disablesAll, readSwitches } from '../../config/switches.js';
import { lockState } from '../../lock/detect.js';
import { describeNoConfig, searchStart } from '../../config/load.js';
import { layerStatus, type ResolvedHook } from '../../config/resolve.js';
import { createRunner } from '../../engine.js';
import type { HookEvent } from '../../types.js';
import type { Command } from '../command.js';
import { wantsColour, type CliContext } from '../context.js';
import { noteCodeParts } from '../../code-parts.js';
import { mcpToolRuns } from '../../mcp/target.js';
import { readEvent } from '../read-event.js';
import { telemetryWanted } from '../../telemetry/settings.js';
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
  --verbose            one line per hook on stderr: id, outcome, time, where it came from; then
                       the hooks that did not run (skipped, or not reached after a block)
  --dry-run            run nothing and write nothing: show which hooks would run on this event
                       and why the others would not, then exit 0. To run the hooks and see what
                       they answer without answering the agent, use hooks explain.
  --on-error <policy>  continue (default) | block: what a runner error (bad config, bad event) does

Environment:
  HOOKS_SKIP=id,id     skip these hooks for this run
  HOOKS_DISABLE=1      run no hooks (says so on stderr)
  HOOKS_ON_ERROR=block same as --on-error block
  NO_COLOR=1           no colour in the --verbose trace (it is plain off a terminal anyway)
  HOOKS_DEBUG=1        a stack trace on stderr for the runner's internal errors

Exit codes: 0 proceed, 2 block, 1 the runner's own error (one line on stderr).

Examples:
  npx agent-hooks run pre-tool-use < event.json
  npx agent-hooks run pre-tool-use --config .hooksrc.example.json --verbose < hooks-examples/events/pre-tool-use.json
  npx agent-hooks sample pre-tool-use --input command='rm -rf build' | npx agent-hooks run --dry-run
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
    if (args.flags['dry-run'] === true) return planEvent(flags, ctx);
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
  if (await disabled(ctx, lockState().locked)) return 0;
  const { dialect, event } = await readEvent(ctx, flags);
  const runner = await runnerForEvent(event, flags, ctx);

  let reporter: Reporter | undefined;
  if (flags.verbose) {
    const { createReporter } = await import('../reporter.js');
    reporter = createReporter(ctx.stderr, wantsColour(ctx.stderrIsTTY, ctx.env));
    if (runner.config.layers.length === 0) reporter.line(`hooks: ${describeNoConfig(runner.config.search, ctx.env)}`);
    for (const layer of runner.config.layers) reporter.line(`hooks: ${layer.layer} layer ${layer.file}: ${layerStatus(layer)}`);
  }
  const startedAt = Date.now();
  const decision = await runner.run(event, {
    signal: ctx.signal,
    ...(reporter === undefined ? {} : { onResult: reporter.hook }),
  });
  noteCodeParts(`event:${event.name}`, ...runner.config.hooks.filter((h) => h.event === event.name).map((h) => (h.run.kind === 'builtin' ? `guard:${h.run.guard}` : h.run.kind)));
  // Every hook of the event that did not run is named: skipped by match/if/HOOKS_SKIP, or not reached
  // because the chain ended at a block (a trace that stops at the block would hide them).
  for (const step of decision.steps) {
    if (step.status === 'skipped') reporter?.skipped(step.id, step.why ?? '');
    else if (step.status === 'not-reached') reporter?.notReached(step.id, step.why ?? 'the chain ended');
  }
  reporter?.line(`hooks: ${event.name} → ${decision.decision}${decision.reason ? ` (${decision.reason})` : ''}`);
  const answer = dialect.answer(ctx.notes === undefined ? decision : { ...decision, warnings: [...ctx.notes, ...decision.warnings] });
  ctx.stdout(answer.stdout);
  // The notes are on stderr already (main.ts): a dialect that writes warnings there does not repeat them.
  ctx.stderr((ctx.notes ?? []).reduce((text, note) => text.replace(`agent-hooks: ${note}\n`, ''), answer.stderr));
  // After the answer is written: telemetry never changes it, and waits for the collector a bounded time.
  if (telemetryWanted(ctx.env, runner.config.telemetry)) {
    const { exportOutcome } = await import('../../telemetry/index.js');
    const kinds = new Map(runner.config.hooks.filter((h) => h.event === event.name).map((h) => [h.id, h.run.kind]));
    await exportOutcome({ decision, dialect: dialect.name, projectDir: runner.config.projectDir, startedAt, endedAt: Date.now(), kinds }, { env: ctx.env, config: runner.config.telemetry, warn: (line) => ctx.stderr(`agent-hooks: ${line}\n`) });
  }
  return answer.exitCode;
}

/** The project search starts where the agent works (the payload's `cwd`), unless a file is named. */
function runnerForEvent(event: HookEvent, flags: Pick<RunFlags, 'config'>, ctx: CliContext) {
  if (flags.config !== undefined) return createRunner({ cwd: ctx.cwd, env: ctx.env, configFile: flags.config });
  return createRunner({ cwd: searchStart(event.payload.cwd, ctx.env, ctx.cwd), env: ctx.env });
}

/**
 * HOOKS_DISABLE: drain stdin (the agent is writing to it), say so, answer nothing. A value the switch
 * does not understand is reported, and the hooks run. A locked runner goes on: its managed hooks run
 * regardless, and the run's report says what the switch did switch off.
 */
export async function disabled(ctx: CliContext, locked = false): Promise<boolean> {
  const switches = readSwitches(ctx.env, locked);
  for (const problem of switches.problems) ctx.stderr(`agent-hooks: ${problem}\n`);
  if (!disablesAll(switches)) return false;
  await ctx.readStdin();
  ctx.stderr('agent-hooks: disabled by HOOKS_DISABLE; no hooks ran\n');
  return true;
}

/**
 * `hooks run --dry-run`: which hooks would run on this event, and why the others would not, without
 * running any (no hook process, no in-process guard, no audit record) and without writing anything.
 * `if` is judged on the payload as given: a rewrite by an earlier hook could change it on a real run.
 */
export async function planEvent(flags: Omit<RunFlags, 'verbose'>, ctx: CliContext): Promise<number> {
  const { event } = await readEvent(ctx, flags);
  const runner = await runnerForEvent(event, flags, ctx);
  const { createStyle } = await import('../style.js');
  const s = createStyle(wantsColour(ctx.stdoutIsTTY, ctx.env));
  const plan = runner.plan(event);
  const tool = event.tool === undefined ? '' : ` (tool ${event.tool.canonical}${event.tool.name === event.tool.canonical ? '' : `, ${event.tool.name}`})`;
  const lines = [`${s.bold(event.name)}${tool}: dry run, nothing was run or written`];
  // HOOKS_DISABLE makes hooks run a no-op: a plan listing hooks as "would run" would be false.
  const switches = readSwitches(ctx.env, runner.config.locked === true);
  for (const problem of switches.problems) lines.push(s.yellow(`! ${problem}`));
  if (disablesAll(switches)) lines.push(s.yellow('HOOKS_DISABLE is set: hooks run would run none of these'));
  const files = runner.config.layers.map((l) => `${l.layer} ${l.file}`);
  lines.push(s.dim(`config: ${files.length === 0 ? 'none found' : files.join(', ')}`));
  if (plan.length === 0) lines.push(s.dim('no hooks are configured for this event'));
  for (const p of plan) {
    const where = s.dim(`${p.hook.source.layer} ${p.hook.source.key}`);
    lines.push(p.selected ? `  ${s.green('would run')} ${s.bold(p.hook.id)}: ${describeRun(p.hook.run)}${p.hook.audit === true && !(p.hook.run.kind === 'builtin' && p.hook.run.audit) ? ' (audit)' : ''} ${where}` : `  ${s.dim('skip')}      ${p.hook.id}: ${p.why} ${where}`);
  }
  if (plan.some((p) => p.selected)) lines.push(s.dim('in this order until one blocks; an earlier rewrite can change what a later "if" sees. hooks explain runs them and shows what they answer.'));
  ctx.stdout(`${lines.join('\n')}\n`);
  return 0;
}

function describeRun(run: ResolvedHook['run']): string {
  if (run.kind === 'command') return run.args === undefined ? run.command : [run.command, ...run.args].join(' ');
  if (run.kind === 'builtin') return `builtin ${run.guard}${run.audit ? ' (audit)' : ''}`;
  if (run.kind === 'mcp_tool') return mcpToolRuns(run);
  if (run.kind === 'http') return `POST ${run.url}`;
  if (run.kind === 'prompt') return 'model judge';
  return 'in-process handler';
}
