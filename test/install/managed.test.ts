// install --managed: what it prints for an administrator, what it refuses, and (as root, on a machine
// of its own: test/lock/machine.ts) the locked setup it makes: a runner that another user runs with
// every switch set still blocks, and whose doctor says "locked: yes". A runner copy the user can write
// is the control: there the same switches do switch the guard off.
import { chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { cliInProcess, isolatedEnv, ROOT, runCli, tmpProject } from '../helpers.js';
import { machineUnavailable, makeMachine, type Machine } from '../lock/machine.js';

const NOBODY = { uid: 65534, gid: 65534 };
/** The CLI in this process, as runCli runs it (the checkout as cwd, an isolated home): for what it prints or refuses. */
const inProcess = (args: string[]) => cliInProcess(args, { cwd: ROOT, env: isolatedEnv(tmpProject()) });
const RM_HOME = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, cwd: '/tmp' });

describe('install --managed --print', () => {
  it('prints the runner install, the managed layer and the Claude Code managed settings, with an absolute node and no PATH lookup', () => {
    const { code, stdout } = runCli(['install', 'claude-code', '--managed', '--print', '--prefix', '/opt/ah', '--node', '/usr/bin/node']);
    expect(code).toBe(0);
    expect(stdout).toContain(`npm install -g --prefix /opt/ah agent-hooks@${VERSION}`);
    expect(stdout).toContain("cat > /etc/claude-code/managed-settings.json <<'AGENT_HOOKS_EOF'");
    const settings = JSON.parse(stdout.split("cat > /etc/claude-code/managed-settings.json <<'AGENT_HOOKS_EOF'\n")[1]!.split('\nAGENT_HOOKS_EOF')[0]!) as { allowManagedHooksOnly: boolean; hooks: Record<string, { hooks: { command: string; onFailure?: string }[] }[]> };
    expect(settings.allowManagedHooksOnly).toBe(true);
    const pre = settings.hooks.PreToolUse![0]!.hooks[0]!;
    expect(pre.command).toBe('/usr/bin/node /opt/ah/lib/node_modules/agent-hooks/bin/hooks.js run pre-tool-use --dialect claude-code --on-error block # agent-hooks');
    expect(pre.onFailure).toBe('block');
    expect(JSON.stringify(settings)).not.toMatch(/env node|agent-hooks-client|"type":"http"/);
    for (const groups of Object.values(settings.hooks)) expect(groups[0]!.hooks[0]!.command).toMatch(/^\/usr\/bin\/node \/opt\/ah\/lib\/node_modules\/agent-hooks\/bin\/hooks\.js run /);
    expect(stdout).toContain('"builtin": "command-safety"');
    // The locked runner's code cache, made by the installed runner as root (src/lock/code-cache.ts).
    expect(stdout).toContain('\n/usr/bin/node /opt/ah/lib/node_modules/agent-hooks/bin/hooks.js install claude-code --managed --code-cache --prefix /opt/ah --node /usr/bin/node\n');
  });

  it('prints Codex\'s requirements.toml and the hooks.json in its managed_dir, for review', async () => {
    const { code, stdout } = await inProcess(['install', 'codex', '--managed', '--print', '--prefix', '/opt/ah', '--node', '/usr/bin/node']);
    expect(code).toBe(0);
    expect(stdout).toContain("cat > /etc/codex/requirements.toml <<'AGENT_HOOKS_EOF'\nallow_managed_hooks_only = true\n\n[hooks]\nmanaged_dir = \"/etc/codex/hooks\"\nAGENT_HOOKS_EOF");
    expect(stdout).toContain('"command": "/usr/bin/node /opt/ah/lib/node_modules/agent-hooks/bin/hooks.js run pre-tool-use --dialect codex --on-error block # agent-hooks"');
    expect(stdout).toContain('# NOTE: the layout of Codex');
  });

  it('refuses what cannot be locked, and a node looked up on PATH, in one line', async () => {
    expect((await inProcess(['install', 'copilot', '--managed', '--print'])).stderr).toMatch(/^agent-hooks: install --managed: copilot: .*agents that can be locked: claude-code, cursor, codex\n$/);
    expect((await inProcess(['install', 'claude-code', '--managed', '--print', '--node', 'node'])).stderr).toContain('--node: node: give an absolute path');
    expect((await inProcess(['install', 'claude-code', '--managed', '--serve'])).stderr).toContain('--managed: --serve does not go with it');
    expect((await inProcess(['install', 'codex', '--managed'])).stderr).toContain('use --print');
    expect((await inProcess(['install', 'claude-code', '--print'])).stderr).toContain('--print, --code-cache, --prefix and --node go with --managed');
    expect((await inProcess(['install', 'claude-code', '--code-cache'])).stderr).toContain('go with --managed');
    expect((await inProcess(['install', 'claude-code', '--managed', '--code-cache', '--print'])).stderr).toContain('--print already prints the command that makes it');
  });
});

const unavailable = machineUnavailable();

describe.skipIf(unavailable !== undefined)('install claude-code --managed, as root', () => {
  let machine: Machine;
  let bin: string;
  let nobodyHome: string;
  const hooks = (argv: string[], env: Record<string, string> = {}) =>
    // HOME is a folder of uid 65534's own in the run's temporary folder (removed after the run), not /tmp, where
    // the runner's caches would outlive the run.
    machine.run(['/usr/bin/env', '-i', 'PATH=/usr/bin:/bin', `HOME=${nobodyHome}`, ...Object.entries(env).map(([k, v]) => `${k}=${v}`), '/usr/bin/node', bin, ...argv], { user: NOBODY, input: RM_HOME });

  beforeAll(async () => {
    nobodyHome = tmpProject();
    chownSync(nobodyHome, NOBODY.uid, NOBODY.gid);
    machine = makeMachine();
    bin = path.join(machine.prefix, 'lib', 'node_modules', 'agent-hooks', 'bin', 'hooks.js');
    const { code, stdout, stderr } = await machine.run(['/usr/bin/node', path.join(ROOT, 'bin', 'hooks.js'), 'install', 'claude-code', '--managed', '--prefix', machine.prefix, '--node', '/usr/bin/node']);
    expect(stderr + stdout, stderr).toContain('claude-code managed settings /etc/claude-code/managed-settings.json written');
    expect(code).toBe(0);
  }, 60_000);
  afterAll(() => machine?.remove());

  it('writes root-owned files no one else may write, and a runner tree with nothing writable by group or others', () => {
    for (const f of ['claude-code/managed-settings.json', 'agent-hooks/managed.json']) {
      const stats = statSync(machine.etc(f));
      expect([stats.uid, stats.mode & 0o777]).toEqual([0, 0o644]);
    }
    const open: string[] = [];
    const walk = (p: string) => {
      const s = lstatSync(p);
      if ((s.mode & 0o022) !== 0 || s.uid !== 0) open.push(p);
      if (s.isDirectory()) for (const e of readdirSync(p)) walk(path.join(p, e));
    };
    walk(machine.prefix);
    expect(open).toEqual([]);
    expect(JSON.parse(readFileSync(machine.etc('claude-code/managed-settings.json'), 'utf8')).allowManagedHooksOnly).toBe(true);
  });

  it('another user\'s runner blocks rm -rf ~ with every switch set, and says what the switches did', async () => {
    const r = await hooks(['run', 'pre-tool-use', '--dialect', 'claude-code', '--on-error', 'block'], {
      HOOKS_DISABLE: '1',
      HOOKS_SKIP: 'command-safety,sensitive-paths',
      AGENT_HOOKS_MANAGED_CONFIG: '/tmp/none.json',
      XDG_CACHE_HOME: path.join(nobodyHome, 'elsewhere'),
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain('"permissionDecision":"deny"');
    expect(r.stdout).toContain('this runner is locked: HOOKS_DISABLE and HOOKS_SKIP switch off user and project hooks only');
  });

  it('its doctor says locked: yes', async () => {
    const r = await hooks(['doctor']);
    expect(r.stdout).toContain('locked: yes (claude-code)');
    const json = JSON.parse((await hooks(['doctor', '--json'])).stdout) as { locked: { locked: boolean; reasons: string[] } };
    expect(json.locked.locked).toBe(true);
  });

  it('its managed layer extends a file no user but root can change, and refuses one the user could replace, saying why', async () => {
    const managed = machine.etc('agent-hooks/managed.json');
    const original = readFileSync(managed, 'utf8');
    const policy = (id: string) => JSON.stringify({ hooks: { preToolUse: [{ id, command: 'true' }] } });
    const rootDir = path.join(machine.root, 'policies');
    const userDir = path.join(machine.root, 'user-policies');
    for (const dir of [rootDir, userDir]) mkdirSync(dir, { mode: 0o755 });
    writeFileSync(path.join(rootDir, 'team.json'), policy('team-policy'), { mode: 0o644 });
    // Root's file, but in a folder of the user's: they can rename it away and put their own in its place.
    writeFileSync(path.join(userDir, 'team.json'), policy('replaceable-policy'), { mode: 0o644 });
    chownSync(userDir, NOBODY.uid, NOBODY.gid);
    writeFileSync(managed, JSON.stringify({ ...JSON.parse(original), extends: [path.join(rootDir, 'team.json'), path.join(userDir, 'team.json')] }), { mode: 0o644 });
    try {
      const r = await hooks(['list', '--json']);
      const ids = (JSON.parse(r.stdout) as { hooks: { id: string }[] }).hooks.map((h) => h.id);
      expect(ids, r.stderr).toContain('team-policy');
      expect(ids).not.toContain('replaceable-policy');
      expect(r.stdout + r.stderr).toContain(`${path.join(userDir, 'team.json')} is yours to change (folder ${userDir} is yours (uid 65534)`);
    } finally {
      writeFileSync(managed, original, { mode: 0o644 });
    }
  });

  it('control: with the runner\'s bundle the user\'s, it is not locked, and HOOKS_DISABLE switches everything off', async () => {
    const bundle = path.join(machine.prefix, 'lib', 'node_modules', 'agent-hooks', 'dist', 'bundle', 'cli.cjs');
    chownSync(bundle, NOBODY.uid, NOBODY.gid);
    try {
      const r = await hooks(['run', 'pre-tool-use', '--dialect', 'claude-code'], { HOOKS_DISABLE: '1' });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('disabled by HOOKS_DISABLE');
      const doctor = await hooks(['doctor']);
      expect(doctor.stdout).toContain('locked: no');
      expect(doctor.stdout).toContain(`runner ${path.join(machine.prefix, 'lib', 'node_modules', 'agent-hooks')}: is yours (uid 65534), so you can change it`);
    } finally {
      chownSync(bundle, 0, 0);
    }
  });
});
