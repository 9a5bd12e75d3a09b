// The outcome of a test run, as every reporter sees it.
import type { CaseResult } from './run.js';

export interface TestReport {
  results: CaseResult[];
  passed: number;
  failed: number;
  skipped: number;
  /** Cases whose expectation `--update` rewrote (counted as passed too). */
  updated: number;
  ms: number;
  /** Where paths are shown from. */
  cwd: string;
  /** Messages about `--update` (a YAML file it would not rewrite, and what to paste instead). */
  notes: string[];
}

/** Counts the results. */
export function summarize(results: CaseResult[], cwd: string, ms: number, notes: string[] = []): TestReport {
  const count = (...statuses: CaseResult['status'][]) => results.filter((r) => statuses.includes(r.status)).length;
  return { results, passed: count('passed', 'updated'), failed: count('failed'), skipped: count('skipped'), updated: count('updated'), ms, cwd, notes };
}

/** The line every reporter's human form ends with, and CI greps for. */
export function summaryLine(report: TestReport): string {
  return `${report.passed} passed, ${report.failed} failed`;
}

/** The ids of hooks that failed in a case that expects no failure, each once, in order of first failure. */
export function brokenHooks(report: TestReport): string[] {
  return [...new Set(report.results.flatMap((r) => (r.hookFailures ?? []).map((f) => f.id)))];
}

/** The expected and actual sides of a failed case, as two objects the diff can compare. */
export function sides(result: CaseResult): { expected: Record<string, unknown>; actual: Record<string, unknown> } {
  const expected: Record<string, unknown> = {};
  const actual: Record<string, unknown> = {};
  for (const check of result.checks) {
    // A field that held shows its actual value on both sides: a context line, not a change.
    expected[check.field] = check.ok ? check.actual : check.expected === null ? undefined : check.expected;
    actual[check.field] = check.actual;
  }
  return { expected, actual };
}
