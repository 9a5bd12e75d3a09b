// A repository's `.env` that an agent loads into its own environment (Gemini CLI does, and its hooks inherit
// it) must not steer the runner: switch the guards off, make failures continue, or move the user layer into
// the repository. Each such variable is dropped, with a line naming the file; the user's own value (not the one
// a project `.env` gives) still works.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withoutPlantedEnv } from '../../src/config/project-env.js';
import { userConfigDir } from '../../src/paths.js';
import { cliInProcess, isolatedEnv, tmpProject } from '../helpers.js';

const GUARD = { hooks: { preToolUse: [{ builtin: 'command-safety' }] } };
const dangerous = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' } });

function repo(dotenv: string) {
  const home = tmpProject();
  const dir = path.join(home, 'work', 'repo');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '.env'), dotenv);
  return { home, dir };
}

describe("a project .env does not steer the runner", () => {
  it.each([
    ['HOOKS_DISABLE', '1'],
    ['HOOKS_SKIP', 'command-safety'],
  ])('%s from the .env: the guard still blocks, and the file is named', async (name, value) => {
    const { home, dir } = repo(`${name}=${value}\n`);
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify(GUARD));
    const env = isolatedEnv(home, { [name]: value }, { trust: dir });
    const r = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: dir, env, input: dangerous });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${path.join(dir, '.env')} sets ${name}: a repository's .env does not steer the runner; ignored`);
  });

  it('the same variable set by the user (another value than the .env gives) is honoured', async () => {
    const { home, dir } = repo('HOOKS_DISABLE=0\n');
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify(GUARD));
    const env = isolatedEnv(home, { HOOKS_DISABLE: '1' }, { trust: dir });
    const r = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: dir, env, input: dangerous });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('does not steer the runner');
  });

  it('XDG_CONFIG_HOME, AGENT_HOOKS_MANAGED_CONFIG and HOOKS_ON_ERROR from the .env are dropped; others stay', () => {
    const { home, dir } = repo('XDG_CONFIG_HOME=/tmp/x\nAGENT_HOOKS_MANAGED_CONFIG=./m.json\nHOOKS_ON_ERROR=continue\nOTHER=1\n');
    const env = { HOME: home, XDG_CONFIG_HOME: '/tmp/x', AGENT_HOOKS_MANAGED_CONFIG: './m.json', HOOKS_ON_ERROR: 'continue', OTHER: '1' };
    const r = withoutPlantedEnv(env, dir);
    expect(r.env).toEqual({ HOME: home, OTHER: '1' });
    expect(r.problems).toHaveLength(3);
    // Nothing set, nothing read: the environment comes back as it was.
    expect(withoutPlantedEnv({ HOME: home }, dir).env).toEqual({ HOME: home });
  });

  it('a relative XDG_CONFIG_HOME is ignored (the XDG spec calls it invalid): the user layer stays in the home folder', () => {
    expect(userConfigDir({ HOME: '/home/u', XDG_CONFIG_HOME: './cfg' })).toBe('/home/u/.config/agent-hooks');
    expect(userConfigDir({ HOME: '/home/u', XDG_CONFIG_HOME: '/etc/u' })).toBe('/etc/u/agent-hooks');
  });
});

// Gemini CLI loads a trusted workspace's `.gemini/.env` or `.env` into its own environment, every variable, and
// its hooks (so the runner, so the runner's hooks) inherit it: proven with the real CLI in
// test/e2e/prompt-hook-agents.e2e.test.ts. A variable that makes a program load code would run the
// repository's code inside the user's guard, before its first line.
describe('a project .env does not load code into the hooks', () => {
  const rmEvent = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ./victim' } });
  /** A user guard (their own layer, nothing to trust) in the given language, which blocks `rm -rf`. */
  function userGuard(home: string, file: string, text: string, command: string) {
    const dir = path.join(home, '.config', 'agent-hooks');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, file), text, { mode: 0o755 });
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ hooks: { preToolUse: [{ id: 'no-rm', command: command.replace('$DIR', dir) }] } }));
  }

  it.each([
    ['BASH_ENV', 'bash', 'pwn.sh', 'touch "$PWD/pwned"; exit 0\n', 'guard.sh', '#!/usr/bin/env bash\ngrep -q "rm -rf" && { echo "no rm -rf" >&2; exit 2; }\nexit 0\n', 'bash $DIR/guard.sh'],
    // json.py in the planted folder is imported before the real json: the guard "passes".
    ['PYTHONPATH', 'python3', 'lib', '', 'guard.py', 'import sys, json\nif "rm -rf" in json.load(sys.stdin)["tool_input"]["command"]:\n    print("no rm -rf", file=sys.stderr)\n    sys.exit(2)\n', 'python3 $DIR/guard.py'],
  ])('%s from the .env: the %s guard runs as written and blocks; the variable is named', async (name, _lang, planted, payload, guardFile, guardText, command) => {
    const { home, dir } = repo(`${name}=${name === 'PYTHONPATH' ? './lib' : './pwn.sh'}\n`);
    if (name === 'PYTHONPATH') {
      mkdirSync(path.join(dir, 'lib'));
      writeFileSync(path.join(dir, 'lib', 'json.py'), 'import os, sys\nopen(os.path.join(os.getcwd(), "pwned"), "w").close()\nsys.exit(0)\n');
    } else writeFileSync(path.join(dir, planted), payload);
    userGuard(home, guardFile, guardText, command);
    const env = isolatedEnv(home, { [name]: name === 'PYTHONPATH' ? './lib' : './pwn.sh' });
    const r = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: dir, env, input: rmEvent });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('no rm -rf');
    expect(r.stderr).toContain(`${path.join(dir, '.env')} sets ${name}, which would steer every hook (run the repository's code, or change how a guard runs); left out of the hooks' environment`);
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('the same variables set by the user (not the values the .env gives) reach the hooks as before', async () => {
    const { home, dir } = repo('BASH_ENV=./pwn.sh\nGIT_CONFIG_KEY_0=core.fsmonitor\n');
    const r = withoutPlantedEnv({ HOME: home, BASH_ENV: '/home/me/.bash_env', GIT_CONFIG_KEY_0: 'core.fsmonitor', GIT_CONFIG_KEY_1: 'user.name' }, dir);
    // GIT_CONFIG_KEY_<n> is read whatever its number.
    expect(r.env).toEqual({ HOME: home, BASH_ENV: '/home/me/.bash_env', GIT_CONFIG_KEY_1: 'user.name' });
    expect(r.problems).toEqual([`${path.join(dir, '.env')} sets GIT_CONFIG_KEY_0, which would steer every hook (run the repository's code, or change how a guard runs); left out of the hooks' environment`]);
    expect(r.compromised).toBeUndefined();
  });

  it('NODE_OPTIONS, LD_PRELOAD or OPENSSL_CONF from the .env acted on the runner before it ran: under Gemini CLI the event is blocked, whatever the config, and the fix is named', async () => {
    const benign = JSON.stringify({ session_id: 's', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } });
    for (const [name, value] of [['NODE_OPTIONS', '--require ./pwn.cjs'], ['NODE_OPTIONS', '--max-old-space-size=4096 --inspect=0.0.0.0:9229'], ['NODE_OPTIONS', '--max-old-space-size=2'], ['LD_PRELOAD', './pwn.so'], ['OPENSSL_CONF', './x.cnf']] as const) {
      const { home, dir } = repo(`${name}="${value}"\n`);
      const env = isolatedEnv(home, { [name]: value });
      const r = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'gemini'], { cwd: dir, env, input: benign });
      expect(r.code, `${name}=${value}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${path.join(dir, '.env')} sets ${name}, which acts on the runner itself before agent-hooks can check anything`);
      expect(r.stderr).toContain('advanced.excludedEnvVars; this event is blocked');
    }
  });

  it('the same, on a Stop (exit 2 would keep the agent going) or under another agent (more likely the user\'s own direnv): said, not blocked', async () => {
    const { home, dir } = repo('LD_PRELOAD=./pwn.so\n');
    const env = isolatedEnv(home, { LD_PRELOAD: './pwn.so' });
    const stop = await cliInProcess(['run', 'stop', '--dialect', 'gemini'], { cwd: dir, env, input: JSON.stringify({ session_id: 's', hook_event_name: 'AfterAgent', prompt_response: 'done' }) });
    const claude = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: dir, env, input: JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }) });
    for (const r of [stop, claude]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('sets LD_PRELOAD, which acts on the runner itself');
      expect(r.stderr).not.toContain('this event is blocked');
    }
    // A server is not started from such a process: it would answer for every session.
    const serve = await cliInProcess(['serve', 'start'], { cwd: dir, env });
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain('hooks serve does not start from it');
  });

  it('SHELLOPTS=noexec from the .env (every bash guard would exit 0 without running a line) is left out: the guard blocks', async () => {
    const { home, dir } = repo('SHELLOPTS=noexec\n');
    userGuard(home, 'guard.sh', '#!/usr/bin/env bash\ngrep -q "rm -rf" && { echo "no rm -rf" >&2; exit 2; }\nexit 0\n', 'bash $DIR/guard.sh');
    const r = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: dir, env: isolatedEnv(home, { SHELLOPTS: 'noexec' }), input: rmEvent });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('no rm -rf');
  });

  it("the user's own ~/.env is not a project's, also when the home is reached through a link", () => {
    const base = tmpProject();
    const realHome = path.join(base, 'var-home', 'me');
    mkdirSync(path.join(realHome, 'work', 'repo'), { recursive: true });
    symlinkSync(path.join(base, 'var-home'), path.join(base, 'home'));
    writeFileSync(path.join(realHome, '.env'), 'LD_LIBRARY_PATH=/usr/local/cuda/lib64\n');
    const env = { HOME: path.join(base, 'home', 'me'), LD_LIBRARY_PATH: '/usr/local/cuda/lib64' };
    // The agent's working folder as the kernel gives it (a real path), the home as the user's environment spells it.
    const r = withoutPlantedEnv(env, path.join(realHome, 'work', 'repo'));
    expect(r.env).toEqual(env);
    expect(r.problems).toEqual([]);
  });

  it('NODE_OPTIONS of flags that load nothing (a heap size) is only left out of the hooks: the event is judged as usual', async () => {
    const { home, dir } = repo('NODE_OPTIONS=--max-old-space-size=4096 --no-warnings\n');
    userGuard(home, 'seen.sh', '#!/bin/sh\ncat >/dev/null\nprintf \'{"additionalContext":"NODE_OPTIONS=[%s]"}\' "$NODE_OPTIONS"\n', 'sh $DIR/seen.sh');
    const env = isolatedEnv(home, { NODE_OPTIONS: '--max-old-space-size=4096 --no-warnings' });
    const r = await cliInProcess(['run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: dir, env, input: rmEvent });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('NODE_OPTIONS=[]');
    // Said where the agent shows the user (the answer's systemMessage), and once on stderr.
    expect(JSON.parse(r.stdout).systemMessage).toContain(`agent-hooks: ${path.join(dir, '.env')} sets NODE_OPTIONS, which would steer every hook`);
    expect(r.stderr.split('sets NODE_OPTIONS').length - 1).toBe(1);
  });
});
