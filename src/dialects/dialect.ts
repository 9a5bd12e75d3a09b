// What a dialect is: how one agent's payload becomes our event, and our decision becomes what that agent reads.
import type { Decision } from '../decide/combine.js';
import type { HookEvent } from '../types.js';

/** What the runner writes back to the agent. */
export interface Answer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface Dialect {
  name: string;
  /** True when a payload looks like this agent's. */
  detect(raw: unknown): boolean;
  /** The agent's payload as the canonical event; throws `EVENT_INVALID` / `EVENT_UNKNOWN`. */
  toEvent(raw: unknown, eventName: string | undefined): HookEvent;
  /** The decision as this agent reads it. */
  answer(decision: Decision): Answer;
}
