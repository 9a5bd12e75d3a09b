// The checked-config cache: a hit skips checking, any edit is a miss, a bad config is never cached.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDir } from '../../src/config/cache.js';
import { loadConfig, runnerFor } from '../../src/engine.js';
import { VERSION } from '../../src/version.js';
import { bash, isolatedEnv, ROOT, tmpProject, trustProject } from '../helpers.js';

const entries = (env: NodeJS.ProcessEnv) => {
  try {
    return readdirSync(cacheDir(env)).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
};

describe('the checked-config cache', () => {
  it('stores a checked config and serves it back, builtin options included', async () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ builtin: 'command-safety', options: { deny: ['terraform destroy*'] } }, { id: 'x', command: 'true', match: 'exec', timeout: 3 }] } }),
    });
    const env = isolatedEnv(dir);
    const first = await loadConfig({ cwd: dir, env });
    expect(entries(env)).toHaveLength(1);
    const second = await loadConfig({ cwd: dir, env });
    expect(second.hooks.map((h) => [h.id, h.timeoutMs, h.match, h.source])).toEqual(first.hooks.map((h) => [h.id, h.timeoutMs, h.match, h.source]));
    // The cached builtin still has its options: the deny pattern blocks.
    const decision = await runnerFor(second, env).run(bash('terraform destroy -auto-approve'));
    expect(decision.decision).toBe('block');
  });

  it('an entry edited by anyone without the key is a miss (proof that only authentic entries are used)', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ id: 'original', command: 'true' }] } }) });
    const env = isolatedEnv(dir);
    await loadConfig({ cwd: dir, env });
    const [file] = entries(env);
    const entry = path.join(cacheDir(env), file!);
    const text = readFileSync(entry, 'utf8');
    expect(text).toContain('original');
    writeFileSync(entry, text.replaceAll('original', 'forged'));
    expect((await loadConfig({ cwd: dir, env })).hooks[0]!.id).toBe('original');
  });

  it('any edit of a layer is a miss, and an invalid config is reported, never cached', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ command: 'true', timeout: 5 }] } }) });
    const env = isolatedEnv(dir);
    await loadConfig({ cwd: dir, env });
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { stop: [{ command: 'true', timeout: 'five' }] } }));
    // Edited: untrusted until trusted again, then reported as switched off.
    expect((await loadConfig({ cwd: dir, env })).layers[0]).toMatchObject({ trust: 'untrusted', active: false });
    trustProject(dir, env);
    expect((await loadConfig({ cwd: dir, env })).warnings.join('\n')).toContain('hooks.stop[0].timeout');
    writeFileSync(path.join(dir, '.hooksrc.local.json'), JSON.stringify({ hooks: { stop: [{ command: 'false' }] } }));
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { stop: [{ command: 'true', timeout: 5 }] } }));
    trustProject(dir, env);
    expect((await loadConfig({ cwd: dir, env })).hooks).toHaveLength(2);
  });

  it('a damaged entry is a miss, not an error', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ id: 'ok', command: 'true' }] } }) });
    const env = isolatedEnv(dir);
    await loadConfig({ cwd: dir, env });
    writeFileSync(path.join(cacheDir(env), entries(env)[0]!), '{not json');
    expect((await loadConfig({ cwd: dir, env })).hooks[0]!.id).toBe('ok');
  });

  it('JS configs and HOOKS_NO_CACHE are never cached', async () => {
    const dir = tmpProject({ 'hooks.config.mjs': 'export default { hooks: { stop: [{ command: "true" }] } };' });
    const env = isolatedEnv(dir);
    await loadConfig({ cwd: dir, env });
    expect(entries(env)).toHaveLength(0);
    const json = tmpProject({ '.hooksrc.json': '{"hooks":{}}' });
    const noCache = isolatedEnv(json, { HOOKS_NO_CACHE: '1' });
    await loadConfig({ cwd: json, env: noCache });
    expect(entries(noCache)).toHaveLength(0);
  });

  it('the version the cache is keyed on is the package version', () => {
    expect(VERSION).toBe(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
  });
});
