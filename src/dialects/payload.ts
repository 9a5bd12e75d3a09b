// Turns a Claude-Code-format payload into the canonical event: the shape every hook receives.
import { HooksError } from '../errors.js';
import { agentSentEvent, eventFor, eventSpellings, type EventSpec } from '../events/catalog.js';
import { canonicalTool } from '../events/tools.js';
import type { HookEvent, HookInput } from '../types.js';
import { isRecord, requireRecord } from './record.js';

/**
 * The event named on the command line wins; the payload's `hook_event_name` is the fallback, and when
 * both are present they must agree.
 */
export function eventFromClaudePayload(raw: unknown, eventName: string | undefined): HookEvent {
  const payload = requireRecord(raw);
  const named = eventName === undefined ? undefined : requireEvent(eventName, 'event');
  const said = typeof payload.hook_event_name === 'string' ? payload.hook_event_name : undefined;
  const fromPayload = said === undefined ? undefined : fromAgent(said);
  // By name, not identity: past its bound, the catalog makes a fresh spec for each unknown name it is asked.
  if (named !== undefined && fromPayload !== undefined && named.name !== fromPayload.name) {
    throw new HooksError(
      'EVENT_INVALID',
      `stdin: hook_event_name is "${said}" but the command line says "${eventName}"`,
    );
  }
  const spec = named ?? fromPayload;
  if (spec === undefined) {
    throw new HooksError('EVENT_INVALID', `no event named: pass one (hooks run <event>) or send hook_event_name; events: ${eventSpellings().join(', ')}`);
  }
  if (payload.tool_input !== undefined && !isRecord(payload.tool_input)) {
    throw new HooksError('EVENT_INVALID', 'stdin: tool_input must be an object');
  }
  const input: HookInput = { ...payload, hook_event_name: spec.claude };
  const toolName = typeof payload.tool_name === 'string' ? payload.tool_name : undefined;
  if (spec.tool && toolName === undefined) {
    throw new HooksError('EVENT_INVALID', `stdin: ${spec.claude} needs a "tool_name"`);
  }
  // An event agent-hooks does not know keeps the tool the agent names: a newer agent's tool event is
  // matched on it (`match`), as a hook written for that agent expects.
  return (spec.tool || !spec.known) && toolName !== undefined
    ? { name: spec.name, payload: input, tool: { name: toolName, canonical: canonicalTool(toolName) } }
    : { name: spec.name, payload: input };
}

/** The agent's own name for its event: no typo check (see `agentSentEvent`). */
function fromAgent(spelling: string): EventSpec {
  const found = agentSentEvent(spelling);
  if (!found.ok) throw new HooksError('EVENT_UNKNOWN', `stdin: hook_event_name: ${found.message}`);
  return found.spec;
}

function requireEvent(spelling: string, where: string): EventSpec {
  const found = eventFor(spelling);
  if (!found.ok) {
    throw new HooksError('EVENT_UNKNOWN', `${where}: ${found.message}; events: ${eventSpellings().join(', ')}`);
  }
  return found.spec;
}
