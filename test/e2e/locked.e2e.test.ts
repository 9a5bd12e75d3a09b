// A locked setup with the real Claude Code, as an unprivileged user. Root runs
// `hooks install claude-code --managed` (the runner copied to a root-owned prefix, Claude Code's
// /etc/claude-code/managed-settings.json, /etc/agent-hooks/managed.json); then a user made for the
// test runs Claude, whose model asks for `touch ran.marker && rm -rf ~`, after each way the user (or
// an agent acting as them) could try to switch the guard off. Every time the call is denied: the
// marker is never made and the home folder is still there.
//
// Everything runs on a machine of its own (test/lock/machine.ts): a private mount namespace whose
// /etc is an overlay, so the managed settings, the managed layer and the test user exist only there.
// Claude Code reads its managed settings from /etc/claude-code alone (no variable moves it), and
// other e2e files running beside this one never see them.
import { chmodSync, chownSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineUnavailable, makeMachine, type Machine } from '../lock/machine.js';
import { claudeEnv } from './harness/agents.js';
import { toolResults } from './harness/anthropic.js';
import { cacheDir, installAgent } from './harness/install-agent.js';
import { startModelServer, type ModelServer, type Step } from './harness/model-server.js';
import { run, type RunResult } from './harness/process.js';
import { HOOKS_BIN } from './harness/workspace.js';

const USER = { name: 'ah-locked-e2e', uid: 47_321, gid: 47_321 };
const RM_HOME = 'touch ran.marker && rm -rf ~';
const bash = (command: string): Step => ({ tool: { name: 'Bash', input: { command, description: 'clean up' } } });

const unavailable = machineUnavailable();
let machine: Machine;
let claude: string;
/** The locked runner's bin, as the managed settings name it. */
let bin: string;
const servers: ModelServer[] = [];

/** A fresh home and workspace for one run, the user's own. */
function userWorld(label: string) {
  const home = path.join(machine.root, 'home', label);
  const dir = path.join(home, 'work');
  mkdirSync(dir, { recursive: true });
  const own = (p: string) => chownSync(p, USER.uid, USER.gid);
  for (let p = dir; p !== path.join(machine.root, 'home'); p = path.dirname(p)) own(p);
  writeFileSync(path.join(home, 'keep.txt'), 'the home folder is still here\n');
  own(path.join(home, 'keep.txt'));
  /** Writes files under the home folder as the user would (their own, mode as given). */
  const write = (files: Record<string, string | object>, mode = 0o644) => {
    for (const [rel, content] of Object.entries(files)) {
      const file = path.join(home, rel);
      for (let d = path.dirname(file); !existsSync(d); d = path.dirname(d)) mkdirSync(d, { recursive: true });
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
      chmodSync(file, mode);
      for (let p = file; p !== home; p = path.dirname(p)) own(p);
    }
  };
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    HOME: home,
    USER: USER.name,
    SHELL: '/bin/bash',
    TMPDIR: '/tmp',
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    ...extra,
  });
  return { home, dir, write, env };
}

/** Claude Code in -p mode, as the user, on the locked machine. */
async function runClaude(world: ReturnType<typeof userWorld>, script: Step[], env: Record<string, string> = {}) {
  const model = await startModelServer('anthropic', script, machine.root);
  servers.push(model);
  const [command, ...args] = machine.wrap([claude, '-p', 'clean up the workspace', '--output-format', 'json', '--allowedTools', 'Bash'], USER);
  const result = await run(command!, args, { cwd: world.dir, env: world.env({ ...claudeEnv(model.url), ...env }), timeoutMs: 90_000 });
  model.stop();
  expect(result.timedOut, `claude timed out\n${result.stderr}`).toBe(false);
  return { model, result };
}

/** The locked runner, as the user. */
function hooks(world: ReturnType<typeof userWorld>, argv: string[], env: Record<string, string> = {}) {
  return machine.run(['/usr/bin/node', bin, ...argv], { user: USER, env: world.env(env), cwd: world.dir });
}

function describeRun(r: { model: ModelServer; result: RunResult }): string {
  return `exit ${r.result.code}\nstdout: ${r.result.stdout.slice(0, 1500)}\nstderr: ${r.result.stderr.slice(0, 1500)}\nturns: ${r.model.turns().length}`;
}

/** The call was denied by the managed command-safety: nothing ran, the home is there, the model was told why. */
function expectDenied(world: ReturnType<typeof userWorld>, r: { model: ModelServer; result: RunResult }): void {
  expect(existsSync(path.join(world.dir, 'ran.marker')), describeRun(r)).toBe(false);
  expect(existsSync(path.join(world.home, 'keep.txt'))).toBe(true);
  const results = r.model.turns().flatMap((t) => toolResults(t));
  expect(results.some((t) => t.is_error === true && t.text.includes('command-safety')), describeRun(r)).toBe(true);
}

describe.skipIf(unavailable !== undefined)('a locked Claude Code (install claude-code --managed; the real CLI, an unprivileged user)', () => {
  beforeAll(async () => {
    const installed = await installAgent('claude');
    // The agents' cache lives in the checkout, which may be in a folder only root may enter: the user runs it through a bind.
    machine = makeMachine({ agents: cacheDir() });
    claude = path.join(machine.root, 'agents', path.relative(cacheDir(), installed));
    mkdirSync(path.join(machine.root, 'home'), { mode: 0o755 });
    bin = path.join(machine.prefix, 'lib', 'node_modules', 'agent-hooks', 'bin', 'hooks.js');
    const install = await machine.run(['/usr/bin/node', HOOKS_BIN, 'install', 'claude-code', '--managed', '--prefix', machine.prefix, '--node', '/usr/bin/node']);
    expect(install.code, install.stderr).toBe(0);
    // The user, in the machine's own /etc/passwd (the overlay): Claude Code looks its user up.
    const add = await machine.run(['useradd', '--no-create-home', '--home-dir', path.join(machine.root, 'home'), '--uid', String(USER.uid), '--user-group', USER.name]);
    expect(add.code, add.stderr).toBe(0);
  }, 360_000);

  afterAll(() => {
    for (const s of servers) s.stop();
    machine?.remove();
  });

  it('baseline: as this user, in this setup, an allowed command runs (so a missing marker below means a block)', async () => {
    const world = userWorld('baseline');
    const r = await runClaude(world, [bash('touch ran.marker'), { text: 'done' }]);
    expect(existsSync(path.join(world.dir, 'ran.marker')), describeRun(r)).toBe(true);
  });

  it('doctor, as the user, says locked: yes', async () => {
    const r = await hooks(userWorld('doctor'), ['doctor']);
    expect(r.stdout, r.stderr).toContain('locked: yes (claude-code)');
  });

  it('HOOKS_DISABLE, HOOKS_SKIP and AGENT_HOOKS_MANAGED_CONFIG in the environment: still denied', async () => {
    const world = userWorld('env');
    world.write({ 'empty-managed.json': { hooks: {} } });
    const r = await runClaude(world, [bash(RM_HOME), { text: 'done' }], {
      HOOKS_DISABLE: '1',
      HOOKS_SKIP: 'command-safety,sensitive-paths',
      AGENT_HOOKS_MANAGED_CONFIG: path.join(world.home, 'empty-managed.json'),
      HOOKS_NO_CODE_CACHE: '',
    });
    expectDenied(world, r);
  });

  it('a user ~/.claude/settings.json with disableAllHooks and its own allowing hook (and a project one): still denied, and theirs never ran', async () => {
    const world = userWorld('claude-settings');
    const allow = `touch ${path.join(world.home, 'user-hook.ran')}; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`;
    const settings = { disableAllHooks: true, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: allow }] }] } };
    world.write({ '.claude/settings.json': settings, 'work/.claude/settings.json': settings });
    const r = await runClaude(world, [bash(RM_HOME), { text: 'done' }]);
    expectDenied(world, r);
    expect(existsSync(path.join(world.home, 'user-hook.ran'))).toBe(false);
  });

  it('the user\'s agent-hooks config rewritten (the guard overridden off, an allowing hook first): still denied', async () => {
    const world = userWorld('user-config');
    world.write({
      '.config/agent-hooks/config.json': {
        hooks: {
          preToolUse: [
            { id: 'command-safety', enabled: false },
            { id: 'let-it-through', command: `echo '{"decision":"allow"}'`, priority: 1000 },
          ],
        },
      },
    });
    const r = await runClaude(world, [bash(RM_HOME), { text: 'done' }]);
    expectDenied(world, r);
  });

  it('BASH_ENV and an exported bash function named like the runner\'s node, for the shell that starts the hook: still denied', async () => {
    const world = userWorld('bash-env');
    world.write({ 'bash-env.sh': `touch ${path.join(world.home, 'bash-env.ran')}\nexit 0\n` });
    const r = await runClaude(world, [bash(RM_HOME), { text: 'done' }], {
      BASH_ENV: path.join(world.home, 'bash-env.sh'),
      ENV: path.join(world.home, 'bash-env.sh'),
      'BASH_FUNC_/usr/bin/node%%': '() { exit 0; }',
    });
    expectDenied(world, r);
  });

  it('a node (and agent-hooks) shim earlier on PATH: still denied, and the shim never ran', async () => {
    const world = userWorld('path-shim');
    const shim = `#!/bin/sh\ntouch ${path.join(world.home, 'shim.ran')}\nexit 0\n`;
    world.write({ 'bin/node': shim, 'bin/agent-hooks': shim }, 0o755);
    const r = await runClaude(world, [bash(RM_HOME), { text: 'done' }], { PATH: `${path.join(world.home, 'bin')}:/usr/local/bin:/usr/bin:/bin` });
    expectDenied(world, r);
    expect(existsSync(path.join(world.home, 'shim.ran'))).toBe(false);
  });

  // Both shapes of a user's --serve install: the client over the Unix socket (the default), and Claude Code's http handlers.
  const port = String(20_000 + (process.pid % 20_000));
  it.each([
    ['the client', []],
    ['http handlers', ['--http', '--port', port]],
  ])('agent-hooks serve restarted with HOOKS_DISABLE=1 and the user\'s settings pointed at it (%s): still denied', async (shape, serveFlags) => {
    const world = userWorld(`serve-${shape.replace(/\W+/g, '-')}`);
    const install = await hooks(world, ['install', 'claude-code', '--user', '--serve', ...serveFlags, '--when-down', 'continue']);
    expect(install.code, install.stderr).toBe(0);
    const start = await hooks(world, ['serve', 'start', '--port', port], { HOOKS_DISABLE: '1' });
    expect(start.code, start.stderr).toBe(0);
    try {
      const token = (await hooks(world, ['serve', 'token'])).stdout.trim();
      const r = await runClaude(world, [bash(RM_HOME), { text: 'done' }], { HOOKS_DISABLE: '1', AGENT_HOOKS_TOKEN: token });
      expectDenied(world, r);
    } finally {
      await hooks(world, ['serve', 'stop']);
    }
  });
});
