// The `hooks` table every JSON-settings agent shares: event name → list of entries. Ours go in and
// come out; the user's entries stay where they are, untouched.
import { isOurCommand } from './shell.js';
import { isOurHttpHandler } from './serve.js';
import { isRecord } from '../json.js';
import { eventList, upsert, type JsonObject } from './json-doc.js';

/** How one agent's list entries hold hook commands. */
export interface EntryFormat {
  /** How many of our hook commands the entry holds. */
  ours(entry: unknown): number;
  /** The entry with ours taken out; undefined when nothing of the user's is left in it. */
  without(entry: unknown): unknown;
}

/** Claude Code, Codex, Gemini: `{matcher?, hooks: [{type, command, ...}]}` groups. */
export const nestedEntries: EntryFormat = {
  ours: (group) => (isRecord(group) && Array.isArray(group.hooks) ? group.hooks.filter(isOurHandler('command')).length : 0),
  without(group) {
    const g = group as JsonObject & { hooks: unknown[] };
    const rest = g.hooks.filter((h) => !isOurHandler('command')(h));
    return rest.length === 0 ? undefined : { ...g, hooks: rest };
  },
};

/** Cursor and Copilot: the list holds the handlers themselves; `key` is the field with the command. */
export function flatEntries(key: string): EntryFormat {
  return { ours: (entry) => (isOurHandler(key)(entry) ? 1 : 0), without: () => undefined };
}

/**
 * The table with exactly our `desired` entries (agent event → entry): each replaces our old one in
 * place or is appended; ours on events no longer mapped are removed. Throws on a malformed list.
 */
export function installTable(table: JsonObject, file: string, format: EntryFormat, desired: ReadonlyMap<string, unknown>): JsonObject {
  const isPure = (entry: unknown) => format.ours(entry) > 0 && format.without(entry) === undefined;
  const out: JsonObject = {};
  for (const [event, value] of Object.entries(table)) {
    const entry = desired.get(event);
    // Not an event list (Gemini keeps switches such as `enabled` here): nothing of ours, left as it is.
    if (entry === undefined && !Array.isArray(value)) {
      out[event] = value;
      continue;
    }
    const list = eventList(table, event, file)!;
    if (entry === undefined) {
      const kept = strip(list, format, () => false);
      // A list only we filled goes with our entries; one the user left empty stays.
      if (kept.length > 0 || list.length === 0) out[event] = kept;
    } else {
      // Whole entries of ours stay for `upsert` to replace in place; mixed ones lose their part of ours.
      out[event] = upsert(strip(list, format, isPure), isPure, entry);
    }
  }
  for (const [event, entry] of desired) if (!(event in out)) out[event] = [entry];
  return out;
}

/** The table without any of ours, and how many hook commands were removed. */
export function uninstallTable(table: JsonObject, file: string, format: EntryFormat): { table: JsonObject; removed: number } {
  let removed = 0;
  const out: JsonObject = {};
  for (const [event, list] of Object.entries(table)) {
    if (!Array.isArray(list)) {
      out[event] = list;
      continue;
    }
    removed += list.reduce<number>((n, entry) => n + format.ours(entry), 0);
    const kept = strip(list, format, () => false);
    if (kept.length > 0 || list.length === 0) out[event] = kept;
  }
  return { table: out, removed };
}

/** Our hook commands in the table (so a summary can say how many are installed). */
export function countOurs(table: JsonObject, format: EntryFormat): number {
  return Object.values(table).reduce<number>(
    (n, list) => n + (Array.isArray(list) ? list.reduce<number>((m, entry) => m + format.ours(entry), 0) : 0),
    0,
  );
}

function strip(list: readonly unknown[], format: EntryFormat, keep: (entry: unknown) => boolean): unknown[] {
  return list.flatMap((entry) => {
    if (format.ours(entry) === 0 || keep(entry)) return [entry];
    const rest = format.without(entry);
    return rest === undefined ? [] : [rest];
  });
}

function isOurHandler(key: string): (handler: unknown) => boolean {
  // An http handler `install --serve` wrote is ours too (it has no command to carry the marker).
  return (handler) => (isRecord(handler) && isOurCommand(handler[key])) || isOurHttpHandler(handler);
}
