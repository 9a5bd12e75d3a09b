// `hooks explain <event>`: runs the event through the config and shows how the decision came about.
import { searchStart } from '../../config/load.js';
import { createRunner } from '../../engine.js';
import type { Command } from '../command.js';
import { wantsColour, type CliContext } from '../context.js';
import { explanationJson, renderExplanation } from '../explain-view.js';
import { readEvent } from '../read-event.js';

export const command: Command = {
  help: `Usage: hooks explain [event] [options] < event.json

Runs the event through the configured hooks, like hooks run, but instead of answering the agent
shows how the decision came about: every hook in run order and batch, which ran and which did not
and why (match, if, enabled, HOOKS_SKIP, a block earlier in the chain), what each answered, and
the combined decision. Hooks really run (their side effects happen); "hooks run --dry-run" runs
nothing and only lists which hooks would run.

Options:
  --dialect <name>   how to read the payload (default: detected)
  --config <path>    use this file as the project config instead of searching
  --json             the explanation as JSON

Example:
  hooks sample pre-tool-use --tool exec --input command='git push --force' | hooks explain
`,
  args: { positional: ['event'], flags: { dialect: 'string', config: 'string', json: 'boolean' } },
  run: (args, ctx) =>
    explainEvent(
      {
        event: args.positional.event,
        dialect: typeof args.flags.dialect === 'string' ? args.flags.dialect : undefined,
        config: typeof args.flags.config === 'string' ? args.flags.config : undefined,
        json: args.flags.json === true,
      },
      ctx,
    ),
};

/** Always exits 0 (the explanation is the answer). */
export async function explainEvent(
  flags: { event?: string | undefined; dialect?: string | undefined; config?: string | undefined; json: boolean },
  ctx: CliContext,
): Promise<number> {
  const { event } = await readEvent(ctx, flags);
  const cwd = flags.config === undefined ? searchStart(event.payload.cwd, ctx.env, ctx.cwd) : ctx.cwd;
  const runner = await createRunner({ cwd, env: ctx.env, ...(flags.config === undefined ? {} : { configFile: flags.config }) });
  const decision = await runner.run(event, { signal: ctx.signal });
  const config = runner.config;
  ctx.stdout(flags.json ? `${JSON.stringify(explanationJson(decision, config), null, 2)}\n` : renderExplanation(decision, wantsColour(ctx.stdoutIsTTY, ctx.env), config, ctx.env));
  return 0;
}
