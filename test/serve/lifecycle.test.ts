// The server as a user runs it (real processes of the built CLI): one per user, start/stop/status,
// idle exit, stale files taken over, and the command-only client with the server up and down.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { servePaths } from '../../src/serve/paths.js';
import { runCli, tmpProject, trustProject } from '../helpers.js';
import { CLIENT, HOOKS, client, homesStoppedAfterEach, launcher, served } from './cli-kit.js';
import { claudeBash } from './kit.js';

// Real processes on a loaded machine: generous, so only a real hang fails.
vi.setConfig({ testTimeout: 120_000 });

const home = homesStoppedAfterEach();

describe('one server per user', () => {
  it('start, a second start finds the first, a foreground start is refused, stop finishes it, status says so', () => {
    const env = home();
    const first = runCli(['serve', 'start'], { env });
    expect(first.code, first.stderr).toBe(0);
    const pid = /pid (\d+)/.exec(first.stdout)![1];
    const again = runCli(['serve', 'start'], { env });
    expect(again.stdout).toContain(`already running (pid ${pid}`);
    const foreground = runCli(['serve'], { env });
    expect(foreground.code).toBe(1);
    expect(foreground.stderr).toContain(`already running (pid ${pid})`);
    expect(runCli(['serve', 'status'], { env }).stdout).toContain(`running (pid ${pid}`);
    expect(JSON.parse(runCli(['serve', 'status', '--json'], { env }).stdout)).toMatchObject({ running: true, pid: Number(pid), served: 0, socket: expect.any(String) });
    expect(runCli(['serve', 'stop'], { env }).stdout).toContain(`stopped (pid ${pid})`);
    const status = runCli(['serve', 'status'], { env });
    expect(status.code).toBe(3);
    expect(status.stdout).toContain('not running');
    const paths = servePaths(env);
    expect(existsSync(paths.socket)).toBe(false);
    expect(existsSync(paths.pid)).toBe(false);
  });

  it('a pid file of a dead process and a socket nobody listens on are taken over', async () => {
    const env = home();
    const paths = servePaths(env);
    expect(runCli(['serve', 'token'], { env }).code).toBe(0);
    // A process that is gone, and a socket file left behind by a crash.
    const dead = spawnSync('true').pid;
    writeFileSync(paths.pid, `${dead}\n`, { mode: 0o600 });
    const net = await import('node:net');
    const orphan = net.createServer().listen(paths.socket);
    await new Promise((r) => orphan.once('listening', r));
    await new Promise((r) => orphan.close(r));
    // (Node removes the socket file on close; plant one the way a killed server leaves it.)
    writeFileSync(paths.socket, '');
    const r = runCli(['serve', 'start'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('started');
  });

  it('a background server exits by itself when idle, and logs why', async () => {
    const env = home();
    const child = spawn(process.execPath, [HOOKS, 'serve', '--idle', '0.02'], { env, stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const log = runCli(['serve', 'status'], { env });
    expect(log.code).toBe(3);
    const text = (await import('node:fs')).readFileSync(servePaths(env).log, 'utf8');
    expect(text).toMatch(/idle for 1 s: shutting down/);
  }, 60_000);

  it('SIGTERM on a foreground server lets the event in flight finish', async () => {
    const env = home();
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'slow', command: 'sleep 1.5; echo \'{"decision":"block","reason":"finished after SIGTERM"}\'' }] } }) });
    trustProject(project, env);
    const server = spawn(process.execPath, [HOOKS, 'serve'], { env, stdio: 'ignore' });
    for (let i = 0; i < 100 && served(env) === undefined; i++) await new Promise((r) => setTimeout(r, 100));
    const answer = new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const c = spawn(CLIENT, [launcher(env), 'run', 'pre-tool-use', '--dialect', 'claude-code'], { env });
      let stderr = '';
      c.stderr.on('data', (d) => (stderr += d));
      c.on('exit', (code) => resolve({ code, stderr }));
      c.stdin.end(claudeBash('ls', project));
    });
    await new Promise((r) => setTimeout(r, 700));
    server.kill('SIGTERM');
    const r = await answer;
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('finished after SIGTERM');
    await new Promise((resolve) => server.on('exit', resolve));
  }, 60_000);

  it('a server started from inside a session does not hand that session\'s project folder to other projects\' hooks', () => {
    const env = home();
    const other = tmpProject();
    expect(runCli(['serve', 'start'], { env: { ...env, CLAUDE_PROJECT_DIR: other } }).code).toBe(0);
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'where', command: 'cat >/dev/null; printf \'{"additionalContext":"dir=%s"}\' "$CLAUDE_PROJECT_DIR"' }] } }) });
    trustProject(project, env);
    const r = client(env, [launcher(env), 'run', 'pre-tool-use', '--dialect', 'claude-code'], claudeBash('ls', project));
    expect(r.stdout).toContain(`dir=${project}`);
    expect(served(env)).toBe(1);
  });

  it('--print-unit prints a systemd user unit running the foreground server on the kept port, with PATH', () => {
    const env = home();
    delete env.AGENT_HOOKS_SERVE_PORT;
    const r = runCli(['serve', '--print-unit'], { env });
    const port = /^ExecStart=.*hooks\.js serve --idle 0 --port (\d+)$/m.exec(r.stdout)?.[1];
    expect(port).toMatch(/^\d+$/);
    // The port the server and the client use: the one kept in the state folder.
    expect(readFileSync(servePaths(env).port, 'utf8').trim()).toBe(port);
    const PATH = /^Environment=PATH=(\S+)$/m.exec(r.stdout)?.[1]?.split(':');
    expect(PATH).toContain(path.dirname(process.execPath));
    expect(r.stdout).toContain('WantedBy=default.target');
    expect(runCli(['serve', '--print-unit', '--no-http'], { env }).stdout).toMatch(/^ExecStart=.* serve --idle 0 --no-http$/m);
    expect(runCli(['serve', '--print-unit', '--port', '40001'], { env }).stdout).toMatch(/^ExecStart=.* serve --idle 0 --port 40001$/m);
  });

  it('a token file open to others is refused, never used', () => {
    const env = home();
    expect(runCli(['serve', 'token'], { env }).code).toBe(0);
    chmodSync(servePaths(env).token, 0o644);
    const r = runCli(['serve', 'start'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not a private token file/);
  });
});

describe('the command-only client', () => {
  const args = (env: NodeJS.ProcessEnv, extra: string[] = []) => [launcher(env), 'run', 'pre-tool-use', '--dialect', 'codex', ...extra];

  it('through the server it prints and exits exactly as hooks run, and the server counts the event', () => {
    const env = home();
    expect(runCli(['serve', 'start'], { env }).code).toBe(0);
    const project = tmpProject();
    for (const command of ['rm -rf /', 'ls']) {
      const input = claudeBash(command, project);
      const viaServer = client(env, args(env), input);
      const direct = runCli(['run', 'pre-tool-use', '--dialect', 'codex'], { env, input });
      expect(viaServer).toEqual({ code: direct.code, stdout: direct.stdout, stderr: direct.stderr });
    }
    expect(served(env)).toBe(2);
    // A per-run switch goes to the in-process runner, which honours it (the server does not see the event).
    const skipped = client({ ...env, HOOKS_DISABLE: '1' }, args(env), claudeBash('rm -rf /', project));
    expect(skipped).toMatchObject({ code: 0, stderr: expect.stringContaining('disabled by HOOKS_DISABLE') });
    expect(served(env)).toBe(2);
  });

  it('with the server down: run falls back to hooks run, block exits 2, continue exits 0, each saying so', () => {
    const env = home();
    const input = claudeBash('rm -rf /', tmpProject());
    const direct = runCli(['run', 'pre-tool-use', '--dialect', 'codex'], { env, input });
    expect(client(env, args(env), input)).toEqual({ code: direct.code, stdout: direct.stdout, stderr: direct.stderr });
    const blocked = client(env, ['--when-down', 'block', ...args(env)], claudeBash('ls', tmpProject()));
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('server is not running');
    const passed = client(env, ['--when-down', 'continue', ...args(env)], input);
    expect(passed.code).toBe(0);
    expect(passed.stderr).toContain('no hooks ran');
  });

  it('with the server down, the first event starts one (unless AGENT_HOOKS_SERVE_AUTOSTART=0)', async () => {
    const env = home({ AGENT_HOOKS_SERVE_AUTOSTART: '1' });
    const r = client(env, args(env), claudeBash('ls', tmpProject()));
    expect(r.code).toBe(0);
    let count: number | undefined;
    for (let i = 0; i < 100 && count === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      count = served(env);
    }
    expect(count).toBe(0);
  }, 60_000);
});
