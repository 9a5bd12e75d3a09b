// The fields an `if` may name: the input fields of the tools a hook matches and the event's own fields
// (src/events/fields.ts). An `if` on a field the hook can never see makes the hook never run,
// silently: the config check refuses it and lists what it can name.
import { EVENTS } from '../events/catalog.js';
import { TOOL_GROUPS, canonicalTool } from '../events/tools.js';
import { EVENT_FIELDS, SESSION_FIELDS, TOOL_EVENT_FIELDS, TOOL_INPUT_FIELDS, toolInputFields } from '../events/fields.js';
import type { EventName } from '../types.js';

/**
 * The `if` fields this hook names that no event it runs on has, each with the fields it could name.
 * Silent (no finding) when the tools it matches are not all known: an MCP tool's input is its own.
 */
export function unknownIfFields(hook: { event: EventName; match?: readonly string[]; if?: Readonly<Record<string, unknown>> }): { field: string; known: string[] }[] {
  if (hook.if === undefined) return [];
  const spec = EVENTS.find((e) => e.name === hook.event)!;
  let tools: string[] = [];
  if (spec.tool) {
    if (hook.match === undefined) tools = Object.keys(TOOL_INPUT_FIELDS);
    else {
      for (const pattern of hook.match) {
        const named = Object.hasOwn(TOOL_GROUPS, pattern) ? TOOL_GROUPS[pattern]! : /[*?[\]{}!()]/.test(pattern) ? undefined : [canonicalTool(pattern)];
        if (named === undefined || named.some((t) => toolInputFields(t) === undefined)) return [];
        tools.push(...named);
      }
    }
  }
  const known = new Set([...SESSION_FIELDS, ...TOOL_EVENT_FIELDS, ...(EVENT_FIELDS[hook.event] ?? []), ...tools.flatMap((t) => toolInputFields(t) ?? [])]);
  const shown = [...(EVENT_FIELDS[hook.event] ?? []), ...new Set(tools.flatMap((t) => toolInputFields(t) ?? [])), 'cwd', 'session_id', 'permission_mode'];
  return Object.keys(hook.if)
    .filter((field) => !known.has(field))
    .map((field) => ({ field, known: [...new Set(shown)] }));
}
