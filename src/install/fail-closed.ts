// Below target and serve: target's options name it, serve's handlers read it, and target is built from serve's types.
import type { EventName } from '../types.js';

/**
 * The events `--fail-closed` makes block when the runner fails or is missing: the ones that gate an
 * action before it happens. Blocking after a tool ran cannot undo it, a blocked Stop sends the agent
 * round again (a broken runner would loop it), and session and notification events block nothing.
 */
export const FAIL_CLOSED_EVENTS: ReadonlySet<EventName> = new Set<EventName>(['preToolUse', 'userPromptSubmit']);
