// A small diff of two JSON values: one line per key, `-` for expected, `+` for actual, ` ` when equal.
// Objects are compared key by key, arrays by their longest common run, anything else as a whole.
import { isRecord } from '../json.js';
import { deepEqual } from './expect.js';

export interface DiffLine {
  sign: ' ' | '-' | '+';
  /** Nesting depth, for indentation. */
  depth: number;
  text: string;
}

/** The lines of the diff of `expected` against `actual`; `undefined` on a side means absent. */
export function diffJson(expected: unknown, actual: unknown): DiffLine[] {
  const out: DiffLine[] = [];
  diffValue(expected, actual, '', 0, out);
  return out;
}

/** The diff as text: `- key: value` lines, two spaces per level. */
export function renderDiff(lines: readonly DiffLine[], paint: { removed?: (s: string) => string; added?: (s: string) => string } = {}): string {
  return lines
    .map((l) => {
      const text = `${l.sign} ${'  '.repeat(l.depth)}${l.text}`;
      if (l.sign === '-' && paint.removed) return paint.removed(text);
      if (l.sign === '+' && paint.added) return paint.added(text);
      return text;
    })
    .join('\n');
}

// --- internal ---

function diffValue(expected: unknown, actual: unknown, label: string, depth: number, out: DiffLine[]): void {
  if (expected === undefined && actual === undefined) return;
  if (expected !== undefined && actual !== undefined && deepEqual(expected, actual)) {
    out.push({ sign: ' ', depth, text: `${label}${show(expected)}` });
    return;
  }
  if (isRecord(expected) && isRecord(actual)) {
    out.push({ sign: ' ', depth, text: `${label}{` });
    const keys = [...Object.keys(expected), ...Object.keys(actual).filter((k) => !Object.hasOwn(expected, k))];
    for (const key of keys) diffValue(expected[key], actual[key], `${JSON.stringify(key)}: `, depth + 1, out);
    out.push({ sign: ' ', depth, text: `}` });
    return;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    out.push({ sign: ' ', depth, text: `${label}[` });
    for (const step of align(expected, actual)) {
      if (step.kind === 'same') out.push({ sign: ' ', depth: depth + 1, text: `${show(step.value)}` });
      else if (step.kind === 'removed') out.push({ sign: '-', depth: depth + 1, text: `${show(step.value)}` });
      else out.push({ sign: '+', depth: depth + 1, text: `${show(step.value)}` });
    }
    out.push({ sign: ' ', depth, text: `]` });
    return;
  }
  if (expected !== undefined) out.push({ sign: '-', depth, text: `${label}${show(expected)}` });
  if (actual !== undefined) out.push({ sign: '+', depth, text: `${label}${show(actual)}` });
}

type Step = { kind: 'same' | 'removed' | 'added'; value: unknown };

/** Longest common subsequence of two arrays: what stayed, what is only expected, what is only actual. */
function align(a: readonly unknown[], b: readonly unknown[]): Step[] {
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = deepEqual(a[i], b[j]) ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const steps: Step[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (deepEqual(a[i], b[j])) {
      steps.push({ kind: 'same', value: a[i] });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      steps.push({ kind: 'removed', value: a[i++] });
    } else {
      steps.push({ kind: 'added', value: b[j++] });
    }
  }
  while (i < n) steps.push({ kind: 'removed', value: a[i++] });
  while (j < m) steps.push({ kind: 'added', value: b[j++] });
  return steps;
}

function show(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

