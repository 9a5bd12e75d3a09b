// What the host runs stays out of the sandbox's reach, for real: a project with a trusted hook script,
// a git repository, the project's own agent-hooks and a running server's socket and token; commands
// routed into bwrap and into unshare (as root, and as an ordinary user through setpriv) try to plant
// code the host would run and to reach the server, and each attempt fails; the host's files are as
// they were after, and nothing the sandbox put in place for the run is left behind.
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetDetected, routeToSandbox, type SandboxKind } from '../../src/sandbox/index.js';
import { servePaths } from '../../src/serve/paths.js';

const UID = 65534;
const asRoot = process.getuid?.() === 0;

/** bwrap is installed for these tests when it is missing and we may (root, apt); else its cases skip, saying why. */
function bwrapPresent(): string | undefined {
  if (spawnSync('bwrap', ['--version']).status === 0) return undefined;
  if (!asRoot) return 'bwrap is not installed and the tests do not run as root (cannot apt-get install bubblewrap)';
  const install = spawnSync('apt-get', ['install', '-y', 'bubblewrap'], { encoding: 'utf8', timeout: 300_000 });
  if (install.status !== 0) spawnSync('sh', ['-c', 'apt-get update && apt-get install -y bubblewrap'], { timeout: 300_000 });
  return spawnSync('bwrap', ['--version']).status === 0 ? undefined : 'bwrap is not installed and apt-get install bubblewrap failed';
}

const works = (kind: SandboxKind, uid?: number) => {
  const probe = kind === 'bwrap' ? ['bwrap', '--ro-bind', '/', '/', '--unshare-all', 'true'] : ['unshare', '--user', '--map-root-user', '--mount', '--net', 'true'];
  const argv = uid === undefined ? probe : ['setpriv', '--reuid', String(uid), '--regid', String(uid), '--clear-groups', ...probe];
  return spawnSync(argv[0]!, argv.slice(1)).status === 0;
};

const bwrapMissing = bwrapPresent();
if (bwrapMissing !== undefined) console.warn(`sandbox/keeps: bwrap cases skipped: ${bwrapMissing}`);

const cases: { kind: SandboxKind; uid?: number; skip: boolean }[] = [
  { kind: 'unshare', skip: !works('unshare') },
  { kind: 'bwrap', skip: bwrapMissing !== undefined || !works('bwrap') },
  { kind: 'unshare', uid: UID, skip: !asRoot || !works('unshare', UID) },
  { kind: 'bwrap', uid: UID, skip: !asRoot || bwrapMissing !== undefined || !works('bwrap', UID) },
];

function run(command: string, cwd: string, env: NodeJS.ProcessEnv, uid?: number): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = uid === undefined ? ['/bin/bash', '-c', command] : ['setpriv', '--reuid', String(uid), '--regid', String(uid), '--clear-groups', '/bin/bash', '-c', command];
  return new Promise((resolve) => {
    execFile(argv[0]!, argv.slice(1), { cwd, env, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

/** Every path under `dir` with its kind and bytes: what "as they were" means. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = lstatSync(p);
      const rel = path.relative(dir, p);
      if (st.isSymbolicLink()) out[rel] = `link`;
      else if (st.isDirectory()) {
        out[rel] = 'dir';
        walk(p);
      } else out[rel] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe.each(cases)('$kind as uid $uid: what the host runs stays out of reach (real)', ({ kind, uid, skip }) => {
  let root: string;
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let server: net.Server;
  let connections = 0;
  let token: string;
  let socket: string;

  beforeAll(async () => {
    if (skip) return;
    root = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-keeps-'));
    chmodSync(root, 0o755);
    home = path.join(root, 'home');
    project = path.join(root, 'project');
    const runtime = path.join(root, 'run');
    env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_RUNTIME_DIR: runtime };
    const files: Record<string, string> = {
      'project/.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ command: 'bash hooks/guard.sh' }, { command: 'python3 ./tools/check.py' }] } }),
      'project/hooks/guard.sh': 'echo trusted\n',
      'project/tools/check.py': 'print("trusted")\n',
      'project/.git/HEAD': 'ref: refs/heads/main\n',
      'project/.git/config': '[core]\n\tbare = false\n\thooksPath = .husky/_\n[include]\n\tpath = ../.gitconfig.shared\n',
      'project/.gitconfig.shared': '[user]\n\tname = dev\n',
      'project/.husky/_/h': '#!/bin/sh\n',
      'project/.husky/pre-commit': 'npm test\n',
      'project/lefthook.yml': 'pre-commit: {}\n',
      'project/.git/hooks/pre-commit.sample': '#!/bin/sh\n',
      'project/package.json': JSON.stringify({ name: 'p', devDependencies: { 'agent-hooks': '*' } }),
      'project/node_modules/agent-hooks/bin/hooks.js': '// the real runner\n',
      'project/src/app.js': 'app\n',
      'home/.claude/settings.json': '{"hooks":{}}\n',
      'home/.config/agent-hooks/config.json': '{}\n',
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    }
    mkdirSync(path.join(project, 'node_modules', '.bin'));
    symlinkSync('../agent-hooks/bin/hooks.js', path.join(project, 'node_modules', '.bin', 'agent-hooks'));
    // The server's files where `hooks serve` keeps them: a token, and a socket that answers.
    const serve = servePaths(env);
    mkdirSync(serve.dir, { recursive: true, mode: 0o700 });
    mkdirSync(path.dirname(serve.socket), { recursive: true, mode: 0o700 });
    token = 'f'.repeat(64); // fake
    writeFileSync(serve.token, `${token}\n`, { mode: 0o600 });
    socket = serve.socket;
    server = net.createServer((c) => {
      connections++;
      c.end('answered\n');
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    if (uid !== undefined) spawnSync('chown', ['-R', `${uid}:${uid}`, home, project, runtime]);
    if (uid !== undefined) chownSync(socket, uid, uid);
  });
  afterAll(() => server?.close());

  /** Routes `command` as the guard would and runs it as the agent would; tmp read-only, so the host's /tmp (where all this lives) is in view. */
  async function routed(command: string, cwd = project) {
    forgetDetected();
    const r = await routeToSandbox({ command }, { use: [kind], tmp: 'read-only' }, { projectDir: project, cwd, env });
    if (!r.ok) throw new Error(r.reason);
    return run(r.updatedInput.command as string, project, env, uid);
  }

  it.skipIf(skip)('cannot write a hook script, a config, git hooks or config, the runner, .envrc, an agent setting; nor rename their folders away', async () => {
    const before = snapshot(project);
    const attempts: [string, string][] = [
      ['hook script', 'echo evil > hooks/guard.sh'],
      ['script beside it', 'echo evil > hooks/helper.sh'],
      ['python script', 'echo evil > tools/check.py'],
      ['config', 'echo "{}" > .hooksrc.json'],
      ['post-commit', 'echo evil > .git/hooks/post-commit'],
      ['git config', 'printf "[core]\\n\\tfsmonitor = evil\\n" >> .git/config'],
      ['included git config', 'printf "[core]\\n\\tfsmonitor = evil\\n" >> .gitconfig.shared'],
      ['husky hook', 'echo evil > .husky/pre-commit'],
      ['new husky hook', 'echo evil > .husky/pre-push'],
      ['lefthook config', 'echo "pre-commit: {commands: {x: {run: evil}}}" > lefthook.yml'],
      ['runner link', 'ln -sfn /tmp/evil node_modules/.bin/agent-hooks'],
      ['runner', 'echo evil > node_modules/agent-hooks/bin/hooks.js'],
      ['envrc', 'echo evil > .envrc'],
      ['claude settings', 'mkdir -p .claude && echo evil > .claude/settings.json'],
      ['codex', 'mkdir -p .codex && echo evil > .codex/hooks.json'],
      ['copilot hooks', 'mkdir -p .github/hooks && echo evil > .github/hooks/hooks.json'],
      ['rename .git', 'mv .git .git-away'],
      ['rename .husky', 'mv .husky husky-away'],
      ['rename hooks/', 'mv hooks hooks-away'],
      ['rename node_modules', 'mv node_modules nm-away'],
      ['remove the config', 'rm -f .hooksrc.json'],
    ];
    const script = attempts.map(([what, c]) => `if (${c}) 2>/dev/null; then echo "WROTE ${what}"; else echo "kept ${what}"; fi`).join('\n');
    const r = await routed(`${script}\necho ordinary > src/made.txt && echo wrote-ordinary`);
    expect(r.stderr).not.toMatch(/agent-hooks sandbox/);
    expect(r.stdout.trim().split('\n')).toEqual([...attempts.map(([what]) => `kept ${what}`), 'wrote-ordinary']);
    // The host's files are as they were; the ordinary write went through; no placeholder is left.
    const after = snapshot(project);
    expect(after['src/made.txt']).toBe('ordinary\n');
    delete after['src/made.txt'];
    expect(after).toEqual(before);
  });

  it.skipIf(skip)("cannot read the server's token or reach its socket, nor read the agents' settings under home", async () => {
    const serve = servePaths(env);
    const before = connections;
    const r = await routed(
      [
        `cat ${JSON.stringify(serve.token)} 2>/dev/null || echo no-token`,
        `ls ${JSON.stringify(serve.dir)} | wc -l`,
        `python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.recv(99).decode().strip())' ${JSON.stringify(socket)} 2>/dev/null || echo no-socket`,
        `cat ${JSON.stringify(path.join(home, '.claude', 'settings.json'))} 2>/dev/null || echo no-claude`,
        `cat ${JSON.stringify(path.join(home, '.config', 'agent-hooks', 'config.json'))} 2>/dev/null || echo no-config`,
      ].join('\n'),
    );
    expect(r.stdout).toBe('no-token\n0\nno-socket\nno-claude\nno-config\n');
    expect(connections).toBe(before);
    // The same reads outside the sandbox work: the test would see them.
    expect(readFileSync(serve.token, 'utf8')).toBe(`${token}\n`);
  });

  it.skipIf(skip)('ordinary work goes on: the project, its sources and git objects are writable, and the command starts in its folder', async () => {
    mkdirSync(path.join(project, 'src', 'deep'), { recursive: true });
    if (uid !== undefined) spawnSync('chown', ['-R', `${uid}:${uid}`, path.join(project, 'src')]);
    const git = JSON.stringify(path.join(project, '.git'));
    const r = await routed(`pwd; echo x > new.txt && mkdir -p ${git}/objects/ab && echo o > ${git}/objects/ab/cd && echo ok`, path.join(project, 'src', 'deep'));
    expect(r.stdout).toBe(`${path.join(project, 'src', 'deep')}\nok\n`);
    expect(readFileSync(path.join(project, 'src', 'deep', 'new.txt'), 'utf8')).toBe('x\n');
    expect(existsSync(path.join(project, '.git', 'objects', 'ab', 'cd'))).toBe(true);
  });
});
