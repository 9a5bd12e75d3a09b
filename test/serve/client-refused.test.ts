// A request the server refuses before any hook ran (400, 401, 403, 413, 503) must never let the event
// through: the client judges it itself, as `hooks run` would. Real client (sh + curl), real servers, real
// hooks. And the server's body limit leaves room for the environment the client sends after an event
// `hooks run` would judge: the event limit applies to the event alone.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { servePaths } from '../../src/serve/paths.js';
import { EVENT_LIMITS } from '../../src/json.js';
import { runCli, tmpProject, trustProject } from '../helpers.js';
import { CLIENT, homesStoppedAfterEach, launcher, served } from './cli-kit.js';
import { claudeBash, RUN, serversClosedAfterEach, unframe, type Served } from './kit.js';

// Real processes on a loaded machine: generous, so only a real hang fails.
vi.setConfig({ testTimeout: 120_000 });

const started = serversClosedAfterEach();
const home = homesStoppedAfterEach();

/** A project whose guard blocks every event (and says so), trusted in `env`'s home; `marker` is touched by it. */
function guarded(env: NodeJS.ProcessEnv, event = 'preToolUse'): { dir: string; marker: string } {
  const marker = path.join(env.HOME!, 'guard-ran');
  const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { [event]: [{ id: 'guard', command: `touch ${JSON.stringify(marker)}; echo BLOCKED-BY-GUARD >&2; exit 2` }] } }) });
  trustProject(dir, env);
  return { dir, marker };
}

/** The client as an agent runs it, without blocking this process (an in-process server must answer it). */
function client(env: NodeJS.ProcessEnv, args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(CLIENT, args, { env, cwd: env.HOME!, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

const pre = (env: NodeJS.ProcessEnv) => [launcher(env), 'run', 'pre-tool-use', '--dialect', 'claude-code'];

describe('a request the server refuses before any hook ran is judged by the client itself', () => {
  // Each case spoils one thing; it may return the client's environment (the server's otherwise).
  const cases: [number, string, (s: Served) => NodeJS.ProcessEnv | void, Parameters<typeof started>[0]][] = [
    [413, 'an event larger than the limit', () => {}, { limits: { maxEventBytes: 1_000 } }],
    [503, 'a busy server (every event in flight)', () => {}, { limits: { maxInFlight: 0 } }],
    [
      401,
      'a wrong token in the client config',
      (s) => {
        const { curlConfig } = servePaths(s.env);
        writeFileSync(curlConfig, readFileSync(curlConfig, 'utf8').replace(s.token, 'f'.repeat(64)));
      },
      {},
    ],
    [
      400,
      'an env without -0 (it prints nothing: no environment after the event)',
      (s) => {
        const bin = path.join(s.home, 'bin-no-env0');
        mkdirSync(bin);
        writeFileSync(path.join(bin, 'env'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
        return { ...s.env, PATH: `${bin}:${s.env.PATH}` };
      },
      {},
    ],
  ];
  it.each(cases)('HTTP %i (%s): the guard blocks (exit 2), with a line saying why, never exit 1', async (status, _what, spoil, options) => {
    const s = await started(options);
    const env = spoil(s) ?? s.env;
    const { dir, marker } = guarded(s.env);
    const r = await client(env, pre(env), claudeBash(`echo ${'x'.repeat(2_000)}`, dir));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('BLOCKED-BY-GUARD');
    expect(r.stderr).toContain(`the agent-hooks server refused this event (HTTP ${status}) before any hook ran; running it here instead`);
    expect(existsSync(marker)).toBe(true);
  });

  it('--when-down block or continue does not change it: the server is up and refused one event', async () => {
    const s = await started({ limits: { maxInFlight: 0 } });
    const { dir } = guarded(s.env);
    for (const mode of ['block', 'continue']) {
      const r = await client(s.env, ['--when-down', mode, ...pre(s.env)], claudeBash('ls', dir));
      expect(r.code, mode).toBe(2);
      expect(r.stderr, mode).toContain('BLOCKED-BY-GUARD');
    }
  });

  it('a 500 (hooks may have run) is not run again: the server failed, exit 1 (2 with --on-error block), the guard does not run here', async () => {
    const s = await started();
    await s.server.close(1_000);
    const { socket } = servePaths(s.env);
    rmSync(socket, { force: true });
    const failing = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(500).end('agent-hooks: the server failed to answer this event'));
    });
    await new Promise<void>((resolve) => failing.listen(socket, resolve));
    try {
      const { dir, marker } = guarded(s.env);
      const r = await client(s.env, pre(s.env), claudeBash('ls', dir));
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('the agent-hooks server did not answer this event (curl exit 0, HTTP 500)');
      expect(r.stderr).not.toContain('running it here');
      expect(existsSync(marker)).toBe(false);
      expect((await client(s.env, [...pre(s.env), '--on-error', 'block'], claudeBash('ls', dir))).code).toBe(2);
    } finally {
      await new Promise((resolve) => failing.close(resolve));
    }
  });
});

describe('the event limit applies to the event alone, not to the environment sent after it', () => {
  const env = (bytes: number) => `PATH=/usr/bin:/bin\0PAD=${'p'.repeat(bytes)}\0`;
  /** A PreToolUse event of exactly `bytes` bytes. */
  const event = (dir: string, bytes: number) => {
    const bare = claudeBash('', dir);
    return claudeBash('x'.repeat(bytes - bare.length), dir);
  };

  it('an event at the limit with an environment after it is judged; an event or an environment past its own limit is a 413 and nothing runs', async () => {
    const s = await started({ limits: { maxEventBytes: 1_000, maxEnvBytes: 500 } });
    const { dir, marker } = guarded(s.env);
    const withEnv = { 'x-hooks-env': 'nul' };
    const atLimit = await s.unix(`${RUN}&client=1`, `${event(dir, 1_000)}\0${env(400)}`, withEnv);
    expect(atLimit.status, atLimit.body).toBe(200);
    expect(unframe(atLimit.body).code).toBe(2);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    const overEvent = await s.unix(`${RUN}&client=1`, `${event(dir, 1_001)}\0${env(10)}`, withEnv);
    expect(overEvent.status).toBe(413);
    expect(overEvent.body).toContain('the event is larger than 1000 bytes');
    const overEnv = await s.unix(`${RUN}&client=1`, `${event(dir, 400)}\0${env(500)}`, withEnv);
    expect(overEnv.status).toBe(413);
    expect(overEnv.body).toContain('the environment after the event is larger than 500 bytes');
    // Without an environment the body is the event: the event limit alone.
    expect((await s.unix(`${RUN}&client=1`, event(dir, 1_001))).status).toBe(413);
    expect(existsSync(marker)).toBe(false);
  });

  it('real server, the default limit: an event 200 bytes under 64 MiB is judged by the server through the client, as `hooks run` judges it', async () => {
    const e = home();
    const { dir, marker } = guarded(e, 'postToolUse');
    expect(runCli(['serve', 'start', '--no-http'], { env: e }).code).toBe(0);
    const bare = JSON.stringify({ session_id: 's-1', hook_event_name: 'PostToolUse', cwd: dir, tool_name: 'Read', tool_input: { file_path: '/f' }, tool_response: '', tool_use_id: 'toolu_1' });
    const big = bare.replace('"tool_response":""', `"tool_response":"${'r'.repeat(EVENT_LIMITS.maxBytes - 200 - bare.length)}"`);
    expect(Buffer.byteLength(big)).toBe(EVENT_LIMITS.maxBytes - 200);
    const r = await client(e, [launcher(e), 'run', 'post-tool-use', '--dialect', 'claude-code'], big);
    expect(r.code, r.stderr.slice(0, 500)).toBe(2);
    expect(r.stderr).toContain('BLOCKED-BY-GUARD');
    expect(r.stderr).not.toContain('running it here');
    expect(existsSync(marker)).toBe(true);
    expect(served(e)).toBe(1);
  });
});

describe('a client config a repository could have written is never read', () => {
  it('a relative XDG_STATE_HOME (a project .env can set it) is ignored: the event goes to your server, not to the socket a planted config names', async () => {
    const s = await started();
    const { dir, marker } = guarded(s.env);
    // The repository's own "server": it lets everything through.
    const sockDir = path.join(s.home, 'planted-sock');
    mkdirSync(sockDir, { mode: 0o700 });
    const sock = path.join(sockDir, 's.sock');
    const fake = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end('\u001e\u001e0'));
    });
    await new Promise<void>((resolve) => fake.listen(sock, resolve));
    try {
      const planted = path.join(s.home, 'state', 'agent-hooks', 'serve');
      mkdirSync(planted, { recursive: true, mode: 0o700 });
      writeFileSync(path.join(planted, 'client.curlrc'), `unix-socket = "${sock}"\n`, { mode: 0o600 });
      const env = { ...s.env, XDG_STATE_HOME: './state' };
      const r = await client(env, pre(env), claudeBash('rm -rf ./victim', dir));
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('BLOCKED-BY-GUARD');
      expect(existsSync(marker)).toBe(true);
    } finally {
      await new Promise((resolve) => fake.close(resolve));
    }
  });

  it('a client config of another mode than 0600 (as a git checkout writes files) is refused, and the event judged here', async () => {
    const s = await started();
    const { dir, marker } = guarded(s.env);
    chmodSync(servePaths(s.env).curlConfig, 0o644);
    const r = await client(s.env, pre(s.env), claudeBash('ls', dir));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('is not a file of mode 0600');
    expect(r.stderr).toContain('BLOCKED-BY-GUARD');
    expect(existsSync(marker)).toBe(true);
  });
});
