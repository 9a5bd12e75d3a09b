// JUnit XML: escaping, and counts per suite.
import { describe, expect, it } from 'vitest';
import { formatJunit, escapeXml } from '../../src/testing/reporters/junit.js';
import { summarize } from '../../src/testing/report.js';
import type { CaseResult } from '../../src/testing/run.js';
import type { TestCase } from '../../src/testing/case.js';

const testCase = (name: string, file = '/p/hooks-tests/a.json'): TestCase => ({
  name,
  file,
  key: '[0]',
  event: { kind: 'sample', sample: 'stop' },
  env: {},
  raw: {},
});

describe('escapeXml', () => {
  it('escapes the five special characters', () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;');
  });

  it('drops characters XML cannot hold (terminal escapes), keeps tabs, newlines and non-ASCII', () => {
    expect(escapeXml('\u001b[31mred\u001b[0m\u0000\tok\n✓ 日本 😀')).toBe('[31mred[0m\tok\n✓ 日本 😀');
  });
});

describe('formatJunit', () => {
  it('one testsuite per file, with the counts, and a failure element with the diff', () => {
    const results: CaseResult[] = [
      { case: testCase('passes <ok>'), status: 'passed', checks: [], ms: 12 },
      {
        case: testCase('fails & "quotes"'),
        status: 'failed',
        checks: [{ field: 'decision', ok: false, expected: 'block', actual: 'allow', message: 'decision: expected block, got allow' }],
        ms: 30,
      },
      { case: testCase('skipped', '/p/hooks-tests/b.json'), status: 'skipped', checks: [], note: 'no hook "x"', ms: 0 },
    ];
    const xml = formatJunit(summarize(results, '/p', 50));
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="hooks test" tests="3" failures="1" errors="0" skipped="1" time="0.050">/);
    expect(xml).toContain('<testsuite name="hooks-tests/a.json" tests="2" failures="1" errors="0" skipped="0" time="0.042">');
    expect(xml).toContain('<testsuite name="hooks-tests/b.json" tests="1" failures="0" errors="0" skipped="1"');
    expect(xml).toContain('<testcase name="passes &lt;ok&gt;" classname="hooks-tests/a.json" time="0.012"/>');
    expect(xml).toContain('<testcase name="fails &amp; &quot;quotes&quot;"');
    expect(xml).toContain('<failure message="decision: expected block, got allow" type="expectation">');
    expect(xml).toContain('-   &quot;decision&quot;: &quot;block&quot;');
    expect(xml).toContain('<skipped message="no hook &quot;x&quot;"/>');
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml.trimEnd().endsWith('</testsuites>')).toBe(true);
  });
});
