// `hooks test --update`: writes the current decision into failing cases' expectations.
// Only what failed changes; what still holds (a regex reason, a partial match) stays as written.
import { writeFile } from 'node:fs/promises';
import { regexParts } from './case.js';
import type { FieldCheck, Observed } from './expect.js';
import type { CaseFile } from './load.js';

const REWRITTEN_FIELDS = ['updatedInput', 'prompt', 'updatedOutput'] as const;

/**
 * The expectation that describes `observed`, starting from the one written (`current`, as read):
 * failing fields take the actual value, the decision is always written, and the reason and the
 * rewritten field are added when missing. `null` means "none" (no reason, no rewrite).
 */
export function updatedExpectation(current: Record<string, unknown> | undefined, checks: readonly FieldCheck[], observed: Observed): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  next.decision = observed.decision;
  for (const check of checks) {
    if (!check.ok) next[check.field] = actualValue(check.field, observed, current?.[check.field]);
  }
  if (!('reason' in next) && observed.reason !== undefined) next.reason = literal(observed.reason);
  for (const field of REWRITTEN_FIELDS) {
    if (!(field in next) && observed[field] !== undefined) next[field] = observed[field];
  }
  return next;
}

/** Puts `expect` into the case as read: in place when it has one (keeping key order), else last. */
export function setExpectation(raw: Record<string, unknown>, expect: Record<string, unknown>): void {
  const existing = raw.expect;
  if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) {
    for (const key of Object.keys(existing)) delete (existing as Record<string, unknown>)[key];
    Object.assign(existing, expect);
  } else {
    raw.expect = expect;
  }
}

/** Writes a JSON case file back with its cases as they now are (two-space indent). */
export async function saveCaseFile(file: CaseFile): Promise<void> {
  if (file.format !== 'json') throw new Error(`${file.file}: only JSON case files are rewritten`);
  await writeFile(file.file, `${JSON.stringify(file.data, null, 2)}\n`);
}

// --- internal ---

function actualValue(field: string, observed: Observed, written: unknown): unknown {
  switch (field) {
    case 'reason':
    case 'additionalContext': {
      const text = observed[field];
      return text === undefined ? null : literal(text);
    }
    case 'failed': {
      // Keep the form the case used: bare ids, or { id, kind }.
      const bare = Array.isArray(written) && written.every((w) => typeof w === 'string');
      return observed.failed.map((f) => (bare ? f.id : f));
    }
    default: {
      const value = observed[field as keyof Observed];
      return value === undefined ? null : value;
    }
  }
}

/** A text that reads back as a substring match of itself (not as a `/regex/`). */
function literal(text: string): string {
  // An empty text would match anything (and is refused): an empty reason is the regex of the empty text.
  if (text === '') return '/^$/';
  if (regexParts(text) === undefined) return text;
  return `/^${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/`;
}
