// RFC 8785 JSON Canonicalization Scheme (JCS): one byte sequence per JSON value, so a fingerprint does not
// change with key order, whitespace or number spelling. Written here (no dependency) because the rules
// map one to one onto ECMAScript, which RFC 8785 itself is defined against:
// - numbers: ECMAScript Number-to-String (RFC 8785 3.2.2.3), which JSON.stringify uses; -0 is "0";
//   NaN and the infinities are not JSON and are refused;
// - strings: JSON.stringify's escaping is JCS's (\b \t \n \f \r, other controls as lowercase \u00xx,
//   `"` and `\`, everything else as is); a lone surrogate is not I-JSON (RFC 7493) and is refused;
// - object members sorted by their names' UTF-16 code units (Array#sort's default order), recursively.
import { isRecord } from '../../json.js';

/** How deep a value may nest before canonicalization refuses it (events are cut off far below). */
export const MAX_DEPTH = 1000;

export class CanonicalizationError extends Error {}

/** The RFC 8785 canonical JSON text of a JSON value. Throws `CanonicalizationError` on anything that is not I-JSON. */
export function canonicalize(value: unknown): string {
  return write(value, 0, '$');
}

function write(value: unknown, depth: number, at: string): string {
  if (depth > MAX_DEPTH) throw new CanonicalizationError(`${at}: nests deeper than ${MAX_DEPTH} levels`);
  if (value === null || value === true || value === false) return String(value);
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalizationError(`${at}: ${value} is not a JSON number`);
      return JSON.stringify(value);
    case 'string':
      return string(value, at);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v, i) => write(v, depth + 1, `${at}[${i}]`)).join(',')}]`;
      if (!isRecord(value) || (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)) {
        throw new CanonicalizationError(`${at}: not a plain JSON object`);
      }
      const keys = Object.keys(value).sort();
      const members: string[] = [];
      for (const key of keys) {
        const v = value[key];
        if (v === undefined) throw new CanonicalizationError(`${at}.${key}: undefined is not a JSON value`);
        members.push(`${string(key, `${at} (a member name)`)}:${write(v, depth + 1, `${at}.${key}`)}`);
      }
      return `{${members.join(',')}}`;
    }
    default:
      throw new CanonicalizationError(`${at}: a ${typeof value} is not a JSON value`);
  }
}

/** A lone surrogate (no pair) anywhere in the string. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function string(text: string, at: string): string {
  if (LONE_SURROGATE.test(text)) throw new CanonicalizationError(`${at}: a string with a lone surrogate is not I-JSON`);
  return JSON.stringify(text);
}
