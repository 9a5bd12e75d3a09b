// stdin → one event, through the caller's dialect: shared by run, explain and guard.
import { detectDialect, getDialect, type Dialect } from '../dialects/index.js';
import { parseEvent } from '../events/read.js';
import type { HookEvent } from '../types.js';
import type { CliContext } from './context.js';

/** Reads stdin as one JSON event and normalizes it with the named dialect, or the one detected. */
export async function readEvent(ctx: CliContext, names: { event?: string | undefined; dialect?: string | undefined }): Promise<{ dialect: Dialect; event: HookEvent }> {
  const raw = parseEvent(await ctx.readStdin());
  const dialect = names.dialect === undefined ? detectDialect(raw) : getDialect(names.dialect);
  return { dialect, event: dialect.toEvent(raw, names.event) };
}
