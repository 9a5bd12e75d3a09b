// The human report: ✓/✗ per case, what failed with a diff of expected against actual, then the summary line.
import { diffJson, renderDiff } from '../diff.js';
import { showPath } from '../load.js';
import { brokenHooks, sides, summaryLine, type TestReport } from '../report.js';
import type { CaseResult } from '../run.js';

/** The colours the report paints with: the CLI passes its Style (src/cli/style.ts), which a library room does not import. */
type Style = Record<'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan' | 'magenta', (text: string) => string>;

/** One case's lines (printed as it ends). */
export function formatCase(result: CaseResult, cwd: string, s: Style): string {
  const where = s.dim(`${showPath(result.case.file, cwd)}${result.case.key === '' ? '' : ` ${result.case.key}`}`);
  const ms = s.dim(`${result.ms}ms`);
  switch (result.status) {
    case 'passed':
      if (result.hookFailures !== undefined) return `${s.yellow('!')} ${result.case.name} ${where} ${ms}\n${hookFailureLines(result, s)}`;
      return `${s.green('✓')} ${result.case.name} ${where} ${ms}\n`;
    case 'updated':
      return `${s.cyan('↻')} ${result.case.name} ${where} ${s.cyan('(expectation updated)')}\n`;
    case 'skipped':
      return `${s.yellow('-')} ${result.case.name} ${where} ${s.yellow(`(skipped: ${result.note ?? ''})`)}\n`;
    case 'failed':
      return `${s.red('✗')} ${result.case.name} ${where} ${ms}\n${failureDetail(result, s)}${hookFailureLines(result, s)}`;
  }
}

/** Hooks that failed where the case expects no failure: the decision may hold, but a hook is broken. */
function hookFailureLines(result: CaseResult, s: Style): string {
  return (result.hookFailures ?? []).map((f) => `    ${s.yellow(`hook ${f.id} failed (${f.kind}): ${f.message.split('\n')[0]}`)}\n`).join('');
}

/** What went wrong, indented: the failing fields in one line each, then the diff. */
export function failureDetail(result: CaseResult, s: Style): string {
  const lines: string[] = [];
  if (result.note !== undefined) lines.push(result.note);
  if (result.note !== undefined && result.observed !== undefined) {
    lines.push(`got: ${JSON.stringify({ decision: result.observed.decision, ...(result.observed.reason === undefined ? {} : { reason: result.observed.reason }) })}`);
  }
  for (const check of result.checks) if (!check.ok && check.message !== undefined) lines.push(check.message);
  if (result.checks.some((c) => !c.ok)) {
    const { expected, actual } = sides(result);
    lines.push(`${s.red('- expected')} ${s.green('+ actual')}`);
    lines.push(...renderDiff(diffJson(expected, actual), { removed: s.red, added: s.green }).split('\n'));
  }
  return lines.map((l) => `    ${l}\n`).join('');
}

/** The end of the report: notes, skipped and updated counts, then the summary line alone. */
export function formatSummary(report: TestReport, s: Style): string {
  const lines = ['', ...report.notes];
  if (report.skipped > 0) lines.push(s.yellow(`${report.skipped} skipped`));
  if (report.updated > 0) lines.push(s.cyan(`${report.updated} updated`));
  const broken = brokenHooks(report);
  if (broken.length > 0) {
    const cases = report.results.filter((r) => r.status === 'passed' && r.hookFailures !== undefined).length;
    const passing = cases === 0 ? '' : `; ${cases} passing case${cases === 1 ? '' : 's'} (marked !) passed on the decision alone`;
    lines.push(s.yellow(`${broken.length} hook${broken.length === 1 ? '' : 's'} failed: ${broken.join(', ')}${passing}; fix ${broken.length === 1 ? 'it' : 'them'}, or name the failure in the case's "failed"`));
  }
  const line = summaryLine(report);
  lines.push(report.failed > 0 ? s.red(line) : s.green(line));
  return `${lines.join('\n')}\n`;
}
