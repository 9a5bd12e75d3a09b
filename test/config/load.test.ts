// Finding and reading the config layers on real files: user, project (searched upwards), local.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/engine.js';
import { loadConfigLayers } from '../../src/config/load.js';
import { isolatedEnv, tmpProject, trustProject } from '../helpers.js';

const hook = (id: string) => ({ hooks: { preToolUse: [{ id, command: 'true' }] } });

describe('config layers', () => {
  it('merges user, project and local layers; each hook remembers its layer and file', async () => {
    const home = tmpProject({
      '.config/agent-hooks/config.json': JSON.stringify(hook('from-user')),
      'work/app/.hooksrc.json': JSON.stringify(hook('from-project')),
      'work/app/.hooksrc.local.json': JSON.stringify(hook('from-local')),
    });
    const cwd = path.join(home, 'work/app/src/deep');
    mkdirSync(cwd, { recursive: true });
    const env = isolatedEnv(home);
    trustProject(path.join(home, 'work/app'), env);
    const config = await loadConfig({ cwd, env });
    // Run order is by trust tier, lowest first: the user's hook judges what the project's hooks left.
    expect(config.hooks.map((h) => [h.id, h.source.layer, path.relative(home, h.source.file!)])).toEqual([
      ['from-project', 'project', 'work/app/.hooksrc.json'],
      ['from-local', 'local', 'work/app/.hooksrc.local.json'],
      ['from-user', 'user', '.config/agent-hooks/config.json'],
    ]);
    expect(config.projectDir).toBe(path.join(home, 'work/app'));
  });

  it.each([
    ['.hooksrc', JSON.stringify(hook('rc'))],
    ['.hooksrc.yaml', 'hooks:\n  preToolUse:\n    - id: rc\n      command: "true"\n'],
    ['package.json', JSON.stringify({ name: 'x', hooks: hook('rc').hooks })],
    ['hooks.config.mjs', `export default ${JSON.stringify(hook('rc'))};`],
  ])('finds %s', async (name, content) => {
    const dir = tmpProject({ [name]: content });
    const config = await loadConfig({ cwd: dir, env: isolatedEnv(dir) });
    expect(config.hooks.map((h) => h.id)).toEqual(['rc']);
    expect(config.layers).toEqual([{ layer: 'project', file: path.join(dir, name), trust: 'trusted', active: true }]);
  });

  it('--config replaces the project search; the user layer still applies', async () => {
    const home = tmpProject({
      '.config/agent-hooks/config.json': JSON.stringify(hook('user')),
      'p/.hooksrc.json': JSON.stringify(hook('searched')),
      'p/other.json': JSON.stringify(hook('explicit')),
    });
    const config = await loadConfig({ cwd: path.join(home, 'p'), configFile: 'other.json', env: isolatedEnv(home) });
    expect(config.hooks.map((h) => h.id)).toEqual(['explicit', 'user']);
  });

  it('XDG_CONFIG_HOME moves the user layer', async () => {
    const home = tmpProject({ 'xdg/agent-hooks/config.json': JSON.stringify(hook('xdg')) });
    const { layers } = await loadConfigLayers({ cwd: home, env: { ...isolatedEnv(home), XDG_CONFIG_HOME: path.join(home, 'xdg') } });
    expect(layers.map((l) => [l.layer, l.config])).toEqual([['user', hook('xdg')]]);
  });

  it('no config at all: the first-party guards run on the events they act on', async () => {
    const dir = tmpProject();
    const config = await loadConfig({ cwd: dir, env: isolatedEnv(dir) });
    expect(config.hooks.map((h) => [h.event, h.id, h.source.layer, h.source.file])).toEqual([
      ['preToolUse', 'command-safety', 'defaults', '<built-in defaults>'],
      ['preToolUse', 'sensitive-paths', 'defaults', '<built-in defaults>'],
      ['postToolUse', 'redact-secrets', 'defaults', '<built-in defaults>'],
      ['userPromptSubmit', 'redact-secrets', 'defaults', '<built-in defaults>'],
    ]);
    expect(config.projectDir).toBe(dir);
  });

  it('an untrusted or broken project file does not switch the defaults off; a config that runs decides for itself', async () => {
    // Otherwise a repository could turn the guards off by planting any config file.
    const untrusted = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ command: 'true' }] } }) });
    const hostile = await loadConfig({ cwd: untrusted, env: isolatedEnv(tmpProject(), {}, { trust: false }) });
    expect(hostile.hooks.map((h) => h.id)).toEqual(['command-safety', 'sensitive-paths', 'redact-secrets', 'redact-secrets']);
    const broken = tmpProject({ '.hooksrc.json': '{ not json' });
    expect((await loadConfig({ cwd: broken, env: isolatedEnv(broken) })).hooks.every((h) => h.source.layer === 'defaults')).toBe(true);
    const decides = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ command: 'true' }] } }) });
    expect((await loadConfig({ cwd: decides, env: isolatedEnv(decides) })).hooks.map((h) => h.id)).toEqual(['true']);
  });

  it('a broken project file is switched off with one line naming it; the same file named by --config is an error', async () => {
    const dir = tmpProject({ '.hooksrc.json': '{ "hooks": { "preToolUse": [ } }' });
    const config = await loadConfig({ cwd: dir, env: isolatedEnv(dir) });
    expect(config.layers).toMatchObject([{ layer: 'project', active: false, trust: 'trusted' }]);
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]).toContain(path.join(dir, '.hooksrc.json'));
    expect(config.warnings[0]).not.toContain('\n');
    const error = await loadConfig({ cwd: dir, configFile: '.hooksrc.json', env: isolatedEnv(dir) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONFIG_UNREADABLE' });
    const message = (error as Error).message;
    expect(message).toContain(path.join(dir, '.hooksrc.json'));
    expect(message).not.toContain('\n');
  });

  it('a missing --config file is an error naming it', async () => {
    const dir = tmpProject();
    await expect(loadConfig({ cwd: dir, configFile: 'nope.json', env: isolatedEnv(dir) })).rejects.toThrow(`${path.join(dir, 'nope.json')}: config file not found`);
  });

  it('relative hook cwd resolves against the file it is written in; the default is the project folder', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ id: 'a', command: 'true', cwd: 'scripts' }, { id: 'b', command: 'true' }] } }) });
    mkdirSync(path.join(dir, 'sub'));
    const config = await loadConfig({ cwd: path.join(dir, 'sub'), env: isolatedEnv(dir) });
    expect(config.hooks.map((h) => h.cwd)).toEqual([path.join(dir, 'scripts'), dir]);
  });

  it('the local layer can switch off or change a hook by id', async () => {
    const home = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'slow-lint', command: 'true', timeout: 60 }, { id: 'keep', command: 'true' }] } }),
      '.hooksrc.local.json': JSON.stringify({ hooks: { 'pre-tool-use': [{ id: 'slow-lint', enabled: false, timeout: 5 }] } }),
    });
    writeFileSync(path.join(home, 'unused'), '');
    const config = await loadConfig({ cwd: home, env: isolatedEnv(home) });
    expect(config.hooks.map((h) => [h.id, h.enabled, h.timeoutMs])).toEqual([
      ['slow-lint', false, 5000],
      // A command hook without a timeout waits as long as Claude Code would (600 s on preToolUse).
      ['keep', true, 600000],
    ]);
  });
});
