// The metadata bag: a small JSON object hooks hand to later hooks of the same run and to later events
// of the same session (OpenClaw's interceptor metadata). Pure functions: merge, measure, check.
import { isRecord, nestsDeeperThan } from '../json.js';

export type Bag = Record<string, unknown>;

/** The payload key under which every hook receives the session's bag (absent while the bag is empty). */
export const METADATA_KEY = 'agent_hooks_metadata';

/**
 * The bag is small by design (labels, scores, a classifier's verdict), not a cache: it is read and
 * written on every event of the session, and rides on every hook's stdin.
 */
export const METADATA_LIMITS = {
  /** Bytes of the merged bag as compact JSON. */
  maxBytes: 16 * 1024,
  /** Nesting of objects and arrays inside the bag. */
  maxDepth: 32,
  /** A session's file untouched for this long is removed (a session that never sent sessionEnd). */
  staleMs: 14 * 24 * 60 * 60 * 1000,
} as const;

/**
 * The bag with `changes` applied: each top-level key replaces the old value, `null` removes the key.
 * Built with Object.fromEntries, so a key named `__proto__` is a plain key, never a prototype.
 */
export function mergeBag(bag: Bag, changes: Bag): Bag {
  const merged = new Map(Object.entries(bag));
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}

/** Why this bag may not be kept (too big, too deep, not an object), or undefined when it may. */
export function bagProblem(bag: unknown): string | undefined {
  if (!isRecord(bag)) return 'it is not a JSON object';
  if (nestsDeeperThan(bag, METADATA_LIMITS.maxDepth)) return `it nests deeper than ${METADATA_LIMITS.maxDepth} levels`;
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(bag), 'utf8');
  } catch {
    return 'it cannot be written as JSON';
  }
  if (bytes > METADATA_LIMITS.maxBytes) return `it is ${bytes} bytes of JSON, over the cap of ${METADATA_LIMITS.maxBytes} bytes`;
  return undefined;
}

/** The payload a hook receives: the event's, with the bag under METADATA_KEY when there is one. */
export function withBag<P extends Record<string, unknown>>(payload: P, bag: Bag): P {
  if (Object.keys(bag).length === 0) return payload;
  return { ...payload, [METADATA_KEY]: bag };
}

/**
 * The payload without METADATA_KEY: the key belongs to the runner. Whatever an agent (or anything that
 * shapes its payload) put there is not what hooks wrote, and must not pass for it.
 */
export function withoutBag<P extends Record<string, unknown>>(payload: P): P {
  if (!Object.hasOwn(payload, METADATA_KEY)) return payload;
  const { [METADATA_KEY]: _dropped, ...rest } = payload;
  return rest as P;
}
