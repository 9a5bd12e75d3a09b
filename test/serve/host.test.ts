// The server's hook host on real processes: every way a hook can end comes back exactly as it does when the
// hook is spawned in this process, and every way the host itself can end is a value, with no hook left behind.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProcessEnd } from '../../src/reply/interpret.js';
import { MAX_TIMER_MS } from '../../src/run/duration.js';
import { OUTPUT_LIMITS, runProcess, type ProcessSpec } from '../../src/run/process.js';
import { HOST_INPUT_LIMIT, hookHost, type HookHost } from '../../src/serve/host.js';
import { servePaths } from '../../src/serve/paths.js';
import { FIXTURES, ROOT, isolatedEnv, runCli, tmpProject, trustProject } from '../helpers.js';
import { alive, base, gone, pidReader, until, written } from '../run/kit.js';
import { HOST_ENTRY, RUN, claudeBash, serversClosedAfterEach } from './kit.js';

// Real processes on a loaded machine: generous, so only a real hang fails.
vi.setConfig({ testTimeout: 60_000 });

const readPid = pidReader();
const serve = serversClosedAfterEach();
const logs: string[] = [];
let host: HookHost;

beforeAll(() => {
  expect(existsSync(HOST_ENTRY), `${HOST_ENTRY} is missing: npm test builds it first`).toBe(true);
  host = hookHost({ entry: HOST_ENTRY, log: (line) => logs.push(line) });
});
afterAll(() => host.close());

/** Bytes as Buffers, so an end from either side compares by content. */
function plain(end: ProcessEnd): ProcessEnd {
  return end.kind === 'exited' ? { ...end, stdout: Buffer.from(end.stdout), stderr: Buffer.from(end.stderr) } : end;
}

describe('a hook run by the host ends as it does when spawned here', () => {
  const cases: [string, Partial<ProcessSpec>][] = [
    ['exit 0 with a JSON reply', { command: `printf '{"decision":"modify","updatedInput":{"command":"ls"}}'` }],
    ['exit 2 with a reason on stderr', { command: 'echo "no, not that" >&2; exit 2' }],
    ['exit 1', { command: 'echo oops >&2; exit 1' }],
    ['stdout that is not UTF-8', { command: "printf '\\377\\376x'" }],
    ['its stdin, byte for byte', { command: 'cat', input: Buffer.from('h\u00e9llo \u2713 \u0000 and a NUL') }],
    ['a timeout', { command: 'sleep 5', timeoutMs: 300 }],
    ['a program that does not exist', { command: 'agent-hooks-no-such-program', args: [] }],
    ['killed by a signal', { command: 'kill -9 $$' }],
    ['stdout past its limit', { command: `head -c ${OUTPUT_LIMITS.stdout + 10} /dev/zero` }],
    ['the environment it was given', { command: 'printf %s "$HOST_TEST_VALUE"', env: { ...process.env, HOST_TEST_VALUE: 'from the spec' } }],
    ['its working folder', { command: 'pwd' }],
    ['the exec form, no shell', { command: 'printf', args: ['%s|', 'a b', '$HOME'] }],
  ];
  it.each(cases)('%s', async (_name, given) => {
    const spec = { ...base(tmpProject()), timeoutMs: 10_000, ...given } as ProcessSpec;
    const [here, there] = await Promise.all([runProcess(spec), host.runProcess(spec)]);
    expect(plain(there)).toEqual(plain(here));
    if (there.kind === 'exited') expect(Buffer.isBuffer(there.stdout) && Buffer.isBuffer(there.stderr)).toBe(true);
  });
});

describe('cancelled, killed, missing: values, and nothing left running', () => {
  it('a cancelled run kills the hook and what it started, and comes back cancelled', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'child.pid');
    const controller = new AbortController();
    const ended = host.runProcess({ ...base(dir, { PID_FILE: pidFile }), command: path.join(FIXTURES, 'leaves-term-ignoring-child.sh'), args: [], timeoutMs: 30_000, signal: controller.signal });
    await until(() => written(pidFile));
    controller.abort();
    expect(await ended).toEqual({ kind: 'cancelled' });
    expect(await gone(readPid(pidFile))).toBe(true);
  });

  it('a host killed while a hook runs: the hook fails as an error, its tree is killed, the next hook gets a new host', async () => {
    const own = hookHost({ entry: HOST_ENTRY, log: (line) => logs.push(line) });
    const dir = tmpProject();
    const pidFile = path.join(dir, 'child.pid');
    const ended = own.runProcess({ ...base(dir, { PID_FILE: pidFile }), command: 'sleep 30 & echo $! > "$PID_FILE"; wait', timeoutMs: 60_000 });
    await until(() => written(pidFile));
    const first = own.pid()!;
    // Past the moment between the spawn and its listing with the watchdog (the documented gap; longer on a loaded machine).
    await new Promise((r) => setTimeout(r, 500));
    process.kill(first, 'SIGKILL');
    expect(await ended).toMatchObject({ kind: 'error', message: expect.stringMatching(/hook host exited \(SIGKILL\) while this hook ran/) });
    // The host's watchdog outlives it and kills what it left.
    expect(await gone(readPid(pidFile))).toBe(true);
    expect(logs.some((l) => l.includes(`(pid ${first}) exited (SIGKILL) with 1 hook(s) running`))).toBe(true);
    expect(await own.runProcess({ ...base(dir), command: 'echo again', timeoutMs: 5_000 })).toMatchObject({ kind: 'exited', exitCode: 0 });
    expect(own.pid()).not.toBe(first);
    await own.close();
    expect(own.pid()).toBeUndefined();
  });

  it("a hook with the longest timeout a timer takes is not cut short by the server's own wait for the host", async () => {
    const end = await host.runProcess({ ...base(tmpProject()), command: 'sleep 0.3; echo done', timeoutMs: MAX_TIMER_MS });
    expect(plain(end)).toMatchObject({ kind: 'exited', exitCode: 0, stdout: Buffer.from('done\n') });
  });

  it('a host grown past its memory limit is let go once idle, and the next hook gets a fresh one', async () => {
    const spec = { ...base(tmpProject()), command: 'echo $PPID', timeoutMs: 5_000 };
    const parent = async (h: HookHost) => {
      const end = await h.runProcess(spec);
      return end.kind === 'exited' ? Number(Buffer.from(end.stdout).toString().trim()) : -1;
    };
    const small = hookHost({ entry: HOST_ENTRY, log: (line) => logs.push(line), memoryLimit: 1 });
    const first = await parent(small);
    const second = await parent(small);
    expect(first).toBeGreaterThan(0);
    expect(second).not.toBe(first);
    expect(await gone(first)).toBe(true);
    // Let go right after its answer: close waits for it all the same.
    const last = await parent(small);
    await small.close();
    expect(alive(last)).toBe(false);
    // With room to spare, one host serves them all.
    expect(await parent(host)).toBe(await parent(host));
  });

  it('with no host to start, hooks are spawned by the server itself, and the log says so', async () => {
    const lines: string[] = [];
    const none = hookHost({ entry: path.join(tmpProject(), 'no-host.js'), log: (line) => lines.push(line) });
    const end = await none.runProcess({ ...base(tmpProject()), command: 'echo $PPID', timeoutMs: 5_000 });
    expect(end.kind === 'exited' && Number(Buffer.from(end.stdout).toString().trim())).toBe(process.pid);
    expect(lines).toEqual([expect.stringMatching(/^hook host unavailable \(.*no-host\.js is missing\): command hooks are spawned from the server itself$/)]);
    expect(none.pid()).toBeUndefined();
  });
});

describe('when the host itself is what fails, hooks are spawned from the server', () => {
  /** A host file of a test's own making, for a host that fails the way a broken build or a bug would. */
  const fakeHost = (code: string) => {
    const file = path.join(tmpProject(), 'host.cjs');
    writeFileSync(file, code);
    return file;
  };
  /** Who spawned the hook (the hook prints its parent's pid). */
  const parentOf = async (h: HookHost, input: string | Buffer = '{}') => {
    const end = await h.runProcess({ ...base(tmpProject()), input, command: 'cat >/dev/null; echo $PPID', timeoutMs: 10_000 });
    return end.kind === 'exited' ? Number(Buffer.from(end.stdout).toString().trim()) : end;
  };

  it('a host that dies before it is ready has run nothing: its hooks run in the server, and so do the next', async () => {
    const lines: string[] = [];
    const h = hookHost({ entry: fakeHost('process.exit(1); // as a broken build would'), log: (line) => lines.push(line) });
    expect(await Promise.all([parentOf(h), parentOf(h)])).toEqual([process.pid, process.pid]);
    expect(await parentOf(h)).toBe(process.pid);
    expect(lines).toEqual([expect.stringMatching(/^hook host unavailable \(it exited \(code 1\) before it was ready\): command hooks are spawned from the server itself$/)]);
  });

  it('three hosts in a row that die on their first hook: those hooks fail, and the server stops starting hosts', async () => {
    const lines: string[] = [];
    const h = hookHost({ entry: fakeHost("process.send({ ready: true }); process.on('message', () => process.exit(7));"), log: (line) => lines.push(line) });
    for (let i = 0; i < 3; i++) expect(await parentOf(h)).toMatchObject({ kind: 'error', message: expect.stringContaining('exited (code 7) while this hook ran') });
    expect(await parentOf(h)).toBe(process.pid);
    expect(lines.at(-1)).toMatch(/^hook host unavailable \(3 hosts in a row died without answering\)/);
  });

  it('a host that let go of its channel but has not exited yet: a hook that cannot be delivered runs in the server', async () => {
    const h = hookHost({ entry: fakeHost("process.send({ ready: true }); process.disconnect(); setTimeout(() => {}, 3000);"), log: () => {} });
    // The first hook starts the host (and may reach it before it lets go: it is not what is tested here).
    void parentOf(h);
    await until(() => h.pid() !== undefined);
    await new Promise((r) => setTimeout(r, 500));
    const hostPid = h.pid();
    expect(hostPid).toBeGreaterThan(0);
    expect(await parentOf(h)).toBe(process.pid);
    if (hostPid !== undefined && alive(hostPid)) process.kill(hostPid, 'SIGKILL');
  });

  it('a hook whose stdin is large is spawned from the server (one shared buffer, not a copy per hook)', async () => {
    const small = await parentOf(host, Buffer.alloc(HOST_INPUT_LIMIT, 0x20));
    expect(small).toBe(host.pid());
    expect(await parentOf(host, Buffer.alloc(HOST_INPUT_LIMIT + 1, 0x20))).toBe(process.pid);
  });
});

describe('the server runs its command hooks in the host', () => {
  it('AGENT_HOOKS_SERVE_HOST=0: the server spawns its hooks itself, and its log says so', async () => {
    const s = await serve({ env: { AGENT_HOOKS_SERVE_HOST: '0' } });
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'parent', command: 'cat >/dev/null; echo "parent $PPID" >&2; exit 2' }] } }) });
    trustProject(project, s.env);
    const r = await s.tcp(RUN, claudeBash('ls', project));
    expect(Number(/parent (\d+)/.exec(r.body)?.[1])).toBe(process.pid);
    expect(s.server.stats().hookHost).toBeUndefined();
    expect(s.logs).toContain('hook host off (AGENT_HOOKS_SERVE_HOST=0): command hooks are spawned from the server itself');
  });

  it("a hook's parent is the host the server names in its stats, not the server", async () => {
    const s = await serve();
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'parent', command: 'cat >/dev/null; echo "parent $PPID" >&2; exit 2' }] } }) });
    trustProject(project, s.env);
    const r = await s.tcp(RUN, claudeBash('ls', project));
    const parent = Number(/parent (\d+)/.exec(r.body)?.[1]);
    expect(parent).toBe(s.server.stats().hookHost);
    expect(parent).not.toBe(process.pid);
  });
});

describe('the host and the real server process', () => {
  /** A foreground `hooks serve` (the built CLI) in its own process group, and an event sent over its socket. */
  async function realServer(hook: string) {
    const env = isolatedEnv(tmpProject(), { AGENT_HOOKS_SERVE_PORT: '0', AGENT_HOOKS_SERVE_AUTOSTART: '0' });
    delete env.XDG_RUNTIME_DIR;
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'slow', command: hook }] } }) });
    trustProject(project, env);
    const server = spawn(process.execPath, [path.join(ROOT, 'bin', 'hooks.js'), 'serve'], { env, stdio: 'ignore', detached: true });
    const paths = servePaths(env);
    await until(() => existsSync(paths.socket), 20_000);
    const token = readFileSync(paths.token, 'utf8').trim();
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ socketPath: paths.socket, path: RUN, method: 'POST', headers: { host: 'localhost', authorization: `Bearer ${token}` } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end(claudeBash('ls', project));
    });
    answer.catch(() => {});
    return { server, env, project, answer };
  }

  it('a SIGTERM to the server\'s whole process group (a Ctrl-C, a service stop) lets the hook in flight finish', async () => {
    const { server, answer } = await realServer('sleep 1.5; echo "finished after the group SIGTERM" >&2; exit 2');
    await new Promise((r) => setTimeout(r, 700));
    process.kill(-server.pid!, 'SIGTERM');
    const r = await answer;
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'finished after the group SIGTERM' } });
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.on('exit', resolve)));
  });

  it('a SIGKILLed server: the host kills the hooks it was running and exits', async () => {
    const dir = tmpProject();
    const pidFile = path.join(dir, 'hook.pid');
    const { server, env } = await realServer(`echo $$ > ${JSON.stringify(pidFile)}; sleep 30`);
    await until(() => written(pidFile));
    const hook = readPid(pidFile);
    const hostPid = Number(/hook host:\s+pid (\d+)/.exec(runCli(['serve', 'status'], { env }).stdout)?.[1]);
    expect(alive(hostPid)).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    process.kill(server.pid!, 'SIGKILL');
    expect(await gone(hook)).toBe(true);
    expect(await gone(hostPid)).toBe(true);
  });
});
