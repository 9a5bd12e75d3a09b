// The one check for "a plain JSON object", for every module that reads untyped JSON.

export type Json = Record<string, unknown>;

/** True for a non-null, non-array object. */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
