// The input fields a sample event can have, per tool and per event: a test case that sets a field the
// tool does not have (`{"comand": "rm -rf /"}`) would run on the sample's default input and pass
// without testing what it says, so such a key fails the case.
import { canonicalTool } from '../events/tools.js';
import { findEvent } from '../events/catalog.js';
import { EVENT_FIELDS, SESSION_FIELDS, toolInputFields } from '../events/fields.js';
import { closest } from '../suggest.js';

/**
 * Why a sample's `input` names a field its tool (or event) does not have, as `<key>: ...`, or
 * undefined when every key is known, or when the tool is one whose fields are not known (an MCP
 * tool, a tool of the agent's own).
 */
export function unknownInputField(event: string, tool: string | undefined, input: Record<string, unknown> | undefined): string | undefined {
  if (input === undefined) return undefined;
  const spec = findEvent(event);
  if (spec === undefined) return undefined;
  let known: readonly string[] | undefined;
  let what: string;
  if (spec.tool) {
    const name = tool ?? 'exec';
    const canonical = canonicalTool(name);
    known = toolInputFields(canonical) ?? toolInputFields(name);
    what = `the ${name} tool's input`;
  } else {
    known = [...(EVENT_FIELDS[spec.name] ?? []), ...SESSION_FIELDS];
    what = `a ${spec.cli} event`;
  }
  if (known === undefined) return undefined;
  for (const key of Object.keys(input)) {
    if (known.includes(key)) continue;
    const hit = closest(key, known);
    return `${key}: ${what} has no field "${key}"${hit === undefined ? '' : ` (did you mean "${hit}"?)`}; its fields: ${known.join(', ')}`;
  }
  return undefined;
}
