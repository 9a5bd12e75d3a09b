// JUnit XML (`--reporter junit`), as CI systems read it: one testsuite per case file, one testcase per case.
import { diffJson, renderDiff } from '../diff.js';
import { showPath } from '../load.js';
import { sides, type TestReport } from '../report.js';
import type { CaseResult } from '../run.js';

export function formatJunit(report: TestReport): string {
  const byFile = new Map<string, CaseResult[]>();
  for (const r of report.results) byFile.set(r.case.file, [...(byFile.get(r.case.file) ?? []), r]);
  const suites = [...byFile].map(([file, results]) => {
    const name = showPath(file, report.cwd);
    const failures = results.filter((r) => r.status === 'failed').length;
    const skipped = results.filter((r) => r.status === 'skipped').length;
    const time = seconds(results.reduce((t, r) => t + r.ms, 0));
    const cases = results.map((r) => testcase(r, name)).join('');
    return `  <testsuite name="${escapeXml(name)}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}">\n${cases}  </testsuite>\n`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="hooks test" tests="${report.results.length}" failures="${report.failed}" errors="0" skipped="${report.skipped}" time="${seconds(report.ms)}">\n` +
    suites.join('') +
    '</testsuites>\n'
  );
}

/**
 * Text safe inside XML attributes and elements: the five special characters escaped, and the
 * characters XML 1.0 cannot hold at all (terminal escapes from hook output, other controls) dropped.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

// --- internal ---

function testcase(r: CaseResult, classname: string): string {
  const open = `    <testcase name="${escapeXml(r.case.name)}" classname="${escapeXml(classname)}" time="${seconds(r.ms)}"`;
  if (r.status === 'skipped') return `${open}>\n      <skipped message="${escapeXml(r.note ?? '')}"/>\n    </testcase>\n`;
  // CI shows system-err beside the case: a hook that failed in a passing case is not lost there either.
  const broken = (r.hookFailures ?? []).map((f) => `hook ${f.id} failed (${f.kind}): ${f.message}`).join('\n');
  const err = broken === '' ? '' : `      <system-err>${escapeXml(broken)}</system-err>\n`;
  if (r.status !== 'failed') return err === '' ? `${open}/>\n` : `${open}>\n${err}    </testcase>\n`;
  const messages = [r.note, ...r.checks.filter((c) => !c.ok).map((c) => c.message)].filter((m): m is string => m !== undefined);
  const { expected, actual } = sides(r);
  const body = r.checks.some((c) => !c.ok) ? `${messages.join('\n')}\n${renderDiff(diffJson(expected, actual))}` : messages.join('\n');
  return `${open}>\n      <failure message="${escapeXml(messages.join('; '))}" type="expectation">${escapeXml(body)}</failure>\n${err}    </testcase>\n`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
