// A repository's `.env` that an agent loads into its own environment (Gemini CLI does, and its hooks inherit
// it) must not steer the runner: switch the guards off, make failures continue, or move the user layer into
// the repository. Each such variable is dropped, with a line naming the file; the user's own value (not the one
// a project `.env` gives) still works.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withoutPlantedRunnerEnv } from '../../src/config/project-env.js';
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
    const r = withoutPlantedRunnerEnv(env, dir);
    expect(r.env).toEqual({ HOME: home, OTHER: '1' });
    expect(r.problems).toHaveLength(3);
    // Nothing set, nothing read: the environment comes back as it was.
    expect(withoutPlantedRunnerEnv({ HOME: home }, dir).env).toEqual({ HOME: home });
  });

  it('a relative XDG_CONFIG_HOME is ignored (the XDG spec calls it invalid): the user layer stays in the home folder', () => {
    expect(userConfigDir({ HOME: '/home/u', XDG_CONFIG_HOME: './cfg' })).toBe('/home/u/.config/agent-hooks');
    expect(userConfigDir({ HOME: '/home/u', XDG_CONFIG_HOME: '/etc/u' })).toBe('/etc/u/agent-hooks');
  });
});
