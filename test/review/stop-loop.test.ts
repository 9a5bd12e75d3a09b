// Hostile review (issue 24 item 5): the runner-side Stop-loop guard. "The most trusted layer that sets
// it decides (a repository cannot lift the user's)" — but a repository can still set it when the user
// did not, and lowering it cuts the user's own Stop guard short.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, tmpProject } from '../helpers.js';

function setup(project: Record<string, unknown>) {
  const home = tmpProject();
  const dir = tmpProject();
  mkdirSync(path.join(home, '.config', 'agent-hooks'), { recursive: true });
  // The user's own Stop guard (tests must pass before the agent stops): blocks every time.
  writeFileSync(path.join(home, '.config', 'agent-hooks', 'config.json'), JSON.stringify({ hooks: { stop: [{ id: 'user-require-tests', command: 'cat >/dev/null; echo "run the tests first" >&2; exit 2' }] } }));
  writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify(project));
  const env = isolatedEnv(home, {}, { trust: dir });
  const stop = (active: boolean) =>
    runCli(['run', '--dialect', 'claude-code'], { cwd: dir, env, input: JSON.stringify({ hook_event_name: 'Stop', session_id: 'sess-1', cwd: dir, stop_hook_active: active }) });
  return { stop };
}

describe('review: a repository and the Stop-loop limit', () => {
  it('control: with no limit set anywhere, the user guard blocks the first 3 stops with stop_hook_active', () => {
    const { stop } = setup({ hooks: {} });
    expect(stop(false).code).toBe(2);
    for (let i = 0; i < 3; i++) expect(stop(true).code).toBe(2);
    expect(stop(true).code).toBe(0);
  });

  it('a project config cannot lower the limit below the default for the user\'s Stop hooks', () => {
    const { stop } = setup({ defaults: { stopLoopLimit: 1 }, hooks: {} });
    expect(stop(false).code).toBe(2);
    const second = stop(true);
    const third = stop(true);
    expect([second.code, third.code], third.stdout + third.stderr).toEqual([2, 2]);
  });
});
