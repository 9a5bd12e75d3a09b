// hooks report and doctor's line through the CLI: which logs are read (default, configured, --log), the
// JSON shape, the flags' mistakes, and colour that never lets a log's escapes through.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, runCli, tmpProject } from '../helpers.js';

const now = Date.now();
function record(fields: Record<string, unknown>, ago = 60_000): string {
  return JSON.stringify({ v: 1, ts: new Date(now - ago).toISOString(), runId: 'r', pid: 1, event: 'preToolUse', tool: 'exec', sessionId: 's1', project: '/p', payloadHash: 'sha256:0', ...fields });
}
const HOSTILE = 'bad\x1b]0;owned\x07\x1b[2J\x1b]8;;https://evil.example\x1b\\link';

/** A project whose config has an audit-log hook writing to .hooks/audit.jsonl, a home with a default log, and an extra log. */
function setup() {
  const home = tmpProject();
  const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ builtin: 'audit-log', options: { path: '.hooks/audit.jsonl' } }] } }) });
  const env = isolatedEnv(home, {}, { trust: dir });
  const defaultLog = path.join(env.XDG_STATE_HOME!, 'agent-hooks', 'audit.jsonl');
  mkdirSync(path.dirname(defaultLog), { recursive: true });
  writeFileSync(defaultLog, `${record({ kind: 'hook', hook: 'no-force-push', outcome: 'block', ms: 41, reason: HOSTILE })}\n${record({ kind: 'event', decision: 'block', decidedBy: 'no-force-push', reason: HOSTILE, ms: 45 })}\n`, { mode: 0o600 });
  mkdirSync(path.join(dir, '.hooks'));
  writeFileSync(path.join(dir, '.hooks', 'audit.jsonl'), `${record({ kind: 'event', decision: 'ask', ms: 3, project: dir })}\nnot json\n`, { mode: 0o600 });
  writeFileSync(path.join(dir, 'extra.jsonl'), `${record({ kind: 'event', decision: 'modify', ms: 3 }, 3 * 86_400_000)}\n`, { mode: 0o600 });
  return { home, dir, env, defaultLog };
}

describe('hooks report', () => {
  it('reads the default log, the configured one and --log, and says so; --json has the documented shape', async () => {
    const { dir, env, defaultLog } = setup();
    const r = await cliInProcess(['report', '--json', '--log', 'extra.jsonl'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(Object.keys(json)).toEqual(['version', 'since', 'until', 'files', 'totals', 'byHook', 'byTool', 'byProject', 'bySession', 'slowest', 'latest', 'overflow', 'partial']);
    expect(json.files.map((f: { path: string; status: string }) => [f.path, f.status])).toEqual([
      [defaultLog, 'read'],
      [path.join(dir, '.hooks', 'audit.jsonl'), 'read'],
      [path.join(dir, 'extra.jsonl'), 'read'],
    ]);
    expect(json.files[1].skipped['not-json']).toBe(1);
    expect(json.totals).toEqual({ events: 3, blocked: 1, asked: 1, rewritten: 1, halted: 0, failed: 0, shadow: 0 });
    expect(json.slowest).toEqual([{ hook: 'no-force-push', count: 1, p50: 41, p95: 41, max: 41 }]);
    // JSON keeps the reason as written (JSON escapes it); only text is made printable.
    expect(json.latest.find((n: { decision: string }) => n.decision === 'block').reason).toBe(HOSTILE);
    // --days 1 leaves out the rewrite three days back.
    const day = JSON.parse((await cliInProcess(['report', '--json', '--days', '1', '--log', 'extra.jsonl'], { cwd: dir, env })).stdout);
    expect(day.totals).toMatchObject({ events: 2, rewritten: 0 });
    expect(day.files[2]).toMatchObject({ records: 0, outside: 1 });
  });

  it('text: aligned tables, and a reason with terminal escapes is shown, not obeyed', async () => {
    const { dir, env } = setup();
    const r = await cliInProcess(['report'], { cwd: dir, env });
    expect(r.stdout).toMatch(/^hooks report: last 7 days \(since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)$/m);
    expect(r.stdout).toContain('2 events, 1 blocked, 1 asked, 0 rewritten, 0 hook failures');
    expect(r.stdout).toContain(`read ${path.join(dir, '.hooks', 'audit.jsonl')} (2 lines; 1 skipped as unreadable: 1 not-json)\n`);
    expect(r.stdout).not.toContain('\x1b');
    expect(r.stdout).toContain('bad\\x1b]0;owned\\x07\\x1b[2J');
  });

  it('mistakes in the flags are one line each', async () => {
    const dir = tmpProject();
    const env = isolatedEnv(tmpProject());
    const err = async (...args: string[]) => (await cliInProcess(['report', ...args], { cwd: dir, env })).stderr;
    expect(await err('--days', '0')).toBe('agent-hooks: --days: expected a whole number of days, 1 or more, got "0"\n');
    expect(await err('--days', '2', '--since', '1d')).toBe('agent-hooks: --days and --since say the same thing: give one\n');
    expect(await err('--since', 'last tuesday')).toBe('agent-hooks: --since: expected a date (2026-11-20), a date-time (2026-11-20T08:00Z) or a duration (12h, 3d, 90m), got "last tuesday"\n');
    expect(await err('--top', 'x')).toBe('agent-hooks: --top: expected a whole number, 1 or more, got "x"\n');
    const none = await cliInProcess(['report', '--since', '12h'], { cwd: dir, env });
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('no audit log to read');
  });

  it('doctor shows the 7-day line, and --json carries it', async () => {
    const { dir, env } = setup();
    const text = await cliInProcess(['doctor'], { cwd: dir, env });
    expect(text.stdout).toContain('\nlast 7 days: 2 events, 1 blocked, 1 asked, 0 rewritten, 0 hook failures (slowest: no-force-push p95 41 ms; 1 unreadable line skipped)\n');
    expect(text.stdout).not.toContain('\x1b');
    const json = JSON.parse((await cliInProcess(['doctor', '--json'], { cwd: dir, env })).stdout);
    expect(json.recent).toMatchObject({ events: 2, blocked: 1, asked: 1, partial: false, slowest: { hook: 'no-force-push', p95: 41 } });
  });

  it('the built CLI with FORCE_COLOR: colours are its own SGR codes only; NO_COLOR: none', () => {
    const { dir, env } = setup();
    const coloured = runCli(['report'], { cwd: dir, env: { ...env, FORCE_COLOR: '1' } });
    expect(coloured.code).toBe(0);
    expect(coloured.stdout).toMatch(/\x1b\[31m/);
    // Take away the colour codes: not one escape is left, so none came from the log.
    expect(coloured.stdout.replace(/\x1b\[[0-9;]*m/g, '')).not.toContain('\x1b');
    const quiet = runCli(['report'], { cwd: dir, env: { ...env, FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(quiet.stdout).not.toContain('\x1b');
  });
});
