// The one error type of agent-hooks: a stable `code` plus the context a user needs to fix it.

export type HooksErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_UNREADABLE'
  | 'EVENT_UNKNOWN'
  | 'EVENT_INVALID'
  | 'DIALECT_UNKNOWN'
  | 'USAGE'
  | 'INTERNAL';

export interface HooksErrorContext {
  /** Config file the error is about. */
  file?: string;
  /** Key path inside it, e.g. `hooks.preToolUse[2].timeout`. */
  path?: string;
  /** Hook id the error is about. */
  hook?: string;
  /** Every problem found, one line each, when there were several (the message names the first). */
  issues?: string[];
}

/** Raised for the runner's own errors (bad config, bad event, bad usage); hook failures are values. */
export class HooksError extends Error {
  override readonly name = 'HooksError';
  constructor(
    readonly code: HooksErrorCode,
    message: string,
    readonly context: HooksErrorContext = {},
  ) {
    super(message);
  }
}

export function isHooksError(value: unknown): value is HooksError {
  return value instanceof HooksError;
}
