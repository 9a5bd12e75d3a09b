// What the server does not judge itself goes to `hooks run` in a process of its own: every event of a project
// whose config is JavaScript (its code never runs in the server), and an event too large to judge on the
// server's one thread (another session's events are not held behind it). The answers are `hooks run`'s.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { JUDGED_HERE, moreValuesThan } from '../../src/serve/answer.js';
import { MAX_HEAVY } from '../../src/serve/elsewhere.js';
import { servePaths } from '../../src/serve/paths.js';
import { fixture, ROOT, tmpProject, trustProject } from '../helpers.js';
import { claudeBash, RUN, serversClosedAfterEach, unframe, type Served } from './kit.js';

// Real processes (a Node start per event sent elsewhere) on a loaded machine: generous, so only a hang fails.
vi.setConfig({ testTimeout: 120_000 });

const started = serversClosedAfterEach();
const JS_FIXTURE = path.join(ROOT, 'test', 'fixtures', 'serve', 'js-config');

/** `hooks run` itself, as a real process, on the same event in the same environment. */
function hooksRun(args: string[], input: string, cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'hooks.js'), 'run', ...args], { input, cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

const client = (s: Served, url: string, body: string, cwd: string) => s.unix(`${url}&client=1`, body, { 'x-hooks-cwd': cwd }).then((r) => unframe(r.body));

describe('a JavaScript config never runs inside the server', () => {
  function jsProject(s: Served): string {
    const dir = tmpProject();
    for (const name of ['hooks.config.mjs', 'patch-server.mjs']) copyFileSync(path.join(JS_FIXTURE, name), path.join(dir, name));
    trustProject(dir, s.env);
    return dir;
  }

  it('its module cannot patch the server: another project is still denied, and nothing of it is in this process', async () => {
    const s = await started();
    const js = jsProject(s);
    const other = tmpProject();
    const end = http.ServerResponse.prototype.end;
    const stringify = JSON.stringify;
    // The JS project's event first: were it imported here, its patch would be in place for the next one.
    const first = await client(s, RUN, claudeBash('where am i', js), js);
    expect(first.code).toBe(0);
    // It was imported, in a process other than the server (the `hooks run` its event went to).
    const importedBy = Number(readFileSync(path.join(js, 'imported-by'), 'utf8'));
    expect(importedBy).toBeGreaterThan(0);
    expect(importedBy).not.toBe(process.pid);
    expect(Number(readFileSync(path.join(js, 'ran-under'), 'utf8'))).toBe(importedBy);
    // Another project's deny is a deny, over both transports.
    const denied = await client(s, RUN, claudeBash('rm -rf /', other), other);
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    const overHttp = await s.tcp(RUN, claudeBash('rm -rf /', other));
    expect(JSON.parse(overHttp.body).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(http.ServerResponse.prototype.end).toBe(end);
    expect(JSON.stringify).toBe(stringify);
    expect((globalThis as { agentHooksPatchedBy?: number }).agentHooksPatchedBy).toBeUndefined();
  });

  it("its project's events are answered as hooks run answers them, and the log and the agent are told once", async () => {
    const s = await started();
    const js = jsProject(s);
    const body = claudeBash('where now', js);
    const cli = hooksRun(['pre-tool-use', '--dialect', 'claude-code'], body, js, s.env);
    const first = await client(s, RUN, body, js);
    const second = await client(s, RUN, body, js);
    expect(second).toEqual({ stdout: cli.stdout, stderr: cli.stderr, code: cli.code });
    const note = `agent-hooks: ${path.join(js, 'hooks.config.mjs')}: a JavaScript config never runs inside the server`;
    expect(first.stderr.startsWith(note)).toBe(true);
    expect(first.stdout).toBe(cli.stdout);
    expect(second.stderr).not.toContain('never runs inside the server');
    expect(s.logs.filter((l) => l.includes('never runs inside the server'))).toHaveLength(1);
    // The patch holds in its own `hooks run` as it would without the server: that project's deny is `{}` there too.
    const deny = claudeBash('rm -rf /', js);
    expect(await client(s, RUN, deny, js)).toEqual((({ stdout, stderr, code }) => ({ stdout, stderr, code }))(hooksRun(['pre-tool-use', '--dialect', 'claude-code'], deny, js, s.env)));
  });

  it('an untrusted JS config is not imported anywhere: the server answers as hooks run does, with the trust notice', async () => {
    const s = await started();
    const js = tmpProject();
    for (const name of ['hooks.config.mjs', 'patch-server.mjs']) copyFileSync(path.join(JS_FIXTURE, name), path.join(js, name));
    const body = claudeBash('where now', js);
    const served = await client(s, RUN, body, js);
    expect(served).toEqual(hooksRun(['pre-tool-use', '--dialect', 'claude-code'], body, js, s.env));
    expect(served.stdout).toContain('is not trusted');
    expect(() => readFileSync(path.join(js, 'imported-by'))).toThrow();
  });

  it('an event or dialect that is not a name never reaches hooks run as an argument (no --config from a URL)', async () => {
    const s = await started();
    const dir = tmpProject();
    // Past the byte bound: sent to hooks run before the server reads anything of it.
    const heavy = claudeBash('ls', dir, { pad: 'x'.repeat(JUDGED_HERE.bytes) });
    const served = await client(s, '/v1/run?event=--config=/etc/passwd&dialect=claude-code', heavy, dir);
    expect(served).toEqual({ stdout: '', stderr: 'agent-hooks: event "--config=/etc/passwd": not an event or dialect name\n', code: 1 });
    const dialect = await client(s, '/v1/run?event=pre-tool-use&dialect=-c', heavy, dir);
    expect(dialect.stderr).toBe('agent-hooks: dialect "-c": not an event or dialect name\n');
  });
});

/** How many values `moreValuesThan` counts in `value`: itself, and every item and key's value within. */
function count(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  return 1 + (Array.isArray(value) ? value : Object.values(value)).reduce((n: number, v) => n + count(v), 0);
}

describe('an event too large to judge on the server thread', () => {
  it('moreValuesThan counts as a plain recursive count does (any JSON value, any bound)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.nat(200), (value, max) => moreValuesThan(value, max) === count(value) > max),
      { seed: 22, numRuns: 500, interruptAfterTimeLimit: 10_000 },
    );
    // Deeper than any stack: iterative.
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(moreValuesThan(deep, 200_000)).toBe(false);
    expect(moreValuesThan(deep, 99_999)).toBe(true);
  });

  it('up to the bounds it is judged in the server; one value or one byte past them, by hooks run in a process of its own', async () => {
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'where', match: 'Bash', command: 'echo "$PPID" > ran-under' }] } }) });
    const s = await started();
    trustProject(project, s.env);
    const ranUnder = async (body: string) => {
      const answer = await client(s, RUN, body, project);
      expect(answer.code).toBe(0);
      return Number(readFileSync(path.join(project, 'ran-under'), 'utf8'));
    };
    // By values: the event padded with numbers to exactly the bound, then one more.
    const withValues = (n: number) => {
      const base = JSON.parse(claudeBash('ls', project)) as { tool_input: Record<string, unknown> };
      base.tool_input.pad = [];
      const pad = n - count(base);
      base.tool_input.pad = Array.from({ length: pad }, (_, i) => i);
      expect(count(base)).toBe(n);
      return JSON.stringify(base);
    };
    expect(await ranUnder(withValues(JUDGED_HERE.values))).toBe(process.pid);
    const elsewhere = await ranUnder(withValues(JUDGED_HERE.values + 1));
    expect(elsewhere).not.toBe(process.pid);
    // By bytes: a long string to exactly the bound, then one byte more.
    const withBytes = (n: number) => {
      const base = claudeBash('ls', project, { pad: '' });
      const body = claudeBash('ls', project, { pad: 'x'.repeat(n - Buffer.byteLength(base)) });
      expect(Buffer.byteLength(body)).toBe(n);
      return body;
    };
    expect(await ranUnder(withBytes(JUDGED_HERE.bytes))).toBe(process.pid);
    expect(await ranUnder(withBytes(JUDGED_HERE.bytes + 1))).not.toBe(process.pid);
  });

  it(`at most ${MAX_HEAVY} such events are judged at once; the others wait their turn`, async () => {
    const marker = path.join(tmpProject(), 'runs');
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'slow', command: fixture('bash', 'sleep-then'), env: { SLEEP: '1.5', MARKER_FILE: marker, NAME: 'run' } }] } }) });
    const s = await started();
    trustProject(project, s.env);
    const heavy = claudeBash('ls', project, { pad: 'x'.repeat(JUDGED_HERE.bytes) });
    const answers = await Promise.all(Array.from({ length: MAX_HEAVY + 1 }, () => client(s, RUN, heavy, project)));
    expect(answers.map((a) => a.code)).toEqual(Array(MAX_HEAVY + 1).fill(0));
    // Each line: name, start and end (ns). The most that overlap at any start is the cap.
    const runs = readFileSync(marker, 'utf8').trim().split('\n').map((l) => l.split(' ').slice(1).map(Number) as [number, number]);
    expect(runs).toHaveLength(MAX_HEAVY + 1);
    const overlap = Math.max(...runs.map(([start]) => runs.filter(([a, b]) => a <= start && start < b).length));
    expect(overlap).toBeLessThanOrEqual(MAX_HEAVY);
    // The last to start waited for one of the others to end.
    expect(Math.max(...runs.map(([start]) => start))).toBeGreaterThanOrEqual(Math.min(...runs.map(([, end]) => end)));
  });

  it('an agent that gives up on an event sent to hooks run gets that run and its hooks killed', async () => {
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'slow', command: 'echo started > started; sleep 3; echo done > finished' }] } }) });
    const s = await started();
    trustProject(project, s.env);
    const req = http.request({ socketPath: servePaths(s.env).socket, path: `${RUN}&client=1`, method: 'POST', headers: { host: 'localhost', authorization: `Bearer ${s.token}` } });
    req.on('error', () => {});
    req.end(claudeBash('ls', project, { pad: 'x'.repeat(JUDGED_HERE.bytes) }));
    // Given up only once the hook runs (under hooks run: a Node start first).
    for (let i = 0; i < 400 && !existsSync(path.join(project, 'started')); i++) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(path.join(project, 'started'))).toBe(true);
    req.destroy();
    await new Promise((r) => setTimeout(r, 4_500));
    expect(existsSync(path.join(project, 'finished'))).toBe(false);
    expect(s.server.stats().inFlight).toBe(0);
  });

  it("a huge PostToolUse is answered as hooks run answers it, and another session's events are answered meanwhile", async () => {
    const s = await started();
    const project = tmpProject();
    // 50,000 keys (about 900 KB, well past JUDGED_HERE): the default guards (redact-secrets) take many times
    // a small event's answer on it; one value is a secret.
    const response: Record<string, string> = {};
    for (let i = 0; i < 50_000; i++) response[`k${i}`] = `line ${i}`;
    response.k777 = `token ghp_${'a7Xq'.repeat(9)}`;
    const huge = JSON.stringify({ session_id: 'big', hook_event_name: 'PostToolUse', cwd: project, tool_name: 'Bash', tool_input: { command: 'cat' }, tool_response: response, tool_use_id: 't' });
    const url = '/v1/run?event=post-tool-use&dialect=claude-code';
    let hugeDoneAt: number | undefined;
    const hugeStartedAt = performance.now();
    const hugeAnswer = client(s, url, huge, project).then((a) => {
      hugeDoneAt = performance.now();
      return a;
    });
    // Another session's small events, one after the other, while the huge one is judged.
    const small: { at: number; ms: number }[] = [];
    await new Promise((r) => setTimeout(r, 300));
    while (hugeDoneAt === undefined && small.length < 2_000) {
      const t = performance.now();
      const a = await client(s, RUN, claudeBash('rm -rf /', project, { session_id: 'small' }), project);
      expect(JSON.parse(a.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
      small.push({ at: performance.now(), ms: performance.now() - t });
    }
    const answered = await hugeAnswer;
    // Answered before the huge one was, several of them, and the typical one in a fraction of the time the huge
    // one took (the median, as a ratio in the same run: load slows both, and stalls a client now and then).
    expect(small.length).toBeGreaterThan(3);
    expect(small[0]!.at).toBeLessThan(hugeDoneAt!);
    const median = small.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(small.length / 2)]!;
    expect(median).toBeLessThan((hugeDoneAt! - hugeStartedAt) / 4);
    // The documented outcome: hooks run's own answer (the secret redacted).
    expect(answered).toEqual(hooksRun(['post-tool-use', '--dialect', 'claude-code'], huge, project, s.env));
    expect(answered.stdout).not.toContain(`ghp_${'a7Xq'.repeat(9)}`);
    expect(answered.stdout.length).toBeGreaterThan(JUDGED_HERE.bytes);
  });
});
