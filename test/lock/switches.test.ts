// A locked runner: HOOKS_DISABLE and HOOKS_SKIP switch off user and project hooks only, the managed
// layer is /etc/agent-hooks/managed.json whatever AGENT_HOOKS_MANAGED_CONFIG says, and no cache of the
// user's is read. Unlocked, they behave as they always did. (Whether a runner is locked is detect.test's.)
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { disablesAll, lockedNote, readSwitches, switchedOff } from '../../src/config/switches.js';
import { loadConfig, lockedBudget, runnerFor } from '../../src/engine.js';
import { bash, isolatedEnv, tmpProject } from '../helpers.js';

const MANAGED = { hooks: { preToolUse: [{ builtin: 'command-safety' }] } };
const USER = { hooks: { preToolUse: [{ id: 'user-echo', command: 'echo user-ran >&2' }] } };

/** A home with a user layer, and a managed layer where AGENT_HOOKS_MANAGED_CONFIG points. */
function setup(extra: Record<string, string> = {}) {
  const home = tmpProject({ '.config/agent-hooks/config.json': JSON.stringify(USER), 'managed.json': JSON.stringify(MANAGED) });
  const env = isolatedEnv(home, { AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json'), ...extra });
  return { home, env };
}

/** The config as an unlocked load reads it (the managed layer from the variable), run as a locked runner would. */
async function run(extra: Record<string, string>, locked: boolean) {
  const { home, env } = setup(extra);
  const config = await loadConfig({ cwd: home, env, locked: false });
  const decision = await runnerFor({ ...config, ...(locked ? { locked: true } : {}) }, env).run(bash('rm -rf ~'));
  return { decision, ran: decision.steps.filter((s) => s.status !== 'skipped').map((s) => s.id), skipped: decision.skipped };
}

describe('a locked runner and the switches', () => {
  it('HOOKS_DISABLE switches off the user hook and leaves the managed guard to block', async () => {
    const { decision, ran, skipped } = await run({ HOOKS_DISABLE: '1' }, true);
    expect(decision.decision).toBe('block');
    expect(ran).toContain('command-safety');
    expect(skipped).toEqual([{ id: 'user-echo', why: 'switched off by HOOKS_DISABLE' }]);
    expect(decision.warnings.join('\n')).toContain('this runner is locked: HOOKS_DISABLE switch off user and project hooks only (1 switched off); the managed hooks command-safety run regardless');
  });

  it('HOOKS_SKIP naming the managed guard does not skip it; naming the user hook does', async () => {
    const { decision, skipped } = await run({ HOOKS_SKIP: 'command-safety,user-echo' }, true);
    expect(decision.decision).toBe('block');
    expect(skipped).toEqual([{ id: 'user-echo', why: 'skipped by HOOKS_SKIP' }]);
  });

  it('unlocked, HOOKS_SKIP still skips the managed guard (as before)', async () => {
    const { decision, skipped } = await run({ HOOKS_SKIP: 'command-safety' }, false);
    expect(decision.decision).not.toBe('block');
    expect(skipped).toEqual([{ id: 'command-safety', why: 'skipped by HOOKS_SKIP' }]);
    expect(decision.warnings.join('\n')).not.toContain('locked');
  });

  it('the switches themselves: disablesAll only when unlocked; switchedOff spares managed hooks only when locked', () => {
    const env = { HOOKS_DISABLE: '1', HOOKS_SKIP: 'a' };
    const managed = { id: 'a', source: { layer: 'managed' } };
    const user = { id: 'b', source: { layer: 'user' } };
    expect(disablesAll(readSwitches(env))).toBe(true);
    expect(disablesAll(readSwitches(env, true))).toBe(false);
    expect(switchedOff(readSwitches(env, true), managed)).toBeUndefined();
    expect(switchedOff(readSwitches(env, true), user)).toBe('switched off by HOOKS_DISABLE');
    expect(switchedOff(readSwitches({ HOOKS_SKIP: 'a' }), managed)).toBe('skipped by HOOKS_SKIP');
    expect(lockedNote(readSwitches({}, true), [managed])).toBeUndefined();
    expect(lockedNote(readSwitches(env), [managed])).toBeUndefined();
  });
});

describe('a locked load', () => {
  it('does not take AGENT_HOOKS_MANAGED_CONFIG: the managed layer is /etc/agent-hooks/managed.json alone', async () => {
    const { home, env } = setup();
    const unlocked = await loadConfig({ cwd: home, env, locked: false });
    expect(unlocked.layers.map((l) => l.file)).toContain(path.join(home, 'managed.json'));
    const locked = await loadConfig({ cwd: home, env, locked: true });
    expect(locked.layers.map((l) => l.file)).not.toContain(path.join(home, 'managed.json'));
    expect(locked.locked).toBe(true);
    // This machine has no /etc/agent-hooks/managed.json: a locked runner never would, but the load is what is tested.
    if (!existsSync('/etc/agent-hooks/managed.json')) expect(locked.layers.some((l) => l.layer === 'managed')).toBe(false);
  });

  it('neither reads nor writes the config cache (the cache and its key are the user\'s)', async () => {
    const { home, env } = setup();
    const cache = path.join(home, '.cache', 'agent-hooks', 'config');
    await loadConfig({ cwd: home, env, locked: true });
    expect(existsSync(cache) ? readdirSync(cache).filter((f) => f.endsWith('.json')) : []).toEqual([]);
    await loadConfig({ cwd: home, env, locked: false });
    expect(readdirSync(cache).filter((f) => f.endsWith('.json')).length).toBeGreaterThan(0);
    // An entry planted for these exact layers would be taken unlocked; locked, the layers are checked afresh.
    for (const f of readdirSync(cache).filter((f) => f.endsWith('.json'))) writeFileSync(path.join(cache, f), '{}');
    mkdirSync(cache, { recursive: true });
    const locked = await loadConfig({ cwd: home, env, locked: true });
    expect(locked.hooks.map((h) => h.id)).toContain('user-echo');
  });

  it.each([
    ['not JSON', '{"hooks": '],
    ['not a config', JSON.stringify({ hooks: { preToolUse: [{ builtin: 'no-such-guard' }] } })],
  ])('a user layer that is %s is switched off with a warning, not the runner\'s error (which would let the event go on without the managed hooks)', async (_what, text) => {
    const home = tmpProject({ '.config/agent-hooks/config.json': text });
    const env = isolatedEnv(home);
    await expect(loadConfig({ cwd: home, env, locked: false })).rejects.toThrow(/config\.json/);
    const locked = await loadConfig({ cwd: home, env, locked: true });
    expect(locked.layers.find((l) => l.layer === 'user')?.active).toBe(false);
    expect(locked.warnings.join('\n')).toContain(path.join(home, '.config', 'agent-hooks', 'config.json'));
  });

  it('a slow user hook is cut to the budget of the user and project hooks, and the managed guard still judges in time', async () => {
    const home = tmpProject({
      '.config/agent-hooks/config.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'slow', command: 'sleep 120', timeout: 300 }] } }),
      'managed.json': JSON.stringify(MANAGED),
    });
    const env = isolatedEnv(home, { AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json') });
    const config = await loadConfig({ cwd: home, env, locked: false });
    const saved = lockedBudget.ms;
    lockedBudget.ms = 800;
    try {
      const started = Date.now();
      const decision = await runnerFor({ ...config, locked: true }, env).run(bash('rm -rf ~'));
      // Uncut, the hook takes 120 s: the ceiling only tells the cut from a busy machine.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(decision.decision).toBe('block');
      expect(decision.decidedBy).toBe('command-safety');
      const slow = decision.steps.find((s) => s.id === 'slow');
      expect(slow?.result?.failure?.kind).toBe('timeout');
    } finally {
      lockedBudget.ms = saved;
    }
  }, 120_000);
});
