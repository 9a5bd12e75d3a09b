// What `hooks install claude-code --project` registers: the events the config uses, each with an exact
// Claude Code matcher where the config's match allows one, and a timeout that fits the chain's worst case.
import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConfigLayer } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { deriveMatcher, planEvents, worstCaseMs } from '../../src/install/plan.js';
import { tmpProject, trustProject } from '../helpers.js';
import { dependentProject, hooks, testEnv } from './kit.js';

const DIR = '/home/dev/project';
const layer = (config: unknown, trust: ConfigLayer['trust'] = 'trusted'): ConfigLayer => ({ layer: 'project', file: `${DIR}/.hooksrc.json`, dir: DIR, config, trust });
async function plan(config: unknown) {
  const layers = [layer(config)];
  return planEvents(await resolveConfig(layers, { cwd: DIR }), layers, 60);
}

describe('planEvents', () => {
  it('registers only the events the config uses', async () => {
    const p = await plan({ hooks: { preToolUse: [{ command: 'a.sh', match: 'exec' }], stop: [{ command: 'b.sh' }] } });
    expect([...p.keys()]).toEqual(['preToolUse', 'stop']);
  });

  it.each([
    [[{ command: 'a', match: 'exec' }], 'Bash|PowerShell'],
    [[{ command: 'a', match: ['Bash'] }, { command: 'b', match: 'group:fs' }], 'Bash|PowerShell|Read|NotebookRead|Write|Edit|MultiEdit|NotebookEdit'],
    [[{ command: 'a', matcher: 'Edit|Write' }], 'Write|Edit'],
    [[{ command: 'a', matcher: '^Edit$' }], undefined],
    [[{ command: 'a', match: 'mcp__github__create_issue' }], undefined],
    [[{ command: 'a', match: 'exec' }, { command: 'b' }], undefined],
    [[{ command: 'a', match: 'Glob' }], 'Glob'],
  ])('%j → matcher %s', async (entries, matcher) => {
    const p = await plan({ hooks: { preToolUse: entries } });
    const sorted = (m: string | undefined) => m?.split('|').sort().join('|');
    expect(sorted(p.get('preToolUse')?.matcher)).toBe(sorted(matcher));
  });

  it('the timeout is the chain at its worst: sequential hooks add up, parallel ones count once, plus 10 s', async () => {
    const layers = [layer({ hooks: { preToolUse: [{ command: 'a', timeout: 100 }, { command: 'b', timeout: 50, parallel: true }, { command: 'c', timeout: 80, parallel: true }, { command: 'd', timeout: 5 }] } })];
    const config = await resolveConfig(layers, { cwd: DIR });
    expect(worstCaseMs('preToolUse', config.hooks)).toBe(185_000);
    expect(planEvents(config, layers, 60).get('preToolUse')?.timeoutSeconds).toBe(195);
  });

  it('a hook Claude Code would wait 600 s for is not cut off: the entry waits longer', async () => {
    const p = await plan({ hooks: { stop: [{ command: 'slow.sh' }, { command: 'other.sh' }] } });
    // Stop hooks all run at once: the longest, not the sum.
    expect(p.get('stop')?.timeoutSeconds).toBe(610);
  });

  it("an untrusted project file's events are registered too (every tool), so its hooks run once it is trusted", async () => {
    const layers = [layer({ hooks: { PostToolUse: [{ matcher: 'Write', hooks: [{ command: 'fmt.sh' }] }] } }, 'untrusted')];
    layers[0]!.problem = 'not trusted';
    const p = planEvents(await resolveConfig(layers, { cwd: DIR }), layers, 60);
    expect(p.get('postToolUse')).toEqual({ timeoutSeconds: 610 });
    // The default guards run meanwhile, so their events stay registered.
    expect(p.has('preToolUse')).toBe(true);
  });

  it('deriveMatcher never narrows below what a hook runs for', async () => {
    const config = await resolveConfig([layer({ hooks: { preToolUse: [{ command: 'a', match: 'edit' }] } })], { cwd: DIR });
    expect(deriveMatcher(config.hooks)?.split('|').sort()).toEqual(['Edit', 'MultiEdit', 'NotebookEdit']);
  });
});

describe('hooks install claude-code --project', () => {
  it('writes the config\'s events with their matchers, and uninstall gives the file back byte for byte', async () => {
    const dir = dependentProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ command: './g.sh', match: 'exec', timeout: 20 }], sessionStart: [{ command: 'cat ctx.md' }] } }) });
    const home = tmpProject();
    trustProject(dir, testEnv(home));
    const original = '{\n  "model": "fast"\n}\n';
    const file = path.join(dir, '.claude', 'settings.json');
    (await import('node:fs')).mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, original);
    const r = await hooks(['install', 'claude-code'], dir, home);
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, { matcher?: string; hooks: { timeout: number }[] }[]> };
    expect(Object.keys(doc.hooks)).toEqual(['PreToolUse', 'SessionStart']);
    expect(doc.hooks.PreToolUse![0]!.matcher).toBe('Bash|PowerShell');
    expect(doc.hooks.PreToolUse![0]!.hooks[0]!.timeout).toBe(60);
    expect(doc.hooks.SessionStart![0]!.matcher).toBeUndefined();
    expect(doc.hooks.SessionStart![0]!.hooks[0]!.timeout).toBe(610);
    expect((await hooks(['uninstall', 'claude-code'], dir, home)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('--timeout replaces every computed timeout', async () => {
    const dir = dependentProject();
    const r = await hooks(['install', 'claude-code', '--timeout', '45'], dir, tmpProject());
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { timeout: number }[] }[]> };
    expect(Object.values(doc.hooks).map((l) => l[0]!.hooks[0]!.timeout)).toEqual([45, 45, 45]);
  });
});
