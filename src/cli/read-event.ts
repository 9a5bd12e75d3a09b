// stdin → one event, through the caller's dialect: shared by run, explain and guard.
import { detectDialect, getDialect, type Dialect } from '../dialects/index.js';
import { HooksError } from '../errors.js';
import type { HookEvent } from '../types.js';
import type { CliContext } from './context.js';

/** Reads stdin as one JSON event and normalizes it with the named dialect, or the one detected. */
export async function readEvent(ctx: CliContext, names: { event?: string | undefined; dialect?: string | undefined }): Promise<{ dialect: Dialect; event: HookEvent }> {
  const raw = parseEvent(await ctx.readStdin());
  const dialect = names.dialect === undefined ? detectDialect(raw) : getDialect(names.dialect);
  return { dialect, event: dialect.toEvent(raw, names.event) };
}

/** The stdin text as one JSON value, or an `EVENT_INVALID` error saying what is wrong. */
export function parseEvent(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const what = text.trim() === '' ? 'empty' : `not JSON (${(error as Error).message})`;
    throw new HooksError('EVENT_INVALID', `stdin: expected one JSON event, got ${what}`);
  }
}
