// Small readers for untyped agent JSON: every dialect gets payloads it cannot trust the shape of.
import { HooksError } from '../errors.js';

import { isRecord, type Json } from '../json.js';

export { isRecord, type Json } from '../json.js';

/** The stdin value as an object, or the `EVENT_INVALID` error every dialect gives. */
export function requireRecord(raw: unknown): Json {
  if (!isRecord(raw)) throw new HooksError('EVENT_INVALID', 'stdin: the event must be a JSON object');
  return raw;
}

export function stringField(obj: Json, key: string): string | undefined {
  const value = obj[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Tool arguments as an object. Some agents send them as a JSON string (Copilot's `toolArgs`, Cursor's
 * MCP `tool_input`); a string that is not a JSON object is kept whole under `arguments`.
 */
export function argsObject(value: unknown, where: string): Json {
  if (value === undefined || value === null) return {};
  if (isRecord(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isRecord(parsed)) return parsed;
    } catch {
      // Not JSON: fall through and keep the text.
    }
    return { arguments: value };
  }
  throw new HooksError('EVENT_INVALID', `stdin: ${where} must be an object`);
}

/** Structural equality for JSON values, enough to tell whether a hook changed a field. */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
