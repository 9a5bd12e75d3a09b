// The ids a record keeps of an event (its session, its tool's name) come from the agent, as written: the audit
// log, the live page and telemetry take them cut, as they take reasons, so a 60 MB `session_id` is not copied
// into every line and span of a run (and every row of page.db). Real ids are a few dozen characters.

/** Longest id a record keeps whole. */
export const ID_LIMIT = 256;

/** `value` as a record keeps it: a string cut to ID_LIMIT (the cut said), anything else undefined. */
export function recordedId(value: string): string;
export function recordedId(value: unknown): string | undefined;
export function recordedId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.length > ID_LIMIT ? `${value.slice(0, ID_LIMIT)}…[${value.length - ID_LIMIT} more]` : value;
}
