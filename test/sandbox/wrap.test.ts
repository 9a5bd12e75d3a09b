// The rewritten command lines: built from untrusted input (the agent's command, the folders), so the
// command must reach the sandbox as exactly the argv it was, whatever bytes it holds. Checked through
// a real bash with fake sandbox programs on PATH that print the argv they got.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forgetDetected, routeToSandbox, shellJoin, shellQuote, wrapArgv, type SandboxPlan } from '../../src/sandbox/index.js';
import { LAUNCH, LAUNCH_NAME } from '../../src/sandbox/launch.js';
import type { Mount } from '../../src/sandbox/protect.js';

const params = { seed: 20261122, numRuns: 60, interruptAfterTimeLimit: 15_000 };
const bin = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-fake-sandbox-'));
for (const name of ['bwrap', 'unshare', 'docker']) {
  writeFileSync(path.join(bin, name), '#!/bin/sh\nprintf \'%s\\0\' "$0" "$@"\n');
  chmodSync(path.join(bin, name), 0o755);
}
const empty = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-empty-path-'));

/** The argv a bash running `line` hands to the program it starts. */
function argvOf(line: string): string[] {
  const r = spawnSync('/bin/bash', ['-c', line], { encoding: 'utf8', env: { PATH: `${bin}:/usr/bin:/bin` } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

// Any text but NUL (which no argv can hold), from the whole of Unicode.
const word = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(/\0/g, ''));
const folder = fc.array(fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map((s) => s.replace(/[\0-\x1f\x7f/]/g, '') || 'x'), { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`);

describe('shellQuote', () => {
  it('one word in, the same word out, through a real bash (property)', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 6 }), (words) => {
        expect(argvOf(`${shellQuote(path.join(bin, 'bwrap'))} ${shellJoin(words)}`).slice(1)).toEqual(words);
      }),
      params,
    );
  });

  it('quotes what a shell would read as code', () => {
    for (const w of ['', 'a b', '$(id)', '`id`', "it's", '*', '~', 'a;b', 'a\nb', '-', '!x']) expect(argvOf(`${path.join(bin, 'bwrap')} ${shellQuote(w)}`)[1]).toBe(w);
  });
});

describe('routeToSandbox command lines', () => {
  beforeEach(() => forgetDetected());
  const env = { PATH: bin, HOME: '/home/nobody-here' };
  // Real folders: what is writable must exist, and what is kept read-only in it is found there.
  const base = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-wrap-'));
  const p = path.join(base, 'p');
  mkdirSync(path.join(p, 'sub'), { recursive: true });

  it.each(['bwrap', 'unshare'] as const)('%s: the agent command arrives as the last argument, exactly (property)', async (kind) => {
    await fc.assert(
      fc.asyncProperty(word, folder, folder, async (command, projectName, extraName) => {
        const project = path.join(base, 'prop', projectName);
        const extra = path.join(base, 'extra', extraName);
        for (const dir of [project, extra]) mkdirSync(dir, { recursive: true });
        const routed = await routeToSandbox({ command, description: 'keep me' }, { use: [kind], writable: [extra] }, { projectDir: project, cwd: project, env });
        expect(routed.ok, routed.ok ? '' : routed.reason).toBe(true);
        if (!routed.ok) return;
        expect(routed.updatedInput.description).toBe('keep me');
        const argv = argvOf(routed.updatedInput.command as string);
        expect(argv[0]).toBe(path.join(bin, kind));
        expect(argv.slice(-4)).toEqual(['--', '/bin/bash', '-c', command]);
        // The folders travel as whole arguments too.
        expect(argv.some((a) => a === project || a === `w:${project}`)).toBe(true);
        expect(argv.some((a) => a === extra || a === `w:${extra}`)).toBe(true);
      }),
      params,
    );
  });

  it('an argv command stays an argv, wrapped (in the launcher that makes the placeholders)', async () => {
    const routed = await routeToSandbox({ command: ['python3', '-c', 'print(1)'] }, { use: ['bwrap'] }, { projectDir: p, cwd: path.join(p, 'sub'), env });
    if (!routed.ok) throw new Error(routed.reason);
    const argv = routed.updatedInput.command as string[];
    expect(argv.slice(0, 4)).toEqual(['/bin/sh', '-c', LAUNCH, LAUNCH_NAME]);
    const sandbox = argv.slice(argv.indexOf('--') + 1);
    expect(sandbox.slice(0, 11)).toEqual([path.join(bin, 'bwrap'), '--die-with-parent', '--new-session', '--unshare-all', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']);
    expect(sandbox.join(' ')).toContain(`--tmpfs /tmp --setenv TMPDIR /tmp --bind ${p} ${p} `);
    expect(sandbox.slice(-8)).toEqual(['--unsetenv', 'SSH_AUTH_SOCK', '--chdir', path.join(p, 'sub'), '--', 'python3', '-c', 'print(1)']);
  });

  it('bwrap with the network allowed and the host /tmp read-only', () => {
    const plan: SandboxPlan = { kind: 'bwrap', binary: '/usr/bin/bwrap', cwd: '/p', writable: ['/p', '/cache'], network: true, tmp: 'read-only', uid: 1000, gid: 1000 };
    expect(wrapArgv(plan, ['make'])).toEqual([
      '/bin/sh', '-c', LAUNCH, LAUNCH_NAME, '0', '--',
      '/usr/bin/bwrap', '--die-with-parent', '--new-session', '--unshare-all', '--share-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc',
      '--tmpfs', '/run', '--bind', '/p', '/p', '--bind', '/cache', '/cache', '--unsetenv', 'SSH_AUTH_SOCK', '--chdir', '/p', '--', 'make',
    ]);
  });

  it('each mount of the plan, in order, for bwrap, unshare and docker; placeholders go to the launcher', () => {
    const mounts: Mount[] = [
      { kind: 'pin', path: '/p/.git' },
      { kind: 'ro', path: '/p/.git/config' },
      { kind: 'dir', path: '/p/.git/hooks' },
      { kind: 'file', path: '/p/.envrc' },
      { kind: 'hide', path: '/h/state' },
      { kind: 'hide-file', path: '/h/.claude.json' },
    ];
    const plan: SandboxPlan = { kind: 'bwrap', binary: '/usr/bin/bwrap', cwd: '/p', writable: ['/p'], mounts, network: false, tmp: 'read-only', uid: 1000, gid: 1000, image: 'img' };
    const bwrap = wrapArgv(plan, ['make']);
    expect(bwrap.slice(4, 10)).toEqual(['4', 'd', '/p/.git/hooks', 'f', '/p/.envrc', '--']);
    expect(bwrap.join(' ')).toContain(
      '--bind /p /p --bind /p/.git /p/.git --ro-bind /p/.git/config /p/.git/config --ro-bind /p/.git/hooks /p/.git/hooks --ro-bind /p/.envrc /p/.envrc ' +
        '--perms 0555 --tmpfs /h/state --remount-ro /h/state --ro-bind /dev/null /h/.claude.json --unsetenv',
    );
    const unshare = wrapArgv({ ...plan, kind: 'unshare' }, ['make']);
    expect(unshare.slice(unshare.indexOf('agent-hooks-sandbox'))).toEqual([
      'agent-hooks-sandbox', 'read-only', '/p', '1000', '1000', '/usr/bin/bwrap', '7', 'w:/p', 'p:/p/.git', 'r:/p/.git/config', 'r:/p/.git/hooks', 'r:/p/.envrc', 'h:/h/state', 'h:/h/.claude.json', '--', 'make',
    ]);
    const docker = wrapArgv({ ...plan, kind: 'docker' }, ['make']).join(' ');
    expect(docker).toContain('--mount type=bind,source=/p,target=/p --mount type=bind,source=/p/.git,target=/p/.git --mount type=bind,source=/p/.git/config,target=/p/.git/config,readonly');
    expect(docker).not.toContain('/h/');
  });

  it('unshare: no --net when the network is allowed; the folders are counted', () => {
    const plan: SandboxPlan = { kind: 'unshare', binary: '/usr/bin/unshare', cwd: '/p', writable: ['/p', '/c'], network: true, tmp: 'private', uid: 1000, gid: 100 };
    const argv = wrapArgv(plan, ['make']).slice(6);
    expect(argv).not.toContain('--net');
    expect(argv.slice(0, 10)).toEqual(['/usr/bin/unshare', '--user', '--map-root-user', '--mount', '--pid', '--fork', '--kill-child', '--ipc', '--uts', '--']);
    expect(argv.slice(13)).toEqual(['agent-hooks-sandbox', 'private', '/p', '1000', '100', '/usr/bin/unshare', '2', 'w:/p', 'w:/c', '--', 'make']);
    expect(wrapArgv({ ...plan, network: false }, ['make'])).toContain('--net');
  });

  describe('docker', () => {
    let server: net.Server;
    const socket = path.join(mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-docker-')), 'docker.sock');
    beforeAll(async () => {
      server = net.createServer((c) => c.end());
      await new Promise<void>((resolve) => server.listen(socket, resolve));
    });
    afterAll(() => server.close());

    it('runs in the configured image, no network, read-only, as the caller', async () => {
      const routed = await routeToSandbox({ command: 'make test' }, { use: ['docker'], docker: { image: 'node:20' } }, { projectDir: p, cwd: p, env: { ...env, DOCKER_HOST: `unix://${socket}` } });
      expect(routed.ok).toBe(true);
      if (!routed.ok) return;
      const uid = process.getuid!();
      const gid = process.getgid!();
      expect(argvOf(routed.updatedInput.command as string)).toEqual([
        path.join(bin, 'docker'), 'run', '--rm', '-i', '--init', '--network', 'none', '--read-only', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges',
        '--user', `${uid}:${gid}`, '--tmpfs', '/tmp', '--env', 'TMPDIR=/tmp', '--mount', `type=bind,source=${p},target=${p}`,
        // The placeholders the launcher made for the run, bound read-only.
        ...['.claude', '.codex', '.cursor', '.envrc', '.gemini', '.git', '.github', '.vscode'].flatMap((name) => ['--mount', `type=bind,source=${p}/${name},target=${p}/${name},readonly`]),
        '--workdir', p, 'node:20', '/bin/bash', '-c', 'make test',
      ]);
      expect(routed.context).toContain("image's (node:20)");
    });

    it('a folder that would smuggle mount options into --mount is refused', async () => {
      const odd = path.join(base, 'p,target=etc');
      mkdirSync(odd);
      const routed = await routeToSandbox({ command: 'x' }, { use: ['docker'], docker: { image: 'node:20' } }, { projectDir: odd, cwd: odd, env: { ...env, DOCKER_HOST: `unix://${socket}` } });
      expect(routed).toEqual({ ok: false, reason: expect.stringContaining("docker's --mount cannot take") });
    });

    it('a daemon that is not running: not present', async () => {
      const routed = await routeToSandbox({ command: 'x' }, { use: ['docker'], docker: { image: 'node:20' } }, { projectDir: p, cwd: p, env: { ...env, DOCKER_HOST: `unix://${socket}.gone` } });
      expect(routed).toEqual({ ok: false, reason: expect.stringMatching(/^no sandbox is available \(the docker daemon is not running \(unix:\/\/.*ENOENT\)\)$/) });
    });
  });

  it('nothing present: not routed, and the reason names each sandbox tried', async () => {
    const routed = await routeToSandbox({ command: 'curl x' }, {}, { projectDir: p, cwd: p, env: { PATH: empty } });
    expect(routed).toEqual({ ok: false, reason: 'no sandbox is available (bwrap is not on PATH; unshare is not on PATH)' });
    const withDocker = await routeToSandbox({ command: 'curl x' }, { use: ['docker', 'bwrap'] }, { projectDir: p, cwd: p, env: { PATH: empty } });
    expect(withDocker).toEqual({ ok: false, reason: 'no sandbox is available (docker is not configured (options.docker.image); bwrap is not on PATH)' });
  });

  it('a relative PATH entry is never searched (a repository could plant a fake sandbox there)', async () => {
    const routed = await routeToSandbox({ command: 'x' }, { use: ['bwrap'] }, { projectDir: p, cwd: p, env: { PATH: path.relative(process.cwd(), bin) } });
    expect(routed.ok).toBe(false);
  });

  it('a sandbox program inside the project, or writable by others, is never used (a repository could plant one)', async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-planted-'));
    const planted = path.join(project, 'node_modules', '.bin');
    mkdirSync(planted, { recursive: true });
    writeFileSync(path.join(planted, 'bwrap'), '#!/bin/sh\nexec "$@"\n');
    chmodSync(path.join(planted, 'bwrap'), 0o755);
    const routed = await routeToSandbox({ command: 'x' }, { use: ['bwrap'] }, { projectDir: project, cwd: project, env: { PATH: planted } });
    expect(routed).toEqual({ ok: false, reason: 'no sandbox is available (bwrap is not on PATH)' });
    const shared = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-shared-bin-'));
    writeFileSync(path.join(shared, 'bwrap'), '#!/bin/sh\nexec "$@"\n');
    chmodSync(path.join(shared, 'bwrap'), 0o777);
    forgetDetected();
    expect((await routeToSandbox({ command: 'x' }, { use: ['bwrap'] }, { projectDir: p, cwd: p, env: { PATH: shared } })).ok).toBe(false);
  });

  it('the order of `use` decides; the first present wins', async () => {
    const routed = await routeToSandbox({ command: 'x' }, { use: ['unshare', 'bwrap'] }, { projectDir: p, cwd: p, env });
    expect(routed.ok && routed.kind).toBe('unshare');
  });

  it.each([
    ['/', 'the folder / is /'],
    ['/home', 'the folder /home holds your home folder (/home/nobody-here)'],
    ['/etc', 'the folder /etc is /etc (a system folder)'],
    ['/usr/lib', 'the folder /usr/lib lies inside /usr (a system folder)'],
  ])('refuses to make %s writable', async (projectDir, reason) => {
    const routed = await routeToSandbox({ command: 'x' }, {}, { projectDir, cwd: projectDir, env });
    expect(routed).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });

  it("refuses node's folder and a global agent-hooks install under npm's prefix, also through a link", async () => {
    const node = path.dirname(process.execPath);
    // Refused as node's folder; or, where that node itself lives inside this checkout (CI's other Node
    // lines, cached under node_modules/.cache), as the running install: either way never writable.
    expect(await routeToSandbox({ command: 'x' }, {}, { projectDir: node, cwd: node, env })).toEqual({ ok: false, reason: expect.stringMatching(/\((the folder of the node that runs agent-hooks|the running agent-hooks install)\)/) });
    const prefix = path.join(base, 'npm-prefix');
    const global = path.join(prefix, 'lib', 'node_modules', 'agent-hooks');
    mkdirSync(path.join(global, 'bin'), { recursive: true });
    const link = path.join(base, 'looks-like-a-project');
    symlinkSync(global, link);
    for (const projectDir of [global, path.join(global, 'bin'), link]) {
      const routed = await routeToSandbox({ command: 'x' }, {}, { projectDir, cwd: projectDir, env: { ...env, npm_config_prefix: prefix } });
      expect(routed).toEqual({ ok: false, reason: expect.stringContaining(`${global} (the global agent-hooks install), which the host runs or keeps secrets in`) });
    }
  });

  it('a command that is neither a string nor an argv is not routed', async () => {
    for (const command of [42, null, [], ['a', 1]]) {
      expect((await routeToSandbox({ command }, {}, { projectDir: p, cwd: p, env })).ok).toBe(false);
    }
  });
});
