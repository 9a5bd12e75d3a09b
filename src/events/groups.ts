// Wildcard event keys: a config key that runs its hooks on every event (`*`) or on a group of events
// (`group:tool`, ...). Each group is a rule over the catalog's own fields, not a list of names, so an
// event added to the catalog joins the groups it belongs to without anyone touching this file.
import { EVENTS, eventFor, type EventSpec } from './catalog.js';

export interface EventGroup {
  key: string;
  /** One line for docs, `hooks list --capabilities` and errors. */
  summary: string;
  includes(event: EventSpec): boolean;
}

export const EVENT_GROUPS: readonly EventGroup[] = [
  { key: '*', summary: 'every event', includes: () => true },
  { key: 'group:tool', summary: 'events whose payload carries a tool call (tool_name, tool_input)', includes: (e) => e.tool },
  { key: 'group:intercept', summary: 'chain events: hooks run in order and may block or rewrite', includes: (e) => e.mode === 'intercept' },
  { key: 'group:observe', summary: 'observe events: every matching hook runs at once', includes: (e) => e.mode === 'observe' },
  { key: 'group:blocking', summary: 'events on which a block has an effect', includes: (e) => e.canBlock },
  { key: 'group:session', summary: 'the session lifecycle: session start and end', includes: (e) => /^session[A-Z]/.test(e.name) },
  { key: 'group:stop', summary: 'the agent (or a subagent) is about to stop', includes: (e) => e.name === 'stop' || e.name.endsWith('Stop') },
  { key: 'group:model', summary: 'model-level events: before and after a model call, and tool selection', includes: (e) => /^(before|after)Model$|^beforeToolSelection$/.test(e.name) },
];

/** How specific a key is: an event's own key 0, a group 1, `*` 2. Hooks run in that order, all else equal. */
export function keySpecificity(key: string): number {
  return key === '*' ? 2 : key.startsWith('group:') ? 1 : 0;
}

/** The group with this key, or undefined. */
export function findEventGroup(key: string): EventGroup | undefined {
  return EVENT_GROUPS.find((g) => g.key === key);
}

/**
 * The events a config key under `hooks` names: the group's members for a wildcard key, else the one
 * event it spells (an event the catalog does not know included), none for a key that is no event.
 */
export function eventsOfKey(key: string): readonly EventSpec[] {
  const group = findEventGroup(key);
  if (group !== undefined) return EVENTS.filter((e) => group.includes(e));
  const found = eventFor(key);
  return found.ok ? [found.spec] : [];
}
