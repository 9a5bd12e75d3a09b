// `hooks run <event>`: one event on stdin, the combined answer in the caller's dialect on stdout.
import { detectDialect, getDialect } from '../dialects/index.js';
import { createRunner } from '../engine.js';
import { HooksError } from '../errors.js';
import type { CliContext } from './context.js';
import type { Reporter } from './reporter.js';

export interface RunFlags {
  event?: string;
  dialect?: string;
  config?: string;
  verbose: boolean;
  onError: 'block' | 'continue';
}

/** Runs the event; returns the exit code. Runner errors are thrown for `main` to report. */
export async function runCommand(flags: RunFlags, ctx: CliContext): Promise<number> {
  if (ctx.env.HOOKS_DISABLE === '1' || ctx.env.HOOKS_DISABLE === 'true') {
    await ctx.readStdin();
    ctx.stderr('agent-hooks: disabled by HOOKS_DISABLE; no hooks ran\n');
    return 0;
  }
  const text = await ctx.readStdin();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const what = text.trim() === '' ? 'empty' : `not JSON (${(error as Error).message})`;
    throw new HooksError('EVENT_INVALID', `stdin: expected one JSON event, got ${what}`);
  }
  const dialect = flags.dialect === undefined ? detectDialect(raw) : getDialect(flags.dialect);
  const event = dialect.toEvent(raw, flags.event);
  const runner = await createRunner({ cwd: ctx.cwd, env: ctx.env, ...(flags.config === undefined ? {} : { configFile: flags.config }) });

  let reporter: Reporter | undefined;
  if (flags.verbose) {
    const { createReporter } = await import('./reporter.js');
    reporter = createReporter(ctx.stderr, ctx.stderrIsTTY && ctx.env.NO_COLOR === undefined);
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
