// The server's command hooks and their spares (src/run/spares.ts): a hook's next run is started ahead by the
// server, and neither a hook nor a spare outlives a server that ends or is killed. Real processes throughout.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LAUNCHER } from '../../src/run/spares.js';
import { servePaths } from '../../src/serve/paths.js';
import { ROOT, isolatedEnv, runCli, tmpProject, trustProject } from '../helpers.js';
import { alive, gone, pidReader, until, written } from '../run/kit.js';
import { RUN, claudeBash, serversClosedAfterEach } from './kit.js';

// Real processes on a loaded machine: generous, so only a real hang fails.
vi.setConfig({ testTimeout: 120_000 });

const readPid = pidReader();
const serve = serversClosedAfterEach();

/** A project whose preToolUse hook says (as a block) its pid and its parent's. */
function pidProject(env: NodeJS.ProcessEnv): string {
  const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'pids', command: 'cat >/dev/null; echo "pid $$ parent $PPID" >&2; exit 2' }] } }) });
  trustProject(project, env);
  return project;
}
const pidsOf = (body: string) => {
  const m = /pid (\d+) parent (\d+)/.exec(body);
  return { pid: Number(m?.[1]), parent: Number(m?.[2]) };
};

describe('the server starts each command hook\'s next run ahead', () => {
  it.runIf(existsSync(LAUNCHER))('the second event runs its hook in the spare the stats named, a child of the server; the answer is the same', async () => {
    const s = await serve();
    const project = pidProject(s.env);
    const first = await s.tcp(RUN, claudeBash('ls', project));
    expect(pidsOf(first.body).parent).toBe(process.pid);
    await until(() => s.server.stats().spares.length === 1);
    const [spare] = s.server.stats().spares;
    const second = await s.tcp(RUN, claudeBash('ls', project));
    expect(pidsOf(second.body)).toEqual({ pid: spare, parent: process.pid });
    expect(second.body.replace(/\d+/g, 'N')).toBe(first.body.replace(/\d+/g, 'N'));
    expect(JSON.parse(second.body)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it('AGENT_HOOKS_SERVE_SPARES=0: each hook is spawned as its event comes, none waits, and the log says so', async () => {
    const s = await serve({ env: { AGENT_HOOKS_SERVE_SPARES: '0' } });
    const project = pidProject(s.env);
    for (let i = 0; i < 2; i++) expect(pidsOf((await s.tcp(RUN, claudeBash('ls', project))).body).parent).toBe(process.pid);
    await new Promise((r) => setTimeout(r, 200));
    expect(s.server.stats().spares).toEqual([]);
    expect(s.logs).toContain('spares off (AGENT_HOOKS_SERVE_SPARES=0): each command hook is spawned as its event comes');
  });

  it.runIf(existsSync(LAUNCHER))('a server that closes ends its spares', async () => {
    const s = await serve();
    await s.tcp(RUN, claudeBash('ls', pidProject(s.env)));
    await until(() => s.server.stats().spares.length === 1);
    const [spare] = s.server.stats().spares;
    await s.server.close(1_000);
    expect(await gone(spare!)).toBe(true);
  });
});

describe('the real server process', () => {
  /** A foreground `hooks serve` (the built CLI) in its own process group, and an event sent over its socket. */
  async function realServer(...hooks: string[]) {
    const env = isolatedEnv(tmpProject(), { AGENT_HOOKS_SERVE_PORT: '0', AGENT_HOOKS_SERVE_AUTOSTART: '0' });
    delete env.XDG_RUNTIME_DIR;
    const projects = hooks.map((command) => tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'hook', command }] } }) }));
    for (const project of projects) trustProject(project, env);
    const server = spawn(process.execPath, [path.join(ROOT, 'bin', 'hooks.js'), 'serve'], { env, stdio: 'ignore', detached: true });
    const paths = servePaths(env);
    await until(() => existsSync(paths.socket), 20_000);
    const token = readFileSync(paths.token, 'utf8').trim();
    const send = (project = projects[0]!) => {
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
      return answer;
    };
    return { server, env, projects, send };
  }

  it("a SIGTERM to the server's whole process group (a Ctrl-C, a service stop) lets the hook in flight finish", async () => {
    // The signal goes once the hook runs (its mark written), not after a fixed wait: on a loaded machine the
    // request may not have reached the server yet, which a stopping server then refuses.
    const started = path.join(tmpProject(), 'started');
    const { server, send } = await realServer(`touch ${JSON.stringify(started)}; sleep 1.5; echo "finished after the group SIGTERM" >&2; exit 2`);
    const answer = send();
    await until(() => existsSync(started), 30_000);
    process.kill(-server.pid!, 'SIGTERM');
    const r = await answer;
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'finished after the group SIGTERM' } });
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.on('exit', resolve)));
  });

  it.runIf(process.platform === 'linux' && existsSync(LAUNCHER))('a SIGKILLed server: its watchdog kills the hook it was running, and the spare waiting ends (its stdin closed)', async () => {
    const pidFile = path.join(tmpProject(), 'hook.pid');
    const { server, env, projects, send } = await realServer('true', `echo $$ > ${JSON.stringify(pidFile)}; exec sleep 30`);
    await send(projects[0]);
    const status = () => /spares:\s+(\d+) waiting[^\n]*pids ([\d ]+)\)/.exec(runCli(['serve', 'status'], { env }).stdout);
    await until(() => status()?.[1] === '1');
    const spare = Number(status()![2]);
    void send(projects[1]);
    await until(() => written(pidFile));
    const hook = readPid(pidFile);
    // Past the gap between a spawn and its listing (the documented one).
    await new Promise((r) => setTimeout(r, 500));
    expect(alive(spare)).toBe(true);
    process.kill(server.pid!, 'SIGKILL');
    expect(await gone(hook)).toBe(true);
    expect(await gone(spare)).toBe(true);
  });
});
