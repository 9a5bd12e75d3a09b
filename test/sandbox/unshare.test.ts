// The unshare sandbox for real (util-linux unshare, user namespaces): the rewritten command is run by a
// real bash, as the agent would run it. No network, the project writable, the rest read-only.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forgetDetected, routeToSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

const usable = spawnSync('unshare', ['--user', '--map-root-user', '--mount', '--net', 'true']).status === 0;

/** Runs `command` as the agent would after the sandbox guard rewrote it. */
async function runRouted(command: string, project: string, options: SandboxOptions = {}, cwd = project) {
  forgetDetected();
  const routed = await routeToSandbox({ command }, { use: ['unshare'], ...options }, { projectDir: project, cwd, env: process.env });
  if (!routed.ok) throw new Error(routed.reason);
  // Asynchronous: the test's own HTTP server must keep answering while the command runs.
  const r = await run('/bin/bash', ['-c', routed.updatedInput.command as string], existsSync(cwd) ? cwd : os.tmpdir());
  return { ...r, context: routed.context };
}

function run(file: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

describe.skipIf(!usable)('unshare sandbox (real)', () => {
  let server: http.Server;
  let url = '';
  let root: string;
  let project: string;
  let outside: string;
  beforeAll(async () => {
    server = http.createServer((_, res) => res.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  });
  afterAll(() => server.close());
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-sandbox-'));
    project = path.join(root, 'project');
    outside = path.join(root, 'outside');
    mkdirSync(project);
    mkdirSync(outside);
  });

  it('a network call fails inside, though the server answers outside', async () => {
    expect((await run('curl', ['-sS', '-m', '5', url], os.tmpdir())).stdout).toBe('reached');
    const r = await runRouted(`curl -sS -m 5 ${url}`, project);
    expect(r.stdout).not.toContain('reached');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Couldn't connect|Failed to connect/);
    expect(r.context).toContain('no network access');
  });

  it('the network is there when allowed', async () => {
    // Only the loopback of the host is reachable from the host's own net namespace: a sanity check of the option.
    const r = await runRouted(`curl -sS -m 5 ${url}`, project, { network: true });
    expect(r.stdout).toBe('reached');
  });

  it('a write in the project succeeds, and the file is there after', async () => {
    const r = await runRouted('echo made > made.txt && mkdir -p sub && echo deep > sub/deep.txt', project);
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(project, 'made.txt'), 'utf8')).toBe('made\n');
    expect(readFileSync(path.join(project, 'sub', 'deep.txt'), 'utf8')).toBe('deep\n');
  });

  it('a write outside the project fails (host /tmp read-only)', async () => {
    const r = await runRouted(`echo x > ${JSON.stringify(path.join(outside, 'escaped'))}; echo rc=$?`, project, { tmp: 'read-only' });
    expect(r.stdout).toBe('rc=1\n');
    expect(r.stderr).toContain('Read-only file system');
    expect(existsSync(path.join(outside, 'escaped'))).toBe(false);
  });

  it('a write outside the project never reaches the host (private /tmp)', async () => {
    const r = await runRouted(`echo x > /tmp/agent-hooks-private-probe && cat /tmp/agent-hooks-private-probe; echo $TMPDIR`, project);
    expect(r.stdout).toBe('x\n/tmp\n');
    expect(existsSync('/tmp/agent-hooks-private-probe')).toBe(false);
    expect(existsSync(outside)).toBe(true);
  });

  it('system folders are read-only and the home folder too', async () => {
    const r = await runRouted('touch /etc/agent-hooks-probe; echo rc=$?; touch "$HOME/agent-hooks-probe"; echo rc=$?', project);
    expect(r.stdout).toBe('rc=1\nrc=1\n');
    expect(existsSync('/etc/agent-hooks-probe')).toBe(false);
    expect(existsSync(path.join(os.homedir(), 'agent-hooks-probe'))).toBe(false);
  });

  it('cannot undo the read-only mounts from inside (remount, nested namespace, umount)', async () => {
    const target = path.join(outside, 'escaped');
    const r = await runRouted(
      [
        'mount -o remount,bind,rw / 2>/dev/null',
        `mount -o remount,bind,rw ${JSON.stringify(outside)} 2>/dev/null`,
        `unshare --user --map-root-user --mount sh -c 'mount -o remount,bind,rw / ; umount -l / ; echo x > ${JSON.stringify(target)}' 2>/dev/null`,
        `echo x > ${JSON.stringify(target)} 2>/dev/null`,
        'echo done',
      ].join('; '),
      project,
      { tmp: 'read-only' },
    );
    expect(r.stdout).toBe('done\n');
    expect(existsSync(target)).toBe(false);
  });

  it('extra writable folders are writable', async () => {
    const r = await runRouted(`echo x > ${JSON.stringify(path.join(outside, 'allowed'))}`, project, { writable: [outside] });
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(outside, 'allowed'), 'utf8')).toBe('x\n');
  });

  it('no disk devices and no host daemon sockets inside', async () => {
    const r = await runRouted('ls /dev | tr "\\n" " "; ls -A /run | wc -l', project);
    expect(r.stdout).toBe('fd full null random stderr stdin stdout tty urandom zero 0\n');
  });

  it('the exit code, stdout and stderr of the command come through; it starts in its cwd', async () => {
    mkdirSync(path.join(project, 'sub'));
    const r = await runRouted('pwd; echo err >&2; exit 7', project, {}, path.join(project, 'sub'));
    expect(r).toMatchObject({ code: 7, stdout: `${path.join(project, 'sub')}\n`, stderr: 'err\n' });
  });

  it('the command text is data: quotes, $( ), newlines and a fake end of the setup arguments', async () => {
    const command = `printf '%s|' "a'b" '$(touch /tmp/x)' -- "$(echo ok)"\necho "line2"`;
    const r = await runRouted(command, project);
    expect(r.stdout).toBe("a'b|$(touch /tmp/x)|--|ok|line2\n");
  });

  it('a project that does not exist: not routed, with the reason', async () => {
    const gone = path.join(root, 'gone');
    const routed = await routeToSandbox({ command: 'true' }, { use: ['unshare'] }, { projectDir: gone, cwd: gone, env: process.env });
    expect(routed).toEqual({ ok: false, reason: `the project folder ${gone} does not exist` });
  });

  it('a writable folder gone between the rewrite and the run: nothing runs, exit 125 and a message', async () => {
    const extra = path.join(root, 'extra');
    mkdirSync(extra);
    const routed = await routeToSandbox({ command: `echo ran > ${JSON.stringify(path.join(outside, 'ran'))}` }, { use: ['unshare'], writable: [extra], tmp: 'read-only' }, { projectDir: project, cwd: project, env: process.env });
    if (!routed.ok) throw new Error(routed.reason);
    rmSync(extra, { recursive: true });
    const r = await run('/bin/bash', ['-c', routed.updatedInput.command as string], project);
    expect(r.code).toBe(125);
    // The launcher finds it first: it cannot put the placeholders in it.
    expect(r.stderr).toMatch(new RegExp(`^agent-hooks sandbox: cannot make an empty placeholder folder at ${extra}/`));
    expect(existsSync(path.join(outside, 'ran'))).toBe(false);
  });

  it('a project folder with spaces and quotes in its name', async () => {
    const odd = path.join(root, `it's a "dir" $HOME`);
    mkdirSync(odd);
    const r = await runRouted('echo ok > f && pwd', odd);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${odd}\n`);
    expect(readFileSync(path.join(odd, 'f'), 'utf8')).toBe('ok\n');
  });

  it('a sandbox inside itself (the model wraps its own command) still holds', async () => {
    writeFileSync(path.join(project, 'inner.sh'), 'echo x > /etc/agent-hooks-probe 2>/dev/null; echo rc=$?; echo x > .git/hooks/post-commit 2>/dev/null || echo kept\n');
    // A repository: inside the outer sandbox its hooks are locked read-only mounts, which the inner one binds again.
    mkdirSync(path.join(project, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(project, '.git', 'config'), '[core]\n');
    const first = await routeToSandbox({ command: 'bash inner.sh' }, { use: ['unshare'] }, { projectDir: project, cwd: project, env: process.env });
    if (!first.ok) throw new Error(first.reason);
    const r = await runRouted(first.updatedInput.command as string, project);
    expect(r.stderr).not.toContain('agent-hooks sandbox');
    expect(r.stdout).toBe('rc=1\nkept\n');
  });
});
