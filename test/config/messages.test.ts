// Nothing that changes what runs is silent (issue 8): `if` typos, unknown HOOKS_SKIP ids, no config,
// the layer that disabled a hook, and config messages in plain words with the right key path.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/engine.js';
import { cliInProcess, isolatedEnv, tmpProject } from '../helpers.js';

const sample = (dir: string) => JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });

describe('an `if` on a field the hook never sees is a config error listing the fields it can use', () => {
  it.each([
    [{ match: 'exec', if: { comand: '*prod*' } }, /\.if\.comand: no tool this hook matches has no field "comand", so the hook would never run \(did you mean "command"\?\); it can use: command, description/],
    [{ if: { promt: 'x' } }, /userPromptSubmit events have no field "promt".*\(did you mean "prompt"\?\); it can use: prompt/, 'userPromptSubmit'],
  ])('%j', async (entry, message, event = 'preToolUse') => {
    const dir = tmpProject({ 'c.json': JSON.stringify({ hooks: { [event]: [{ command: 'true', ...entry }] } }) });
    await expect(loadConfig({ cwd: dir, configFile: 'c.json', env: isolatedEnv(dir) })).rejects.toThrow(message);
  });

  it('is quiet for tools whose input it cannot know (MCP, globs)', async () => {
    const dir = tmpProject({ 'c.json': JSON.stringify({ hooks: { preToolUse: [{ command: 'true', match: 'mcp__db__*', if: { sql: '*DROP*' } }] } }) });
    expect((await loadConfig({ cwd: dir, configFile: 'c.json', env: isolatedEnv(dir) })).hooks).toHaveLength(1);
  });
});

describe('messages in plain words, at the key path the user wrote', () => {
  it.each([
    [{ 'c.json': JSON.stringify({ hooks: { stop: [{ command: 'true', timeout: 0 }] } }) }, 'c.json', 'c.json: hooks.stop[0].timeout: must be greater than 0'],
    [{ 'c.json': JSON.stringify({ hooks: { stop: [{ command: '' }] } }) }, 'c.json', 'hooks.stop[0].command: must not be empty'],
    [{ 'c.json': JSON.stringify({ hooks: { stop: [{ command: 'true', timeout: 7200 }] } }) }, 'c.json', 'hooks.stop[0].timeout: must be at most 3600'],
    [{ 'package.json': JSON.stringify({ name: 'x', hooks: { preToolUs: [{ command: 'true' }] } }) }, 'package.json', 'package.json: hooks.preToolUs: unknown key (did you mean "preToolUse"?)'],
    [{ 'package.json': JSON.stringify({ name: 'x', hooks: { defaults: { timeout: -1 }, hooks: {} } }) }, 'package.json', 'package.json: hooks.defaults.timeout: must be greater than 0'],
    [{ 'c.json': JSON.stringify({ hooks: { stop: [{ id: 'x', command: 'true', idd: 1 }] } }) }, 'c.json', 'hooks.stop[0].idd: unknown key (did you mean "id"?)'],
    [{ 'c.json': JSON.stringify([{ id: 'command-safety', enabled: false }]) }, 'c.json', 'c.json: a config file holds one object, e.g. {"hooks": {"preToolUse": [...]}}; this one holds a list'],
  ])('%j', async (files, file, message) => {
    const dir = tmpProject(files);
    await expect(loadConfig({ cwd: dir, configFile: file, env: isolatedEnv(dir) })).rejects.toThrow(message);
  });

  it('a known key is never suggested as a typo of itself', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ id: 'a', command: 'true' }] } }), '.hooksrc.local.json': JSON.stringify({ hooks: { stop: [{ id: 'a', id2: 1 }] } }) });
    const config = await loadConfig({ cwd: dir, env: isolatedEnv(dir) });
    expect(config.warnings.join('\n')).not.toMatch(/"(\w+)": unknown key \(did you mean "\1"/);
  });
});

describe('list and explain say which layer disabled a hook', () => {
  it('enabled: false from the local layer is credited to it', async () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'lint', command: 'true' }] } }),
      '.hooksrc.local.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'lint', enabled: false }] } }),
    });
    const env = isolatedEnv(dir);
    const list = await cliInProcess(['list'], { cwd: dir, env });
    expect(list.stdout).toContain('disabled by local layer .hooksrc.local.json hooks.preToolUse[0]');
    const explain = await cliInProcess(['explain', 'pre-tool-use'], { cwd: dir, env, input: sample(dir) });
    expect(explain.stdout).toContain(`skipped: disabled (enabled: false in local layer ${path.join(dir, '.hooksrc.local.json')} hooks.preToolUse[0])`);
  });
});

describe('no config found, said with where it looked', () => {
  it('run --verbose, list and doctor', async () => {
    const dir = tmpProject({ '.git/HEAD': '' });
    const env = isolatedEnv(tmpProject());
    const run = await cliInProcess(['run', 'pre-tool-use', '--verbose'], { cwd: dir, env, input: sample(dir) });
    expect(run.stderr).toContain(`hooks: no config found: no ${env.AGENT_HOOKS_MANAGED_CONFIG} or ${path.join(env.XDG_CONFIG_HOME!, 'agent-hooks/config.json')}; searched ${dir} (stopped at the repository root) for .hooksrc, .hooksrc.json`);
    expect((await cliInProcess(['list'], { cwd: dir, env })).stdout).toContain('no config found: no ');
    const doctor = await cliInProcess(['doctor'], { cwd: dir, env });
    expect(doctor.stdout).toMatch(/warning config: no config found: .* searched /);
  });
});

describe('doctor', () => {
  it('finds a hook cwd that does not exist, and a config file shadowed by the first', async () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ id: 'gone', command: 'true', cwd: 'no-such-dir' }] } }),
      'hooks.config.mjs': 'export default {};',
    });
    const r = await cliInProcess(['doctor'], { cwd: dir, env: isolatedEnv(dir) });
    expect(r.stdout).toMatch(/error +\S+ hooks\.stop\[0\] \(gone\): its cwd \S+no-such-dir does not exist/);
    expect(r.stdout).toMatch(/warning \S+hooks\.config\.mjs: never read: \S+\.hooksrc\.json is found first in the same folder/);
    expect(r.code).toBe(1);
  });

  it('does not warn that an in-process guard may take 30.5 s on userPromptSubmit', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { userPromptSubmit: [{ builtin: 'redact-secrets' }] } }) });
    const r = await cliInProcess(['doctor'], { cwd: dir, env: isolatedEnv(dir) });
    expect(r.stdout).not.toContain('30.5');
    expect(r.stdout.trim().split('\n').at(-1)).toBe('no problems found');
  });

  it('reports an unknown HOOKS_SKIP id', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ id: 'lint', command: 'true' }] } }) });
    mkdirSync(path.join(dir, 'x'));
    writeFileSync(path.join(dir, 'x', 'y'), '');
    const r = await cliInProcess(['doctor'], { cwd: dir, env: isolatedEnv(dir, { HOOKS_SKIP: 'lnt' }) });
    expect(r.stdout).toContain('HOOKS_SKIP names "lnt", which no configured hook has (did you mean "lint"?)');
  });
});
