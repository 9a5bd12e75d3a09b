// The machine-readable report (`--json`): counts, and per case its status, what the engine decided and what failed.
import { showPath } from '../load.js';
import type { TestReport } from '../report.js';

export function formatJson(report: TestReport): string {
  const cases = report.results.map((r) => ({
    name: r.case.name,
    file: showPath(r.case.file, report.cwd),
    ...(r.case.key === '' ? {} : { key: r.case.key }),
    status: r.status,
    ms: r.ms,
    ...(r.note === undefined ? {} : { note: r.note }),
    ...(r.observed === undefined ? {} : { actual: r.observed }),
    ...(r.hookFailures === undefined ? {} : { hookFailures: r.hookFailures }),
    failures: r.checks.filter((c) => !c.ok).map((c) => ({ field: c.field, message: c.message, expected: c.expected, actual: c.actual })),
  }));
  const { passed, failed, skipped, updated, ms, notes } = report;
  return `${JSON.stringify({ passed, failed, skipped, updated, ms, ...(notes.length === 0 ? {} : { notes }), cases }, null, 2)}\n`;
}
