// The runner-side guard against endless Stop loops: after N blocks in a row with stop_hook_active, the
// stop is let through and the user told. Real bash hooks; the count lives under a throwaway state dir.
import { chmodSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCode } from '../../src/dialects/claude-code.js';
import { createRunner } from '../../src/engine.js';
import { event, isolatedEnv, runCli, tmpProject } from '../helpers.js';

const ALWAYS_BLOCK = `cat >/dev/null; echo '{"decision":"block","reason":"keep going: tests are not green"}'`;
const stop = (active: boolean, session = 's1') => event('stop', { session_id: session, stop_hook_active: active, last_assistant_message: 'Done.' });

async function runner(defaults: Record<string, unknown> = {}, dir = tmpProject()) {
  const env = isolatedEnv(dir);
  const r = await createRunner({ cwd: dir, env, config: { defaults, hooks: { stop: [{ id: 'nag', command: ALWAYS_BLOCK }] } } as never });
  return { r, env, dir };
}

describe('Stop loop guard', () => {
  it('lets the 4th block in a row with stop_hook_active through by default, and says so in systemMessage and stderr', async () => {
    const { r, env } = await runner();
    expect((await r.run(stop(false))).decision).toBe('block');
    for (let i = 0; i < 3; i++) expect((await r.run(stop(true))).decision).toBe('block');
    const through = await r.run(stop(true));
    expect(through.decision).toBe('continue');
    const a = claudeCode.answer(through);
    expect(a.exitCode).toBe(0);
    const json = JSON.parse(a.stdout) as Record<string, unknown>;
    expect(json.decision).toBeUndefined();
    expect(json.systemMessage).toMatch(/hook "nag" blocked the stop 3 times in a row .*stop_hook_active.*let through.*defaults\.stopLoopLimit: 3/);
    expect(a.stderr).toMatch(/^agent-hooks: hook "nag" blocked the stop 3 times/);
    // The count starts again: the next loop gets its full allowance.
    expect((await r.run(stop(true))).decision).toBe('block');
    // Kept private: the folder 0700, the file 0600, its name a hash.
    const dir = path.join(env.XDG_STATE_HOME!, 'agent-hooks', 'stop-loop');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [file] = readdirSync(dir);
    expect(file).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);
  });

  it('counts per session, and a stop the hooks let through resets it', async () => {
    const { r } = await runner({ stopLoopLimit: 1 });
    expect((await r.run(stop(true, 'a'))).decision).toBe('block');
    expect((await r.run(stop(true, 'b'))).decision).toBe('block');
    expect((await r.run(stop(true, 'a'))).decision).toBe('continue');
    expect((await r.run(stop(false, 'b'))).decision).toBe('block');
    expect((await r.run(stop(true, 'b'))).decision).toBe('block');
  });

  it('also guards SubagentStop, per subagent', async () => {
    const dir = tmpProject();
    const r = await createRunner({ cwd: dir, env: isolatedEnv(dir), config: { defaults: { stopLoopLimit: 1 }, hooks: { subagentStop: [{ command: ALWAYS_BLOCK }] } } as never });
    const sub = (agent: string) => event('subagentStop', { session_id: 's', stop_hook_active: true, agent_id: agent, agent_type: 'x' });
    expect((await r.run(sub('one'))).decision).toBe('block');
    expect((await r.run(sub('two'))).decision).toBe('block');
    expect((await r.run(sub('one'))).decision).toBe('continue');
  });

  it('stopLoopLimit: 0 turns it off', async () => {
    const { r } = await runner({ stopLoopLimit: 0 });
    for (let i = 0; i < 6; i++) expect((await r.run(stop(true))).decision).toBe('block');
  });

  it('a repository cannot lift the user layer\'s limit', async () => {
    const dir = tmpProject();
    const env = isolatedEnv(dir);
    const { resolveConfig } = await import('../../src/config/resolve.js');
    const config = await resolveConfig(
      [
        { layer: 'user', file: '/u/config.json', dir: '/u', config: { defaults: { stopLoopLimit: 2 } } },
        { layer: 'project', file: path.join(dir, '.hooksrc.json'), dir, config: { defaults: { stopLoopLimit: 0 }, hooks: { stop: [{ command: ALWAYS_BLOCK }] } } },
      ] as never,
      { cwd: dir, env },
    );
    expect(config.stopLoopLimit).toBe(2);
  });

  it('a state folder open to others is refused, loudly, and the block stands', async () => {
    const { r, env } = await runner({ stopLoopLimit: 1 });
    const dir = path.join(env.XDG_STATE_HOME!, 'agent-hooks', 'stop-loop');
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    const d = await r.run(stop(true));
    expect(d.decision).toBe('block');
    expect(d.warnings.join('\n')).toMatch(/stop-loop: is writable by group or others .*the Stop loop guard cannot count, and this block stands/);
  });

  it('a symlink planted as the state folder is not followed', async () => {
    const { r, env } = await runner({ stopLoopLimit: 1 });
    const elsewhere = tmpProject();
    mkdirSync(path.join(env.XDG_STATE_HOME!, 'agent-hooks'), { recursive: true });
    symlinkSync(elsewhere, path.join(env.XDG_STATE_HOME!, 'agent-hooks', 'stop-loop'));
    const d = await r.run(stop(true));
    expect(d.decision).toBe('block');
    expect(d.warnings.join('\n')).toMatch(/not a plain folder/);
    expect(readdirSync(elsewhere).filter((f) => /^[0-9a-f]{64}$/.test(f))).toEqual([]);
  });
});

// Hostile review (issue 24 item 5): the runner-side Stop-loop guard. "The most trusted layer that sets
// it decides (a repository cannot lift the user's)" — but a repository can still set it when the user
// did not, and lowering it cuts the user's own Stop guard short.
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
