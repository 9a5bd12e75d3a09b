// Event names in an agent's own spelling: which canonical event each is, and which have none.
import { HooksError } from '../errors.js';
import { agentSentEvent, editDistance, EVENTS, eventFor, eventSpellings, findEvent, forwardEvent, type EventSpec } from '../events/catalog.js';
import { closest, didYouMean } from '../suggest.js';
import type { EventName } from '../types.js';

/**
 * Agent event name → canonical event, or `null` for an agent event with no canonical equivalent, which
 * takes the forward path: its hooks run under its own name, a block is sent in the agent's generic form.
 */
export type EventTable = Readonly<Record<string, EventName | null>>;

export interface ResolvedEvent {
  spec: EventSpec;
  /** The agent's spelling: from the payload, else the command line, else the table's first match. */
  agentEvent: string;
}

/**
 * The event named on the command line (our spellings or the agent's) or in the payload. Both present
 * must agree; an agent event with no canonical equivalent takes the forward path (see `EventTable`).
 * `payloadKey` is where the payload names its event, for errors (`hook_event_name`, Copilot's `hookName`).
 */
export function resolveAgentEvent(agent: string, table: EventTable, cliName: string | undefined, payloadName: string | undefined, payloadKey = 'hook_event_name'): ResolvedEvent {
  const named = cliName === undefined ? undefined : lookup(agent, table, cliName, 'event');
  const said = payloadName === undefined ? undefined : lookup(agent, table, payloadName, `stdin: ${payloadKey}`, true);
  // By name, not identity: past its bound, the catalog makes a fresh spec for each unknown name it is asked.
  if (named !== undefined && said !== undefined && named.spec.name !== said.spec.name) {
    throw new HooksError('EVENT_INVALID', `stdin: ${payloadKey} is "${payloadName}" but the command line says "${cliName}"`);
  }
  const spec = (named ?? said)?.spec;
  if (spec === undefined) {
    throw new HooksError('EVENT_INVALID', `no event named: pass one (hooks run <event>) or send ${payloadKey}; ${agent} events: ${supported(table).join(', ')}`);
  }
  const agentEvent = said?.agentEvent ?? named?.agentEvent ?? agentEventName(table, spec);
  return { spec, agentEvent };
}

/** The agent's first spelling of a canonical event, else `fallback` (Claude's spelling by default). */
export function agentEventName(table: EventTable, spec: EventSpec, fallback: string = spec.claude): string {
  return Object.keys(table).find((k) => table[k] === spec.name) ?? fallback;
}

/** The canonical event of each of these agent events (for `hooks install`); a name the table does not map is a bug. */
export function eventsOf(table: EventTable, names: readonly string[]): Record<string, EventName> {
  return Object.fromEntries(
    names.map((name) => {
      const event = table[name];
      if (event === undefined || event === null) throw new Error(`no canonical event for "${name}"`);
      return [name, event];
    }),
  );
}

/**
 * The Claude Code event names other agents reuse (the contract's first ten events; Claude Code's later
 * ones are its own), for agents that copy Claude's spelling; `except` are left out.
 */
export function claudeEventNames(except: readonly EventName[] = []): Record<string, EventName> {
  return Object.fromEntries(EVENTS.slice(0, SHARED_EVENTS).filter((e) => !except.includes(e.name)).map((e) => [e.claude, e.name]));
}

/** How many of the catalog's first events other agents share with Claude Code. */
const SHARED_EVENTS = 10;

/** The agent's event names that map to a canonical event. */
export function supported(table: EventTable): string[] {
  return Object.keys(table).filter((k) => table[k] !== null);
}

/** `fromAgent`: the name is the agent's own (its payload), so it skips the typo check (see `agentSentEvent`). */
function lookup(agent: string, table: EventTable, spelling: string, where: string, fromAgent = false): { spec: EventSpec; agentEvent?: string } {
  if (Object.hasOwn(table, spelling)) {
    const name = table[spelling];
    return { spec: name === null || name === undefined ? forwardEvent(spelling) : findEvent(name)!, agentEvent: spelling };
  }
  const spec = findEvent(spelling);
  if (spec === undefined) {
    // An event newer than this table and the catalog runs its hooks as an observe event, unless it is
    // a likely typo of a name the agent or the catalog knows.
    // (The Docker MCP gateway's events are a closed set: the two sides of a tools/call.)
    const found = fromAgent ? agentSentEvent(spelling) : eventFor(spelling);
    if (found.ok && agent !== 'docker-mcp' && fromAgent) return { spec: found.spec, agentEvent: spelling };
    if (found.ok && agent !== 'docker-mcp' && closeTo(spelling, Object.keys(table)) === undefined) return { spec: found.spec, agentEvent: spelling };
    const candidates = [...supported(table), ...eventSpellings()];
    throw new HooksError('EVENT_UNKNOWN', `${where}: unknown event "${spelling}"${didYouMean(spelling, candidates)}; ${agent} events: ${supported(table).join(', ')}`);
  }
  return { spec };
}

/** The agent's event name `spelling` is most likely a typo of: the same letters in another case, or an edit or two away. */
function closeTo(spelling: string, names: readonly string[]): string | undefined {
  const lower = spelling.toLowerCase();
  const same = names.find((n) => n.toLowerCase() === lower);
  if (same !== undefined) return same;
  const hit = closest(spelling, names);
  return hit !== undefined && editDistance(lower, hit.toLowerCase()) <= (spelling.length >= 8 ? 2 : 1) ? hit : undefined;
}
