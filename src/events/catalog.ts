// The event catalog: every event the runner knows, its three spellings and what hooks may do on it.
// Adding an event is adding one entry here.
import type { EventName } from '../types.js';

export interface EventSpec {
  /** Config-key spelling, used inside the library. */
  name: EventName;
  /** CLI spelling (`hooks run pre-tool-use`). */
  cli: string;
  /** Claude Code spelling (`hook_event_name`). */
  claude: string;
  /**
   * `intercept`: hooks run as a chain, each sees the payload as rewritten before it.
   * `observe`: every matching hook runs concurrently on the same payload.
   */
  mode: 'intercept' | 'observe';
  /** The payload carries `tool_name` and `tool_input`. */
  tool: boolean;
  /** A block has an effect (for stop events: "do not stop yet"). */
  canBlock: boolean;
  /** `ask` is meaningful (a permission prompt). */
  canAsk: boolean;
  /** The reply field a `modify` carries on this event, if the event can be rewritten. */
  rewrites?: 'updatedInput' | 'prompt' | 'updatedOutput' | 'updatedRequest' | 'updatedResponse';
  /** `additionalContext` reaches the model. */
  context: boolean;
  /** Plain (non-JSON) stdout of a successful hook is added as context, as in Claude Code. */
  plainStdoutIsContext: boolean;
}

const spec = (s: Omit<EventSpec, 'canAsk' | 'context' | 'plainStdoutIsContext' | 'tool' | 'canBlock'> & Partial<EventSpec>): EventSpec => ({
  tool: false,
  canBlock: false,
  canAsk: false,
  context: false,
  plainStdoutIsContext: false,
  ...s,
});

export const EVENTS: readonly EventSpec[] = [
  spec({ name: 'preToolUse', cli: 'pre-tool-use', claude: 'PreToolUse', mode: 'intercept', tool: true, canBlock: true, canAsk: true, rewrites: 'updatedInput', context: true }),
  spec({ name: 'postToolUse', cli: 'post-tool-use', claude: 'PostToolUse', mode: 'intercept', tool: true, canBlock: true, rewrites: 'updatedOutput', context: true }),
  spec({ name: 'userPromptSubmit', cli: 'user-prompt-submit', claude: 'UserPromptSubmit', mode: 'intercept', canBlock: true, rewrites: 'prompt', context: true, plainStdoutIsContext: true }),
  spec({ name: 'stop', cli: 'stop', claude: 'Stop', mode: 'observe', canBlock: true }),
  spec({ name: 'subagentStop', cli: 'subagent-stop', claude: 'SubagentStop', mode: 'observe', canBlock: true }),
  spec({ name: 'preCompact', cli: 'pre-compact', claude: 'PreCompact', mode: 'observe', canBlock: true }),
  spec({ name: 'sessionStart', cli: 'session-start', claude: 'SessionStart', mode: 'observe', context: true, plainStdoutIsContext: true }),
  spec({ name: 'sessionEnd', cli: 'session-end', claude: 'SessionEnd', mode: 'observe' }),
  spec({ name: 'notification', cli: 'notification', claude: 'Notification', mode: 'observe' }),
  spec({ name: 'postToolUseFailure', cli: 'post-tool-use-failure', claude: 'PostToolUseFailure', mode: 'observe', tool: true, context: true }),
  // Model-level events (Gemini CLI's BeforeModel, AfterModel, BeforeToolSelection; library callers):
  // the payload's `model_request` / `model_response` are described in events/model-request.ts. A block on
  // beforeToolSelection leaves the call with no tools at all.
  spec({ name: 'beforeModel', cli: 'before-model', claude: 'BeforeModel', mode: 'intercept', canBlock: true, rewrites: 'updatedRequest' }),
  spec({ name: 'afterModel', cli: 'after-model', claude: 'AfterModel', mode: 'intercept', canBlock: true, rewrites: 'updatedResponse' }),
  spec({ name: 'beforeToolSelection', cli: 'before-tool-selection', claude: 'BeforeToolSelection', mode: 'intercept', canBlock: true, rewrites: 'updatedRequest' }),
];

const bySpelling = new Map<string, EventSpec>();
for (const e of EVENTS) for (const n of [e.name, e.cli, e.claude]) bySpelling.set(n, e);

/** Finds an event by any of its three spellings. */
export function findEvent(spelling: string): EventSpec | undefined {
  return bySpelling.get(spelling);
}

/** The catalog entry of a known event name. */
export function eventSpec(name: EventName): EventSpec {
  return bySpelling.get(name)!;
}

/** Every accepted spelling, for error messages. */
export function eventSpellings(): string[] {
  return EVENTS.map((e) => e.cli);
}
