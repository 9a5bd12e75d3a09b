// The one check for "a plain JSON object", for every module that reads untyped JSON, and the limits on an event.
import { HooksError } from './errors.js';

export type Json = Record<string, unknown>;

/** True for a non-null, non-array object. */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The largest event the runner reads (bytes of JSON on stdin) and the deepest nesting it judges. Real events
 * are far below both (a big Read result is a few MB; nesting stays under 20); past them an event is a runner
 * error (size) or "cannot be judged" (depth), never a stack overflow in a guard or a copy.
 */
export const EVENT_LIMITS = { maxBytes: 64 * 1024 * 1024, maxDepth: 256 } as const;

/**
 * True when `value` nests deeper than `maxDepth` objects/arrays. Iterative, so any depth is safe to ask about;
 * a cycle (possible through the library API) counts as too deep.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > maxDepth) return true;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/** The runner error for an event over the size limit; it names the limit. */
export function eventTooLarge(bytes: number): HooksError {
  const limit = EVENT_LIMITS.maxBytes;
  return new HooksError('EVENT_INVALID', `stdin: the event is ${bytes} bytes, over the limit of ${limit / 1024 / 1024} MiB (${limit} bytes) on an event; it cannot be judged`);
}
