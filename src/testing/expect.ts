// Checks a combined decision against a case's expectation, field by field. Pure.
import type { Decision } from '../decide/combine.js';
import { isRecord } from '../json.js';
import { regexParts, type Expectation } from './case.js';

/** One expected field: whether it held, and the two sides as the diff shows them. */
export interface FieldCheck {
  field: string;
  ok: boolean;
  expected: unknown;
  /** The actual value in the expectation's terms (only the compared keys of a partial match). */
  actual: unknown;
  /** One line on what is wrong, when not ok. */
  message?: string;
}

/** What a decision looks like through the fields an expectation can name. */
export interface Observed {
  decision: string;
  reason?: string;
  updatedInput?: Record<string, unknown>;
  prompt?: string;
  updatedOutput?: unknown;
  additionalContext?: string;
  ran: string[];
  failed: { id: string; kind: string }[];
  skipped: string[];
}

/** The observable parts of a decision; `additionalContext` joined as the native answer joins it. */
export function observe(decision: Decision): Observed {
  const out: Observed = { decision: decision.decision, ran: [], failed: [], skipped: [] };
  if (decision.reason !== undefined) out.reason = decision.reason;
  if (decision.updatedInput !== undefined) out.updatedInput = decision.updatedInput;
  if (decision.prompt !== undefined) out.prompt = decision.prompt;
  if (decision.updatedOutput !== undefined) out.updatedOutput = decision.updatedOutput.value;
  if (decision.additionalContext.length > 0) out.additionalContext = decision.additionalContext.join('\n\n');
  // Assigned last so reports list the decision first and the trace after it.
  out.ran = decision.results.map((r) => r.id);
  out.failed = decision.results.flatMap((r) => (r.failure === undefined ? [] : [{ id: r.id, kind: r.failure.kind }]));
  out.skipped = decision.skipped.map((s) => s.id);
  return out;
}

/** Every field the expectation names, checked; fields it leaves out are not checked. */
export function checkExpectation(expect: Expectation, actual: Observed): FieldCheck[] {
  const checks: FieldCheck[] = [];
  const partial = expect.match === 'partial';
  if (expect.decision !== undefined) {
    const ok = expect.decision === actual.decision;
    checks.push(check('decision', ok, expect.decision, actual.decision, `expected ${expect.decision}, got ${actual.decision}`));
  }
  for (const field of ['reason', 'additionalContext'] as const) {
    const want = expect[field];
    if (want === undefined) continue;
    const got = actual[field];
    const ok = want === null ? got === undefined : got !== undefined && textMatches(want, got);
    const message = want === null ? `expected none, got ${JSON.stringify(got)}` : got === undefined ? `expected ${describeText(want)}, got none` : `expected ${describeText(want)}, got ${JSON.stringify(got)}`;
    checks.push(check(field, ok, want, got, message));
  }
  for (const field of ['updatedInput', 'prompt', 'updatedOutput'] as const) {
    if (!(field in expect) || expect[field] === undefined) continue;
    const want = expect[field];
    const got = actual[field];
    if (want === null) {
      checks.push(check(field, got === undefined, null, got, `expected no ${field}, got one`));
      continue;
    }
    const ok = got !== undefined && (partial ? partialMatch(want, got) : deepEqual(want, got));
    const shown = partial ? projectOnto(want, got) : got;
    const how = partial ? 'lacks what the case expects' : 'differs from what the case expects';
    checks.push(check(field, ok, want, shown, got === undefined ? `expected a ${field}, got none` : `${how} (see the diff)`));
  }
  if (expect.ran !== undefined) {
    checks.push(check('ran', deepEqual(expect.ran, actual.ran), expect.ran, actual.ran, `expected [${expect.ran.join(', ')}] to run, ran [${actual.ran.join(', ')}]`));
  }
  if (expect.skipped !== undefined) {
    checks.push(check('skipped', deepEqual(expect.skipped, actual.skipped), expect.skipped, actual.skipped, `expected [${expect.skipped.join(', ')}] skipped, skipped [${actual.skipped.join(', ')}]`));
  }
  if (expect.failed !== undefined) {
    const want = expect.failed;
    const ok = want.length === actual.failed.length && want.every((w, i) => failedMatches(w, actual.failed[i]!));
    // Shown in the expectation's own form: bare ids where it used bare ids.
    const shown = actual.failed.map((f, i) => (typeof want[i] === 'object' && want[i] !== null ? ('kind' in want[i] ? f : { id: f.id }) : f.id));
    const list = actual.failed.map((f) => `${f.id} (${f.kind})`).join(', ');
    checks.push(check('failed', ok, want, shown, `expected failures [${want.map((w) => (typeof w === 'string' ? w : w.id)).join(', ')}], got [${list}]`));
  }
  return checks;
}

/** A substring, or a `/regex/flags` test. */
export function textMatches(pattern: string, text: string): boolean {
  const re = regexParts(pattern);
  return re === undefined ? text.includes(pattern) : new RegExp(re.source, re.flags).test(text);
}

/** Structural equality of JSON values (key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * `want` is contained in `got`: objects by the keys `want` names (recursively), arrays element by
 * element with the same length, strings as substrings, anything else equal.
 */
export function partialMatch(want: unknown, got: unknown): boolean {
  if (typeof want === 'string' && typeof got === 'string') return got.includes(want);
  if (isRecord(want) && isRecord(got)) return Object.entries(want).every(([k, v]) => Object.hasOwn(got, k) && partialMatch(v, got[k]));
  if (Array.isArray(want) && Array.isArray(got)) return want.length === got.length && want.every((v, i) => partialMatch(v, got[i]));
  return deepEqual(want, got);
}

// --- internal ---

function check(field: string, ok: boolean, expected: unknown, actual: unknown, message: string): FieldCheck {
  return ok ? { field, ok, expected, actual } : { field, ok, expected, actual, message: `${field}: ${message}` };
}

function failedMatches(want: string | { id: string; kind?: string | undefined }, got: { id: string; kind: string }): boolean {
  if (typeof want === 'string') return want === got.id;
  return want.id === got.id && (want.kind === undefined || want.kind === got.kind);
}

function describeText(pattern: string): string {
  return regexParts(pattern) === undefined ? `text containing ${JSON.stringify(pattern)}` : `text matching ${pattern}`;
}

/** `got` cut down to the keys `want` names, so a partial match's diff shows only what was compared. */
function projectOnto(want: unknown, got: unknown): unknown {
  if (isRecord(want) && isRecord(got)) {
    return Object.fromEntries(Object.keys(want).filter((k) => Object.hasOwn(got, k)).map((k) => [k, projectOnto(want[k], got[k])]));
  }
  if (Array.isArray(want) && Array.isArray(got)) return got.map((v, i) => (i < want.length ? projectOnto(want[i], v) : v));
  return got;
}

