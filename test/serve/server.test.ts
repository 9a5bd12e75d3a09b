// hooks serve's engine side: the same answers as `hooks run`, the trust gate per project, configs
// reloaded when their files change, sessions that do not wait for each other, and hooks that crash.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cliInProcess, fixture, tmpProject, trustProject } from '../helpers.js';
import { claudeBash, RUN, serve, serversClosedAfterEach, unframe, userConfig, type Served } from './kit.js';
import { servePaths } from '../../src/serve/paths.js';

// Real processes on a loaded machine: generous, so only a real hang fails.
vi.setConfig({ testTimeout: 120_000 });

const servePathsOf = (s: Served) => servePaths(s.env).socket;

const started = serversClosedAfterEach();

function writeUserConfig(env: NodeJS.ProcessEnv, config: object): void {
  mkdirSync(path.dirname(userConfig(env)), { recursive: true });
  writeFileSync(userConfig(env), JSON.stringify(config));
}

describe('the same answers as hooks run', () => {
  const cases: [string, (dir: string) => string, string][] = [
    ['a dangerous command (builtin block)', (dir) => claudeBash('rm -rf /', dir), RUN],
    ['a harmless command', (dir) => claudeBash('ls -la', dir), RUN],
    ['a rewrite by a command hook', (dir) => claudeBash('npm test', dir), RUN],
    ['a command hook that fails', (dir) => claudeBash('fail now', dir), RUN],
    ['an event that is not JSON', () => '{"tool_name": ', RUN],
    ['an unknown dialect', (dir) => claudeBash('ls', dir), '/v1/run?event=pre-tool-use&dialect=klingon'],
    ['a runner error with --on-error block', () => 'nope', `${RUN}&onError=block`],
  ];
  it.each(cases)('%s: stdout, stderr and exit code are byte for byte those of hooks run', async (_name, body, url) => {
    const project = tmpProject({
      '.hooksrc.json': JSON.stringify({
        hooks: {
          preToolUse: [
            { id: 'rewrite', match: 'Bash', if: { command: 'npm test' }, command: fixture('bash'), env: { MODE: 'modify-input' } },
            { id: 'breaks', match: 'Bash', if: { command: 'fail*' }, command: fixture('bash'), env: { MODE: 'exit1' } },
          ],
        },
      }),
    });
    const s = await started();
    trustProject(project, s.env);
    const payload = body(project);
    const url_ = new URL(url, 'http://x');
    const args = ['run', url_.searchParams.get('event')!, '--dialect', url_.searchParams.get('dialect')!, ...(url_.searchParams.get('onError') === 'block' ? ['--on-error', 'block'] : [])];
    const cli = await cliInProcess(args, { cwd: project, env: s.env, input: payload });
    const served = unframe((await s.unix(`${url}&client=1`, payload, { 'x-hooks-cwd': project })).body);
    expect(served).toEqual({ stdout: cli.stdout, stderr: cli.stderr, code: cli.code });
  });

  it('the cases above are not vacuous: the rewrite and the hook failure happen', async () => {
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'rewrite', match: 'Bash', if: { command: 'npm test' }, command: fixture('bash'), env: { MODE: 'modify-input' } }] } }) });
    const s = await started();
    trustProject(project, s.env);
    const served = unframe((await s.unix(`${RUN}&client=1`, claudeBash('npm test', project))).body);
    expect(JSON.parse(served.stdout).hookSpecificOutput.updatedInput).toEqual({ command: 'npm test --by-bash' });
  });

  it('over HTTP a block is a 2xx JSON decision, and a runner error is a non-2xx (a failing hook to the agent)', async () => {
    const s = await started();
    const dir = tmpProject();
    const blocked = await s.tcp(RUN, claudeBash('rm -rf /', dir));
    expect(blocked.status).toBe(200);
    expect(JSON.parse(blocked.body).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    const fine = await s.tcp(RUN, claudeBash('ls', dir));
    expect(fine).toMatchObject({ status: 200, body: '' });
    const broken = await s.tcp(RUN, '{not json');
    expect(broken.status).toBe(500);
    expect(broken.body).toMatch(/^agent-hooks: stdin: expected one JSON event/);
    // A UserPromptSubmit block the CLI says with exit 2 carries its decision in the JSON too.
    const prompt = await s.tcp(
      '/v1/run?event=user-prompt-submit&dialect=claude-code',
      JSON.stringify({ session_id: 's', hook_event_name: 'UserPromptSubmit', cwd: dir, prompt: `my key is ghp_${'a7Xq'.repeat(9)}` }),
    );
    expect(prompt.status).toBe(200);
    expect(JSON.parse(prompt.body)).toMatchObject({ decision: 'block' });
  });
});

describe('configs: loaded once, reloaded when a file changes, the trust gate per project', () => {
  it('an untrusted project config never runs; the user layer does; trusting it takes effect on the next event, and changing its bytes undoes it', async () => {
    const s = await started();
    const marker = path.join(s.home, 'project-hook-ran');
    const userMarker = path.join(s.home, 'user-hook-ran');
    writeUserConfig(s.env, { hooks: { preToolUse: [{ id: 'user-mark', command: `touch ${JSON.stringify(userMarker)}` }] } });
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'project-mark', command: `touch ${JSON.stringify(marker)}` }] } }) });
    await s.unix(`${RUN}&client=1`, claudeBash('ls', project));
    expect(existsFile(userMarker)).toBe(true);
    expect(existsFile(marker)).toBe(false);

    trustProject(project, s.env);
    await s.unix(`${RUN}&client=1`, claudeBash('ls', project));
    expect(existsFile(marker)).toBe(true);

    // New bytes, not trusted: the server loads them (a change) and refuses them as hooks run would.
    const file = path.join(project, '.hooksrc.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('project-mark', 'project-mark-2'));
    const after = unframe((await s.unix(`${RUN}&client=1`, claudeBash('ls', project))).body);
    const cli = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: project, env: s.env, input: claudeBash('ls', project) });
    expect(after).toEqual({ stdout: cli.stdout, stderr: cli.stderr, code: cli.code });
    expect(after.stdout).toContain('is not trusted');
  });

  it('a config is loaded once per project, and again only when one of its files changes', async () => {
    const s = await started();
    const project = tmpProject();
    const settle = () => new Promise((r) => setTimeout(r, 1_200));
    const event = async () => unframe((await s.unix(`${RUN}&client=1`, claudeBash('npm i', project))).body).code;
    writeUserConfig(s.env, { hooks: { preToolUse: [{ id: 'no-npm', match: 'Bash', if: { command: 'npm*' }, command: fixture('bash'), env: { MODE: 'block-exit2' } }] } });
    // Past the second in which a change may share its timestamp with the next, one load serves every event.
    await settle();
    for (let i = 0; i < 5; i++) expect(await event()).toBe(2);
    expect(s.server.stats().loads).toBe(1);
    // An edit in place: the next event sees it.
    writeUserConfig(s.env, { hooks: { preToolUse: [] } });
    expect(await event()).toBe(0);
    expect(s.server.stats().loads).toBe(2);
    await settle();
    await event();
    await event();
    const settled = s.server.stats().loads;
    // A config file appearing in the project (no file of its own was watched): the folder's times tell.
    writeFileSync(path.join(project, '.hooksrc.json'), JSON.stringify({ hooks: {} }));
    await event();
    expect(s.server.stats().loads).toBe(settled + 1);
    // A config that does not parse is the same one-line error for every event until it is fixed.
    writeUserConfig(s.env, { hooks: { preToolUse: [{ id: 'x', timeout: 'soon', command: 'true' }] } });
    const bad = unframe((await s.unix(`${RUN}&client=1`, claudeBash('ls', project))).body);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^agent-hooks: .*config\.json/);
  });
});

describe('sessions do not wait for each other; a crashing hook does not take the server down', () => {
  it('a fast event is answered while a slow hook of another session runs', async () => {
    const s = await started();
    // The slow hook says it runs, then waits for the test's go-ahead (given once the fast event is answered),
    // so "not after the slow hook" is an order of events, whatever the load.
    const gate = tmpProject();
    const slowHook = `touch ${path.join(gate, 'running')}; for i in $(seq 300); do [ -e ${path.join(gate, 'go')} ] && exit 0; sleep 0.05; done`;
    const slowProject = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'slow', command: slowHook }] } }) });
    trustProject(slowProject, s.env);
    const fastProject = tmpProject();
    let slowAnswered = false;
    const slow = s.unix(`${RUN}&client=1`, claudeBash('ls', slowProject)).then(() => {
      slowAnswered = true;
    });
    for (let i = 0; i < 400 && !existsSync(path.join(gate, 'running')); i++) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(path.join(gate, 'running'))).toBe(true);
    const fast = unframe((await s.tcp(`${RUN}&client=1`, claudeBash('rm -rf /', fastProject))).body);
    expect(fast.code).toBe(2);
    expect(slowAnswered).toBe(false);
    writeFileSync(path.join(gate, 'go'), '');
    await slow;
    expect(slowAnswered).toBe(true);
  });

  it('a hook killed by a signal, one that is not there and one that floods its output leave the server answering', async () => {
    const s = await started();
    const project = tmpProject({
      '.hooksrc.json': JSON.stringify({
        hooks: {
          preToolUse: [
            { id: 'killed', command: fixture('bash'), env: { MODE: 'signal' } },
            { id: 'missing', command: '/nonexistent/hook' },
            { id: 'flood', command: fixture('bash'), env: { MODE: 'flood' } },
          ],
        },
      }),
    });
    trustProject(project, s.env);
    const answered = unframe((await s.unix(`${RUN}&client=1`, claudeBash('ls', project))).body);
    expect(answered.code).toBe(0);
    expect(answered.stdout).toContain('killed');
    const status = await s.unix('/v1/status', '', {}, 'GET');
    expect(JSON.parse(status.body)).toMatchObject({ served: 1, inFlight: 0 });
  });

  it('a hook that runs longer than the request timeout still gets its answer back (the timeout is for receiving the request)', async () => {
    const s = await started({ limits: { requestTimeoutMs: 1_000, headersTimeoutMs: 1_000 } });
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'slow', command: fixture('bash', 'sleep-then'), env: { SLEEP: '2.5', ANSWER: '{"decision":"block","reason":"slow but sure"}' } }] } }) });
    trustProject(project, s.env);
    const answer = unframe((await s.tcp(`${RUN}&client=1`, claudeBash('ls', project))).body);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain('slow but sure');
  });

  it('an agent that gives up on an event (closes the connection) gets the hooks of that event killed', async () => {
    const s = await started();
    const marker = path.join(s.home, 'finished');
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'slow', command: fixture('bash', 'sleep-then'), env: { SLEEP: '2', MARKER_FILE: marker, NAME: 'slow' } }] } }) });
    trustProject(project, s.env);
    const { request } = await import('node:http');
    const req = request({ socketPath: servePathsOf(s), path: `${RUN}&client=1`, method: 'POST', headers: { host: 'localhost', authorization: `Bearer ${s.token}` } });
    req.on('error', () => {});
    req.end(claudeBash('ls', project));
    await new Promise((r) => setTimeout(r, 500));
    req.destroy();
    await new Promise((r) => setTimeout(r, 3_000));
    expect(existsFile(marker)).toBe(false);
    expect(s.server.stats().inFlight).toBe(0);
  });

  it('shutting down finishes the events in flight, then refuses new connections', async () => {
    const s = await serve();
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'slow', command: fixture('bash', 'sleep-then'), env: { SLEEP: '1.5', ANSWER: '{"decision":"block","reason":"late but here"}' } }] } }) });
    trustProject(project, s.env);
    const inFlight = s.unix(`${RUN}&client=1`, claudeBash('ls', project));
    await new Promise((r) => setTimeout(r, 300));
    const closed = s.server.close(30_000);
    const answer = unframe((await inFlight).body);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain('late but here');
    await closed;
    await expect(s.tcp(RUN, claudeBash('ls', project))).rejects.toThrow(/ECONNREFUSED|ENOENT/);
  });
});

function existsFile(file: string): boolean {
  try {
    readFileSync(file);
    return true;
  } catch {
    return false;
  }
}
