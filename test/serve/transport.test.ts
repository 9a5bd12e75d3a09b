// The server's transport and environment against another local user and against a session of the agent
// (real processes of the built CLI; another user is uid 65534 through setpriv): the client sends nothing
// to a socket that is not this user's; a squatter on the port is named and does not stop the socket; each
// event's hooks get the environment of the session that sent it, never the token; a NUL in an event field
// never keeps a hook from starting; hooks get no descriptor the server's starter leaked.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { servePaths } from '../../src/serve/paths.js';
import { nodeForOtherUsers, ROOT, runCli, tmpProject, trustProject } from '../helpers.js';
import { HOOKS, client, homesStoppedAfterEach, launcher, served } from './cli-kit.js';
import { claudeBash, RUN, serversClosedAfterEach, unframe } from './kit.js';

// Real processes on a loaded machine: generous, so only a real hang fails.
vi.setConfig({ testTimeout: 120_000 });

const home = homesStoppedAfterEach();
const NOBODY = ['--reuid', '65534', '--regid', '65534', '--clear-groups'];
const asNobody = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('setpriv', [...NOBODY, 'true']).status === 0;
const SQUATTER = path.join(ROOT, 'test', 'fixtures', 'serve', 'squatter.mjs');

const squatters: ChildProcess[] = [];
afterEach(() => {
  for (const s of squatters.splice(0)) s.kill('SIGKILL');
});

/** A folder uid 65534 may write in (for its socket and its record). */
function sharedFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-shared-'));
  chmodSync(dir, 0o1777);
  return dir;
}

/**
 * The squatter's script where uid 65534 can read it: the checkout may be under a folder only root may enter
 * (CI clones into a 0700 mktemp folder).
 */
function squatterScript(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-squatter-'));
  chmodSync(dir, 0o755);
  const file = path.join(dir, 'squatter.mjs');
  copyFileSync(SQUATTER, file);
  chmodSync(file, 0o644);
  return file;
}

/** Another user (uid 65534) listening at a socket path or port, answering "allow"; resolves once it listens. */
function squat(where: string, record: string): Promise<ChildProcess> {
  const child = spawn('setpriv', [...NOBODY, nodeForOtherUsers(), squatterScript(), where, record], { stdio: ['ignore', 'pipe', 'inherit'] });
  squatters.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve(child));
    child.on('exit', (code) => reject(new Error(`the squatter exited (${code})`)));
  });
}

const args = (env: NodeJS.ProcessEnv, dialect = 'claude-code') => [launcher(env), 'run', 'pre-tool-use', '--dialect', dialect];

describe.skipIf(!asNobody)('the client sends nothing to a socket another user could have put there (real, uid 65534)', () => {
  it("a socket in a folder of another user's (the client's config names it): refused with the reason, --when-down decides, and the squatter receives nothing", async () => {
    // A runtime folder that went away (a tmp cleaner, a logout) and was made again by someone else: the
    // client's config still names the socket there, and another user now listens on it.
    const shared = sharedFolder();
    const theirs = path.join(shared, 'agent-hooks');
    mkdirSync(theirs, { mode: 0o700 });
    chownSync(theirs, 65534, 65534);
    const socket = path.join(theirs, 'serve.sock');
    const record = path.join(shared, 'record');
    await squat(socket, record);
    const env = home();
    expect(runCli(['serve', 'token'], { env }).code).toBe(0);
    const paths = servePaths(env);
    writeFileSync(paths.curlConfig, readFileSync(paths.curlConfig, 'utf8').replace(/unix-socket = .*/, `unix-socket = ${JSON.stringify(socket)}`));
    const input = claudeBash('rm -rf /', tmpProject());

    const blocked = client(env, ['--when-down', 'block', ...args(env)], input);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain(`not sending the event to the agent-hooks server: its folder ${theirs} is not a folder of yours`);
    // The default runs the event here: the same answer as hooks run (a deny), with the reason said.
    const direct = runCli(['run', 'pre-tool-use', '--dialect', 'claude-code'], { env, input });
    const ran = client(env, args(env), input);
    expect(ran.code).toBe(direct.code);
    expect(ran.stdout).toBe(direct.stdout);
    expect(ran.stdout).toContain('"permissionDecision":"deny"');
    expect(ran.stderr).toContain('is not a folder of yours; running it here instead');
    const passed = client(env, ['--when-down', 'continue', ...args(env)], input);
    expect(passed).toMatchObject({ code: 0, stderr: expect.stringContaining('no hooks ran') });
    // The CLI's own probes (status, stop, start) do not send the token there either.
    const status = runCli(['serve', 'status'], { env: { ...env, XDG_RUNTIME_DIR: shared } });
    expect(status.code).toBe(3);
    expect(status.stdout).toContain(`its folder ${theirs} is not a folder of yours`);
    expect(runCli(['serve', 'stop'], { env: { ...env, XDG_RUNTIME_DIR: shared } }).stdout).toContain('not running');
    expect(existsSync(record)).toBe(false);
  });
});

describe('the client checks the socket and its folder before it sends anything', () => {
  function running() {
    const env = home();
    expect(runCli(['serve', 'start', '--no-http'], { env }).code).toBe(0);
    const { socket } = servePaths(env);
    return { env, socket, dir: path.dirname(socket), input: claudeBash('ls', tmpProject()) };
  }

  it.skipIf(!asNobody)('a socket that is not ours is refused, though a server answers on it', () => {
    const { env, socket, input } = running();
    chownSync(socket, 65534, 65534);
    const r = client(env, ['--when-down', 'block', ...args(env)], input);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the socket ${socket} is not yours`);
    // Nor does the CLI ask it anything.
    expect(runCli(['serve', 'status'], { env }).stdout).toContain(`the socket ${socket} is not yours`);
    chownSync(socket, process.getuid!(), process.getgid!());
    expect(served(env)).toBe(0);
  });

  it('a folder open to the group or others is refused; 0700 again, the event is served', () => {
    const { env, dir, input } = running();
    chmodSync(dir, 0o750);
    const r = client(env, ['--when-down', 'block', ...args(env)], input);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`its folder ${dir} is not mode 0700`);
    chmodSync(dir, 0o700);
    expect(served(env)).toBe(0);
    expect(client(env, ['--when-down', 'block', ...args(env)], input).code).toBe(0);
    expect(served(env)).toBe(1);
  });

  it('a folder that is a symlink (to the real one) is refused', () => {
    const { env, dir, input } = running();
    const real = `${dir}.real`;
    renameSync(dir, real);
    symlinkSync(real, dir);
    const r = client(env, ['--when-down', 'block', ...args(env)], input);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`its folder ${dir} is not a folder of yours`);
    rmSync(dir);
    renameSync(real, dir);
    expect(served(env)).toBe(0);
  });
});

describe.skipIf(!asNobody)('another user on the port (real, uid 65534)', () => {
  it('serve start names who holds it, serves the socket alone, and the client is answered by its own server', async () => {
    const shared = sharedFolder();
    const record = path.join(shared, 'record');
    const probe = spawnSync(process.execPath, ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"], { encoding: 'utf8' });
    const port = probe.stdout.trim();
    const squatter = await squat(port, record);
    const env = home({ AGENT_HOOKS_SERVE_PORT: port });
    const start = runCli(['serve', 'start'], { env });
    expect(start.code, start.stderr).toBe(0);
    // setpriv execs node: the squatter's pid is the one spawned.
    expect(start.stderr).toContain(`port ${port} on 127.0.0.1 is held by uid 65534 (pid ${squatter.pid}, node)`);
    expect(runCli(['serve', 'status'], { env }).stdout).toContain('http:    off');
    const input = claudeBash('rm -rf /', tmpProject());
    const r = client(env, ['--when-down', 'block', ...args(env)], input);
    const direct = runCli(['run', 'pre-tool-use', '--dialect', 'claude-code'], { env, input });
    expect(r).toEqual({ code: direct.code, stdout: direct.stdout, stderr: direct.stderr });
    expect(r.stdout + r.stderr).toContain('deny');
    expect(served(env)).toBe(1);
    expect(existsSync(record)).toBe(false);
    // With the http opt-in, doctor names the squatter as an error; on a port of our own, the warning stays.
    expect(runCli(['install', 'claude-code', '--user', '--serve', '--http'], { env }).code).toBe(0);
    const doctor = runCli(['doctor'], { env, cwd: tmpProject() });
    expect(doctor.stdout).toContain(`the http hooks send every event and your token to 127.0.0.1:${port}, which is held by uid 65534 (pid ${squatter.pid}, node): its answers are obeyed`);
    squatter.kill('SIGKILL');
    await new Promise((resolve) => squatter.on('exit', resolve));
    expect(runCli(['doctor'], { env, cwd: tmpProject() }).stdout).toContain(`http hooks on 127.0.0.1:${port}: only safe on a machine where no other user can bind loopback ports`);
  });
});

describe("each served event's hooks get the environment of the session that sent it", () => {
  /** A session: its own bin folder first on PATH (a `shim` of its own) and its own secret. */
  function session(env: NodeJS.ProcessEnv, name: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const bin = path.join(env.HOME!, `bin-${name}`);
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'shim'), `#!/bin/sh\necho "shim of ${name}"\n`, { mode: 0o755 });
    return { ...env, PATH: `${bin}:${env.PATH}`, SECRET: `secret-of-${name}`, ...extra };
  }
  // The hook blocks with what it saw: the shim PATH finds, the secret, whether the token reached it.
  const project = (env: NodeJS.ProcessEnv) => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'env', command: 'cat >/dev/null; printf "%s|%s|%s" "$(shim 2>/dev/null || echo no shim)" "${SECRET-none}" "${AGENT_HOOKS_TOKEN-no token}" >&2; exit 2' }] } }),
    });
    trustProject(dir, env);
    return dir;
  };

  it('two sessions through one server started by the first: each hook sees its own PATH shim and secret, and never the token', async () => {
    const env = home({ AGENT_HOOKS_SERVE_AUTOSTART: '1' });
    const a = session(env, 'A', { AGENT_HOOKS_TOKEN: 'f'.repeat(64) });
    const b = session(env, 'B');
    const dir = project(env);
    // A's first event runs in-process and starts the server, from inside session A.
    expect(client(a, args(a), claudeBash('ls', dir)).stderr).toContain('shim of A|secret-of-A|no token');
    let count: number | undefined;
    for (let i = 0; i < 100 && count === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      count = served(env);
    }
    expect(count).toBe(0);
    const fromB = client(b, args(b), claudeBash('ls', dir));
    expect(fromB.code).toBe(2);
    expect(fromB.stderr).toContain('shim of B|secret-of-B|no token');
    expect(client(a, args(a), claudeBash('ls', dir)).stderr).toContain('shim of A|secret-of-A|no token');
    expect(served(env)).toBe(2);
  });

  it('over http (no environment sent) the hook gets what a server started by the client keeps: none of that session\'s PATH or secrets', async () => {
    const env = home();
    const a = session(env, 'A', { AGENT_HOOKS_SERVE_AUTOSTARTED: '1', AGENT_HOOKS_TOKEN: 'f'.repeat(64) });
    const start = runCli(['serve', 'start'], { env: a });
    expect(start.code, start.stderr).toBe(0);
    const port = Number(/port (\d+)/.exec(start.stdout)![1]);
    const dir = project(env);
    const token = runCli(['serve', 'token'], { env }).stdout.trim();
    const r = spawnSync('curl', ['-s', '-H', `Authorization: Bearer ${token}`, '-H', 'Content-Type: application/json', '--data-binary', claudeBash('ls', dir), `http://127.0.0.1:${port}${RUN}`], { encoding: 'utf8' });
    expect(r.stdout).toContain('no shim|none|no token');
  });
});

describe('a NUL in an event field never keeps a hook from starting (it would let the event through)', () => {
  const started = serversClosedAfterEach();
  const config = JSON.stringify({ hooks: { preToolUse: [{ id: 'tool', command: 'cat >/dev/null; printf "tool=%s" "$HOOKS_TOOL" >&2; exit 2' }] } });
  const payload = (dir: string) => JSON.stringify({ session_id: 's-1', hook_event_name: 'PreToolUse', cwd: dir, tool_name: 'Ba\u0000sh', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' });

  it('hooks run: the hook runs with the NUL removed from HOOKS_TOOL, blocks, and the report says so', () => {
    const env = home();
    const dir = tmpProject({ '.hooksrc.json': config });
    trustProject(dir, env);
    const r = runCli(['run', 'pre-tool-use', '--dialect', 'claude-code'], { env, input: payload(dir), cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('tool=Bash');
    expect(r.stdout + r.stderr).toMatch(/holds a NUL byte.*HOOKS_TOOL is \\"?Bash/);
  });

  it('through the server: the same', async () => {
    const s = await started();
    const dir = tmpProject({ '.hooksrc.json': config });
    trustProject(dir, s.env);
    const r = await s.unix(`${RUN}&client=1`, payload(dir));
    const [stdout, stderr, code] = r.body.split('\u001e');
    expect(code).toBe('2');
    expect(stderr).toContain('tool=Bash');
    expect(stdout! + stderr!).toMatch(/holds a NUL byte/);
  });
});

describe('hooks and spares get only stdin, stdout and stderr', () => {
  it('a descriptor the starter leaked (fd 251) is closed at the server start: no hook, spawned or a spare, sees it', async () => {
    const env = home();
    // ls lists its own descriptors (what the hook's sh gave it, plus 3: the folder it reads); the sh's own
    // list would race with the pipes it holds while it starts a pipeline.
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'fds', command: 'cat >/dev/null; ls /proc/self/fd | sort -n | tr "\\n" " " >&2; exit 2' }] } }) });
    trustProject(dir, env);
    const leaked = path.join(env.HOME!, 'leaked');
    const server = spawn('bash', ['-c', `exec 251>${JSON.stringify(leaked)}; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(HOOKS)} serve --no-http`], { env: { ...env, AGENT_HOOKS_SERVE_LOG: 'stderr' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    try {
      for (let i = 0; i < 300 && !log.includes('listening'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(log).toContain('listening');
      expect(log).toContain('closed descriptors inherited from the starter (251)');
      for (const run of ['spawned', 'a spare']) {
        const r = client(env, args(env), claudeBash('ls', dir));
        expect(r.code, run).toBe(2);
        expect(r.stderr.trim(), run).toBe('0 1 2 3');
        expect(r.stderr, run).not.toMatch(/\b251\b/);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      // Both answered by the server (not run in-process by a client that found none).
      expect(served(env)).toBe(2);
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.on('exit', resolve));
    }
  });
});

describe('an environment that is not whole', () => {
  const started = serversClosedAfterEach();
  it('is a 400 (logged), and the hook never runs with half an environment', async () => {
    const s = await started();
    const marker = path.join(s.home, 'ran');
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'mark', command: `touch ${JSON.stringify(marker)}` }] } }) });
    trustProject(dir, s.env);
    // What a client whose env has no -0 sends: the event, a NUL, nothing.
    const r = await s.unix(`${RUN}&client=1`, `${claudeBash('ls', dir)}\0`, { 'x-hooks-env': 'nul' });
    expect(r.status).toBe(400);
    expect(r.body).toContain("empty environment after the event: the client's env -0 failed?");
    expect(s.logs.join('\n')).toContain('refused an event: an empty environment');
    expect(existsSync(marker)).toBe(false);
    expect((await s.unix(`${RUN}&client=1`, `${claudeBash('ls', dir)}\0PATH=/usr/bin:/bin\0`, { 'x-hooks-env': 'nul' })).status).toBe(200);
    expect(existsSync(marker)).toBe(true);
  });
});

describe("a session's environment with a project .env in it", () => {
  const started = serversClosedAfterEach();
  it('reaches the hooks without what would load the repository\'s code (as hooks run drops it), and LD_PRELOAD blocks the event', async () => {
    const s = await started();
    const dir = tmpProject({
      '.env': 'BASH_ENV=./pwn.sh\nLD_PRELOAD=./pwn.so\n',
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'env', command: 'echo "BASH_ENV=[${BASH_ENV-}] MINE=[${MINE-}]" >&2; exit 2' }] } }),
    });
    trustProject(dir, s.env);
    const sent = (extra: string) => `${claudeBash('ls', dir)}\0PATH=/usr/bin:/bin\0HOME=${s.home}\0BASH_ENV=./pwn.sh\0MINE=kept\0${extra}`;
    const r = unframe((await s.unix(`${RUN}&client=1`, sent(''), { 'x-hooks-env': 'nul', 'x-hooks-cwd': dir })).body);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('BASH_ENV=[] MINE=[kept]');
    expect(r.stderr).toContain(`${path.join(dir, '.env')} sets BASH_ENV, which would steer every hook`);
    expect(r.stderr.split('sets BASH_ENV').length - 1).toBe(1);
    // Also where the agent shows it to the user: the answer's systemMessage, as hooks run gives it.
    expect(JSON.parse(r.stdout).systemMessage).toContain(`agent-hooks: ${path.join(dir, '.env')} sets BASH_ENV, which would steer every hook`);
    // Under Gemini CLI, which loads the file into every hook's environment (the client's too).
    const preloaded = unframe((await s.unix('/v1/run?event=pre-tool-use&dialect=gemini&client=1', sent('LD_PRELOAD=./pwn.so\0'), { 'x-hooks-env': 'nul', 'x-hooks-cwd': dir })).body);
    expect(preloaded.code).toBe(2);
    expect(preloaded.stderr).toContain('sets LD_PRELOAD, which acts on the runner itself');
    // Blocked before any hook ran.
    expect(preloaded.stderr).not.toContain('MINE=');
  });
});

describe('browsers', () => {
  const started = serversClosedAfterEach();
  it.each(['sec-fetch-dest', 'sec-fetch-user', 'sec-fetch-storage-access'])('%s alone is refused (403), token or not, and nothing runs', async (header) => {
    const s = await started();
    const marker = path.join(s.home, 'ran');
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'mark', command: `touch ${JSON.stringify(marker)}` }] } }) });
    trustProject(dir, s.env);
    const r = await s.tcp(RUN, claudeBash('ls', dir), { [header]: header === 'sec-fetch-user' ? '?1' : 'document' });
    expect(r.status).toBe(403);
    expect(r.body).toContain('Sec-Fetch');
    expect(existsSync(marker)).toBe(false);
  });
});
