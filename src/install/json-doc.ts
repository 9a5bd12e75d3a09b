// Reading and writing an agent's JSON settings: strict parsing that names the file, and output in the
// file's own indentation so that an unchanged key stays byte for byte what it was.
import { HooksError } from '../errors.js';
import { isRecord } from '../json.js';

export type JsonObject = Record<string, unknown>;

/** The file's text as a JSON object (no file, or only whitespace: an empty one); never guesses at broken JSON. */
export function parseSettings(text: string | undefined, file: string): JsonObject {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HooksError(
      'CONFIG_INVALID',
      `${file}: not valid JSON (${(error as Error).message.split('\n')[0]}); fix it first, agent-hooks will not overwrite it`,
      { file },
    );
  }
  if (!isRecord(value)) throw new HooksError('CONFIG_INVALID', `${file}: expected a JSON object at the top level`, { file });
  return value;
}

/** The document as text, indented like `before` (two spaces for a new file), with a final newline. */
export function formatSettings(doc: JsonObject, before: string | undefined): string {
  const indent = before === undefined ? undefined : /^([ \t]+)\S/m.exec(before)?.[1];
  return `${JSON.stringify(doc, null, indent ?? 2)}\n`;
}

/** True when both documents serialize the same, key order included. */
export function sameDoc(a: JsonObject, b: JsonObject): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}


/** `doc.hooks`, checked: absent is fine, anything but an object is an error naming the key. */
export function hooksTable(doc: JsonObject, file: string): JsonObject | undefined {
  const hooks = doc.hooks;
  if (hooks === undefined) return undefined;
  if (!isRecord(hooks)) throw new HooksError('CONFIG_INVALID', `${file}: "hooks" is not an object; agent-hooks will not change it`, { file, path: 'hooks' });
  return hooks;
}

/** `hooks[event]`, checked: absent is fine, anything but an array is an error naming the key. */
export function eventList(hooks: JsonObject, event: string, file: string): unknown[] | undefined {
  const list = hooks[event];
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) {
    throw new HooksError('CONFIG_INVALID', `${file}: hooks.${event} is not an array; agent-hooks will not change it`, { file, path: `hooks.${event}` });
  }
  return list;
}

/**
 * The list with our entry: the first entry of ours is replaced in place (so it keeps its position
 * among the user's), further copies of ours are dropped, and with none it is appended.
 */
export function upsert(list: readonly unknown[], isOurs: (entry: unknown) => boolean, desired: unknown): unknown[] {
  const at = list.findIndex(isOurs);
  if (at === -1) return [...list, desired];
  return list.flatMap((entry, i) => (i === at ? [desired] : isOurs(entry) ? [] : [entry]));
}
