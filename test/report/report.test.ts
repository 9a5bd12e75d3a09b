// hooks report's core on real audit logs (written by the audit-log guard through the engine, with real hook
// processes) and on hostile ones: torn, planted, oversized, and full of terminal escapes.
import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { recentActivity } from '../../src/doctor/activity.js';
import { formatReport, summaryLine } from '../../src/report/format.js';
import { openLog } from '../../src/report/lines.js';
import { printable } from '../../src/report/printable.js';
import { buildReport, type Report } from '../../src/report/report.js';
import { MAX_KEYS, OTHER } from '../../src/report/tally.js';
import { bash, fixture, isolatedEnv, runnerWith, tmpProject } from '../helpers.js';

const plain = { bold: (t: string) => t, dim: (t: string) => t, red: (t: string) => t, yellow: (t: string) => t, cyan: (t: string) => t, magenta: (t: string) => t };
const DAY = 86_400_000;
const now = new Date();
const lastDay = { since: new Date(now.getTime() - DAY), now };

/** A v1 record as the guard writes it, `ago` ms before now. */
function record(fields: Record<string, unknown>, ago = 60_000): string {
  return JSON.stringify({ v: 1, ts: new Date(now.getTime() - ago).toISOString(), runId: 'r', pid: 1, event: 'preToolUse', tool: 'exec', toolName: 'Bash', sessionId: 's1', project: '/p', payloadHash: 'sha256:0', ...fields });
}
const hook = (id: string, outcome: string, ms: number, extra: Record<string, unknown> = {}, ago?: number) => record({ kind: 'hook', hook: id, source: { layer: 'project', key: 'hooks.preToolUse[0]' }, outcome, ms, ...extra }, ago);
const event = (decision: string, extra: Record<string, unknown> = {}, ago?: number) => record({ kind: 'event', decision, hooks: 1, ms: 5, ...extra }, ago);

function logFile(lines: string[], name = 'audit.jsonl'): string {
  const file = path.join(tmpProject(), name);
  writeFileSync(file, lines.map((l) => `${l}\n`).join(''), { mode: 0o600 });
  return file;
}

describe('a real audit log, written by the guard through the engine', () => {
  let report: Report;
  const log = path.join(tmpProject(), 'logs', 'audit.jsonl');
  const projects: string[] = [];
  beforeAll(async () => {
    const audit = { builtin: 'audit-log', options: { path: log } };
    const blocking = await runnerWith({ hooks: { preToolUse: [{ id: 'no-force-push', command: fixture('bash'), env: { MODE: 'block-exit2' } }, audit] } });
    const rewriting = await runnerWith({ hooks: { preToolUse: [{ id: 'rewriter', command: fixture('bash'), env: { MODE: 'modify-input' } }, { id: 'broken', command: fixture('bash'), env: { MODE: 'exit1' } }, audit] } });
    const asking = await runnerWith({ hooks: { preToolUse: [{ id: 'asker', command: fixture('python'), env: { MODE: 'ask-json' } }, audit] } });
    expect((await blocking.run(bash('git push --force'))).decision).toBe('block');
    expect((await blocking.run(bash('git push -f', {}))).decision).toBe('block');
    expect((await rewriting.run(bash('make deploy'))).decision).toBe('modify');
    expect((await asking.run(bash('rm build.log'))).decision).toBe('ask');
    for (const r of [blocking, rewriting, asking]) projects.push(r.config.projectDir);
    report = buildReport([{ path: log }], lastDay);
  });

  it('counts events, blocks, asks, rewrites and failures', () => {
    expect(report.files).toEqual([expect.objectContaining({ path: log, status: 'read', lines: 9, records: 9, outside: 0 })]);
    expect(report.totals).toEqual({ events: 4, blocked: 2, asked: 1, rewritten: 1, halted: 0, failed: 1, shadow: 0 });
  });

  it('by hook, tool, project and session', () => {
    const byHook = Object.fromEntries(report.byHook.map((r) => [r.key, r]));
    expect(byHook['no-force-push']).toMatchObject({ events: 2, blocked: 2 });
    expect(byHook.rewriter).toMatchObject({ events: 1, rewritten: 1, failed: 0 });
    expect(byHook.broken).toMatchObject({ events: 1, failed: 1, blocked: 0 });
    expect(byHook.asker).toMatchObject({ events: 1, asked: 1 });
    // Busiest first: the two blocks lead.
    expect(report.byHook[0]!.key).toBe('no-force-push');
    expect(report.byTool).toEqual([expect.objectContaining({ key: 'exec', events: 4, blocked: 2, failed: 1 })]);
    expect(report.byProject.map((r) => r.key).sort()).toEqual([...projects].sort());
    expect(report.byProject.find((r) => r.key === projects[0])).toMatchObject({ events: 2, blocked: 2 });
    expect(report.bySession).toEqual([expect.objectContaining({ key: 'test-session', events: 4 })]);
  });

  it('times every hook, and keeps the latest decisions with their reasons', () => {
    expect(report.slowest.map((t) => t.hook).sort()).toEqual(['asker', 'broken', 'no-force-push', 'rewriter']);
    for (const t of report.slowest) {
      expect(t.p50).toBeGreaterThan(0);
      expect(t.p50 <= t.p95 && t.p95 <= t.max).toBe(true);
    }
    expect(report.latest.map((n) => n.decision).sort()).toEqual(['ask', 'block', 'block', 'modify']);
    expect(report.latest.find((n) => n.decision === 'block')).toMatchObject({ decidedBy: 'no-force-push', tool: 'exec', reason: 'blocked by bash' });
    const text = formatReport(report, { window: 'last day', top: 10 }, plain);
    expect(text).toContain('4 events, 2 blocked, 1 asked, 1 rewritten, 1 hook failure\n');
    expect(text).toMatch(/^ {2}hook +runs +blocked +asked +rewritten +failed$/m);
    expect(text).toMatch(/^ {2}no-force-push +2 +2 +0 +0 +0$/m);
  });
});

describe('untrusted lines', () => {
  it('torn, empty, unknown-version, non-record and over-long lines are counted, never a crash', () => {
    const file = logFile([
      hook('a', 'block', 3),
      '{"v":1,"ts":"2026-11-2',
      '',
      JSON.stringify({ v: 2, ts: now.toISOString(), kind: 'hook', hook: 'future' }),
      '"just a string"',
      record({ kind: 'hook', hook: 'x'.repeat(2 * 1024 * 1024), outcome: 'block', ms: 1 }),
      event('block'),
    ]);
    const r = buildReport([{ path: file }], lastDay);
    expect(r.files[0]).toMatchObject({ lines: 7, records: 2, skipped: { empty: 1, 'not-json': 1, 'unknown-version': 1, 'not-a-record': 1, 'too-long': 1 } });
    expect(r.totals).toMatchObject({ events: 1, blocked: 1 });
    expect(formatReport(r, { window: 'last day', top: 10 }, plain)).toContain(`read ${file} (7 lines; 4 skipped as unreadable: 1 too-long, 1 not-json, 1 not-a-record, 1 unknown-version; 1 empty line)`);
  });

  it('terminal escapes in any string of the log reach the text as visible escapes, never as control characters', () => {
    const hostile = 'ok\x1b[2J\x1b[1;1H\x1b]0;pwned\x07\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ \u009b31m \u202egnp.exe\r\nforged line';
    const file = logFile([
      hook(hostile, 'block', 2, { reason: hostile }),
      event('block', { decidedBy: hostile, reason: hostile, tool: hostile, project: hostile, sessionId: hostile }),
    ]);
    const text = formatReport(buildReport([{ path: file }], lastDay), { window: 'last day', top: 10 }, plain);
    // Not one control character other than the newlines the report itself writes.
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u);
    expect(text).toContain('ok\\x1b[2J\\x1b[1;1H\\x1b]0;pwned\\x07');
    expect(text).toContain('\\u202egnp.exe\\x0d\\x0aforged line');
    // The forged line stays inside the line that quotes it.
    expect(text.split('\n').filter((l) => l.startsWith('forged line'))).toEqual([]);
    expect(printable('tab\there')).toBe('tab\\x09here');
  });

  it('a decision or outcome named after an Object property (constructor, __proto__, toString) is no decision: not counted, not listed', () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
    const file = logFile([...names.map((n) => event(n)), ...names.map((n) => hook('h', n, 1, { wouldHave: n })), event('block')]);
    const report = buildReport([{ path: file }], lastDay);
    expect(report.totals).toEqual({ events: names.length + 1, blocked: 1, asked: 0, rewritten: 0, halted: 0, failed: 0, shadow: 0 });
    expect(report.latest.map((n) => n.decision)).toEqual(['block']);
    const h = report.byHook.find((r) => r.key === 'h')!;
    expect(Object.keys(h).sort()).toEqual(['asked', 'blocked', 'events', 'failed', 'halted', 'key', 'rewritten', 'shadow']);
    expect(h).toMatchObject({ events: names.length, blocked: 0, shadow: 0 });
  });

  it('a planted symlink, a FIFO, a symlinked folder inside the project: refused with the reason, and nothing hangs', () => {
    const dir = tmpProject();
    const real = logFile([event('block')]);
    symlinkSync(real, path.join(dir, 'link.jsonl'));
    spawnSync('mkfifo', [path.join(dir, 'fifo.jsonl')]);
    const elsewhere = tmpProject({ 'audit.jsonl': `${event('block')}\n` });
    symlinkSync(elsewhere, path.join(dir, '.hooks'));
    expect(openLog(path.join(dir, 'link.jsonl'))).toEqual({ refused: 'it is a symbolic link' });
    expect(openLog(path.join(dir, 'fifo.jsonl'))).toEqual({ refused: 'it is not a regular file' });
    expect(openLog(path.join(dir, '.hooks', 'audit.jsonl'), dir)).toEqual({ refused: `${path.join(dir, '.hooks')} is a symbolic link` });
    expect(openLog(path.join(dir, 'none.jsonl'))).toEqual({ missing: true });
    const r = buildReport([{ path: path.join(dir, 'link.jsonl') }, { path: path.join(dir, 'fifo.jsonl') }, { path: path.join(dir, 'none.jsonl') }], lastDay);
    expect(r.files.map((f) => f.status)).toEqual(['refused', 'refused', 'missing']);
    expect(r.totals.events).toBe(0);
    const text = formatReport(r, { window: 'last day', top: 10 }, plain);
    expect(text).toContain(`refused ${path.join(dir, 'link.jsonl')}: it is a symbolic link`);
    expect(text).toContain('no audit log to read');
  });

  it.skipIf(process.getuid?.() !== 0)("another user's file is refused, and a file named twice is read once (runs as root, to chown)", () => {
    const file = logFile([event('block')]);
    const other = logFile([event('block')]);
    chownSync(other, 65534, 65534);
    expect(openLog(other)).toEqual({ refused: `it is owned by uid 65534, not by you (uid ${process.getuid!()})` });
    const r = buildReport([{ path: file }, { path: other }, { path: file }], lastDay);
    expect(r.files.map((f) => f.status)).toEqual(['read', 'refused']);
    expect(r.totals.blocked).toBe(1);
  });

  it('too many distinct sessions: the rest count under "(other)", memory stays bounded', () => {
    const lines = Array.from({ length: MAX_KEYS + 50 }, (_, i) => event('continue', { sessionId: `s-${i}` }));
    const r = buildReport([{ path: logFile(lines) }], lastDay);
    expect(r.bySession.length).toBe(MAX_KEYS + 1);
    expect(r.bySession.find((row) => row.key === OTHER)?.events).toBe(50);
    expect(r.overflow).toBe(50);
    expect(r.totals.events).toBe(MAX_KEYS + 50);
  });
});

describe('the window and the timings', () => {
  it('records before the window are counted as outside it; --since by date works on any order of lines', () => {
    const file = logFile([event('block', {}, 3 * DAY), event('ask', {}, 60_000), event('block', {}, 10 * DAY)]);
    const r = buildReport([{ path: file }], lastDay);
    expect(r.files[0]).toMatchObject({ records: 1, outside: 2 });
    expect(r.totals).toMatchObject({ events: 1, asked: 1, blocked: 0 });
    expect(buildReport([{ path: file }], { since: new Date(now.getTime() - 7 * DAY), now }).totals).toMatchObject({ events: 2, blocked: 1 });
  });

  it('lines older than the window, passed over unparsed, are exactly the records a full read finds older', () => {
    const file = path.join(tmpProject(), 'dates.jsonl');
    const when = fc.date({ min: new Date(now.getTime() - 3 * DAY), max: new Date(now.getTime() + DAY), noInvalidDate: true });
    fc.assert(
      fc.property(fc.array(fc.tuple(when, fc.boolean()), { maxLength: 30 }), when, (dates, since) => {
        // Half the lines as the guard writes them (the fast path), half with the keys in another order (parsed whole).
        const lines = dates.map(([d, guardOrder]) => (guardOrder ? JSON.stringify({ v: 1, ts: d.toISOString(), event: 'stop', kind: 'event', decision: 'block' }) : JSON.stringify({ kind: 'event', decision: 'block', event: 'stop', ts: d.toISOString(), v: 1 })));
        writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
        const r = buildReport([{ path: file }], { since, now });
        const inside = dates.filter(([d]) => d.getTime() >= since.getTime()).length;
        expect(r.files[0]).toMatchObject({ records: inside, outside: dates.length - inside });
        expect(r.totals.blocked).toBe(inside);
      }),
      { seed: 2628, numRuns: 150, interruptAfterTimeLimit: 5_000 },
    );
  });

  it('p50, p95 and max: exact below 100 ms, within 1% above', () => {
    const lines = [...Array.from({ length: 100 }, (_, i) => hook('fast', 'continue', i + 1)), ...Array.from({ length: 100 }, (_, i) => hook('slow', 'continue', (i + 1) * 1000))];
    const r = buildReport([{ path: logFile(lines) }], lastDay);
    expect(r.slowest[0]).toMatchObject({ hook: 'slow', count: 100, max: 100_000 });
    expect(Math.abs(r.slowest[0]!.p50 - 50_000) / 50_000).toBeLessThan(0.011);
    expect(Math.abs(r.slowest[0]!.p95 - 95_000) / 95_000).toBeLessThan(0.011);
    expect(r.slowest[1]).toEqual({ hook: 'fast', count: 100, p50: 50, p95: 95, max: 100 });
  });
});

describe("doctor's line", () => {
  it('reads only the end of a big log, and says when the window may reach further back', () => {
    const home = tmpProject();
    const env = isolatedEnv(home);
    const log = path.join(env.XDG_STATE_HOME!, 'agent-hooks', 'audit.jsonl');
    mkdirSync(path.dirname(log), { recursive: true });
    const recent = Array.from({ length: 2000 }, (_, i) => `${hook('no-force-push', i % 10 === 0 ? 'block' : 'continue', 40)}\n${event(i % 10 === 0 ? 'block' : 'continue')}\n`).join('');
    writeFileSync(log, recent, { mode: 0o600 });
    const whole = recentActivity(undefined, env, now);
    expect(whole.report!.partial).toBe(false);
    expect(whole.line).toBe('last 7 days: 2,000 events, 200 blocked, 0 asked, 0 rewritten, 0 hook failures (slowest: no-force-push p95 40 ms)');
    const tail = recentActivity(undefined, env, now, 64 * 1024);
    expect(tail.report!.partial).toBe(true);
    expect(tail.report!.files[0]!.bytesRead).toBeLessThanOrEqual(64 * 1024);
    expect(tail.report!.totals.events).toBeLessThan(2000);
    expect(tail.line).toMatch(/; partial: only the end of a big log was read; "hooks report" reads it all\)$/);
    // A tail that reaches a record older than the window holds the whole window: not partial.
    writeFileSync(log, `${event('block', {}, 30 * DAY)}\n`.repeat(5000) + `${event('block')}\n`, { mode: 0o600 });
    const old = recentActivity(undefined, env, now, 64 * 1024);
    expect(old.report!.partial).toBe(false);
    expect(old.report!.totals).toMatchObject({ events: 1, blocked: 1 });
  });

  it('no log: says where to start', () => {
    const r = buildReport([{ path: path.join(tmpProject(), 'none.jsonl') }], lastDay);
    expect(summaryLine(r, 'last 7 days')).toBe('last 7 days: no audit log found (the audit-log guard records events: docs/guards/audit-log.md)');
  });
});
