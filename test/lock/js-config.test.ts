// A locked runner never imports a JavaScript config but the managed one (which must be JSON or YAML
// anyway): a project config's top-level code would run inside the process that runs the managed hooks.
// As root, on a machine of its own (machine.ts), a locked install run by another user (nobody) whose
// trusted `.hooksrc.mjs` silences the runner or never returns: the managed guard still denies, and the
// agent's channel says why the file was switched off. A runner file of the user's is the control: there
// the same config does silence it.
import { chownSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/engine.js';
import { ROOT, isolatedEnv, tmpProject } from '../helpers.js';
import { machineUnavailable, makeMachine, type Machine } from './machine.js';

const NOBODY = { uid: 65534, gid: 65534 };
const REFUSAL = 'a locked runner never imports a JavaScript config: its code would run inside the runner that runs the managed hooks; use JSON or YAML';
const unavailable = machineUnavailable();

describe.skipIf(unavailable !== undefined)('a locked runner and a JavaScript project config', () => {
  let machine: Machine;
  let bin: string;
  let home: string;

  /** A folder of nobody's under its home, as root creates it. */
  const ownDir = (dir: string) => {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chownSync(dir, NOBODY.uid, NOBODY.gid);
  };
  /** A project of nobody's with `fixture` as its `.hooksrc.mjs`, trusted by nobody with the locked runner's own `hooks trust`. */
  const project = async (name: string, fixture: string) => {
    const dir = path.join(home, name);
    ownDir(dir);
    ownDir(path.join(dir, '.git'));
    const file = path.join(dir, '.hooksrc.mjs');
    copyFileSync(path.join(ROOT, 'test', 'fixtures', 'lock', fixture), file);
    chownSync(file, NOBODY.uid, NOBODY.gid);
    const trusted = await hooks(['trust', '--yes'], dir);
    expect(trusted.code, trusted.stderr).toBe(0);
    return dir;
  };
  const hooks = (argv: string[], cwd: string, options: { input?: string; timeoutMs?: number } = {}) =>
    machine.run(['/usr/bin/env', '-i', 'PATH=/usr/bin:/bin', `HOME=${home}`, '/usr/bin/node', bin, ...argv], { user: NOBODY, cwd, ...options });
  const rmHome = (cwd: string) => JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, cwd });
  const runEvent = (cwd: string, timeoutMs = 60_000) => hooks(['run', 'pre-tool-use', '--dialect', 'claude-code', '--on-error', 'block'], cwd, { input: rmHome(cwd), timeoutMs });

  beforeAll(async () => {
    machine = makeMachine();
    bin = path.join(machine.prefix, 'lib', 'node_modules', 'agent-hooks', 'bin', 'hooks.js');
    home = path.join(machine.root, 'home');
    ownDir(home);
    const { code, stdout, stderr } = await machine.run(['/usr/bin/node', path.join(ROOT, 'bin', 'hooks.js'), 'install', 'claude-code', '--managed', '--prefix', machine.prefix, '--node', '/usr/bin/node']);
    expect(stderr + stdout, stderr).toContain('claude-code managed settings /etc/claude-code/managed-settings.json written');
    expect(code).toBe(0);
  }, 60_000);
  afterAll(() => machine?.remove());

  it('a trusted .hooksrc.mjs that patches process.exit and swallows fd 1 and 2 is not imported: the managed guard denies, and the warning names the file', async () => {
    const dir = await project('silencing', 'silencing.hooksrc.mjs');
    const r = await runEvent(dir);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain('"permissionDecision":"deny"');
    expect(r.stdout + r.stderr).toContain(`${path.join(dir, '.hooksrc.mjs')}: ${REFUSAL}`);
  }, 60_000);

  it('a trusted .hooksrc.mjs that never returns does not hang the runner: the managed guard denies at once', async () => {
    const dir = await project('looping', 'looping.hooksrc.mjs');
    const started = Date.now();
    // A runner that hung on the loop is killed at 90 s and has no exit code 2: the answer itself is the proof,
    // and the ceiling only tells a hang from a busy machine (a CLI start alone took 3 s of wall clock at load 20).
    const r = await runEvent(dir, 90_000);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain('"permissionDecision":"deny"');
    expect(r.stdout + r.stderr).toContain(REFUSAL);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);

  it('control: with the runner\'s bundle the user\'s (not locked), the same trusted config is imported and silences the runner', async () => {
    const dir = await project('control', 'silencing.hooksrc.mjs');
    const bundle = path.join(machine.prefix, 'lib', 'node_modules', 'agent-hooks', 'dist', 'bundle', 'cli.cjs');
    chownSync(bundle, NOBODY.uid, NOBODY.gid);
    try {
      const r = await runEvent(dir);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    } finally {
      chownSync(bundle, 0, 0);
    }
  }, 60_000);
});

describe('a locked load and a JavaScript config (in process)', () => {
  /** A config whose import leaves a file beside it: whether its code ran at all. */
  const JS = "import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('./imported', import.meta.url), '');\nexport default { hooks: { preToolUse: [{ id: 'js-hook', command: 'true' }] } };\n";
  const setup = () => {
    const home = tmpProject({ '.git/HEAD': '', 'hooks.config.mjs': JS, 'other/config.mjs': JS });
    return { home, env: isolatedEnv(home) };
  };

  it('a trusted searched .mjs and a --config .mjs are switched off with the refusal, never imported', async () => {
    const { home, env } = setup();
    const searched = await loadConfig({ cwd: home, env, locked: true });
    expect(searched.hooks.map((h) => h.id)).not.toContain('js-hook');
    expect(searched.warnings).toContain(`${path.join(home, 'hooks.config.mjs')}: ${REFUSAL}; its hooks do not run (the user and managed layers still do)`);
    const chosen = await loadConfig({ cwd: home, env, locked: true, configFile: 'other/config.mjs' });
    expect(chosen.hooks.map((h) => h.id)).not.toContain('js-hook');
    expect(chosen.warnings.join('\n')).toContain(`${path.join(home, 'other', 'config.mjs')}: ${REFUSAL}`);
    expect([existsSync(path.join(home, 'imported')), existsSync(path.join(home, 'other', 'imported'))]).toEqual([false, false]);
  });

  it('unlocked, nothing changes: the trusted .mjs is imported and its hook runs', async () => {
    const { home, env } = setup();
    const config = await loadConfig({ cwd: home, env, locked: false });
    expect(config.hooks.map((h) => h.id)).toContain('js-hook');
    expect(config.warnings.join('\n')).not.toContain(REFUSAL);
    expect(existsSync(path.join(home, 'imported'))).toBe(true);
  });
});
