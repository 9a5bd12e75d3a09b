// Which events of a wildcard key (`*`, `group:tool`, ...) one of its hooks runs on: those where it can
// act. A builtin guard runs on the events it acts on, a hook with `match` on events that carry a tool,
// a hook with `if` on events that have those fields. A hook that fits no event of its key is a config
// error, never a hook that silently runs nowhere.
import { eventsOfKey } from '../events/groups.js';
import type { EventSpec } from '../events/catalog.js';
import { loadGuard } from '../guards/index.js';
import { unknownIfFields } from '../match/fields.js';
import type { EventName } from '../types.js';

interface WildcardEntry {
  id?: string | undefined;
  command?: string | undefined;
  builtin?: string | undefined;
  url?: string | undefined;
  type?: string | undefined;
  match?: string | string[] | undefined;
  /** Field globs, or a Claude Code permission rule (`Bash(git push*)`), which needs a tool event. */
  if?: Record<string, string | string[]> | string | undefined;
}

/** An entry that runs nothing of its own: an override of an earlier hook with its id. */
export const isOverride = (entry: WildcardEntry) => entry.command === undefined && entry.builtin === undefined && entry.url === undefined && entry.type === undefined;

/**
 * True when the entry runs on this event of its wildcard key. An override (no command, no builtin)
 * applies where the hook it names exists; an unknown guard applies everywhere, so that the usual
 * "unknown guard" error is reported (once: the same line for each event).
 */
export async function wildcardApplies(entry: WildcardEntry, event: EventSpec, overridable: (event: EventName) => boolean): Promise<boolean> {
  if (isOverride(entry)) return overridable(event.name);
  if (entry.builtin !== undefined) {
    const guard = await loadGuard(entry.builtin);
    if (guard !== undefined && !guard.events.includes(event.name)) return false;
  }
  if (entry.match !== undefined && !event.tool) return false;
  if (typeof entry.if === 'string') return event.tool;
  if (entry.if !== undefined) {
    const match = entry.match === undefined ? undefined : Array.isArray(entry.match) ? entry.match : [entry.match];
    if (unknownIfFields({ event: event.name, ...(match === undefined ? {} : { match }), if: entry.if }).length > 0) return false;
  }
  return true;
}

/** Why an entry of a wildcard key runs on none of its events, in one line. */
export async function noEventMessage(key: string, entry: WildcardEntry): Promise<string> {
  const events = eventsOfKey(key).map((e) => e.name);
  const why: string[] = [];
  if (isOverride(entry)) why.push(`no earlier hook "${entry.id ?? ''}" on any of them to override`);
  if (entry.builtin !== undefined) {
    const guard = await loadGuard(entry.builtin);
    if (guard !== undefined) why.push(`${entry.builtin} acts on ${guard.events.join(', ')}`);
  }
  if (entry.match !== undefined) why.push('"match" needs an event with a tool');
  if (entry.if !== undefined) why.push(`"if" names ${Object.keys(entry.if).join(', ')}, which must all be fields of the event`);
  return `runs on no event of "${key}" (${events.length === 0 ? 'no event is in this group yet' : events.join(', ')}): ${why.join('; ') || 'nothing fits'}`;
}
