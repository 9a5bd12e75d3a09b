// The cache is someone else's way in: used only when private, entries only when authentic, keyed on bytes.
import { createHmac } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDir } from '../../src/config/cache.js';
import { loadConfig } from '../../src/engine.js';
import { isolatedEnv, tmpProject } from '../helpers.js';

const isRoot = typeof process.geteuid === 'function' && process.geteuid() === 0;
const entries = (env: NodeJS.ProcessEnv) => {
  try {
    return readdirSync(cacheDir(env)).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
};
const config = { hooks: { preToolUse: [{ id: 'guard', command: 'exit 2' }] } };

describe('the cache trusts nothing it finds', () => {
  it('a cache dir open to others (0777) is not used', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify(config) });
    const env = isolatedEnv(dir);
    mkdirSync(cacheDir(env), { recursive: true });
    chmodSync(cacheDir(env), 0o777);
    expect((await loadConfig({ cwd: dir, env })).hooks.map((h) => h.id)).toEqual(['guard']);
    expect(entries(env)).toEqual([]);
  });

  it('an entry forged under another key (another user\'s cache) is a miss, while the same forgery under the right key would be served', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify(config) });
    const attacker = isolatedEnv(tmpProject());
    const victim = isolatedEnv(tmpProject());
    // Same project bytes, trusted by both.
    const { trustProject } = await import('../helpers.js');
    trustProject(dir, attacker);
    trustProject(dir, victim);
    await loadConfig({ cwd: dir, env: attacker });
    const [name] = entries(attacker);
    const forge = (env: NodeJS.ProcessEnv) => {
      const secret = Buffer.from(readFileSync(path.join(cacheDir(env), 'key'), 'utf8'), 'hex');
      const { body } = JSON.parse(readFileSync(path.join(cacheDir(attacker), name!), 'utf8')) as { body: string };
      const swapped = body.replace('"command":"exit 2"', '"command":"exit 0"');
      expect(swapped).not.toBe(body);
      return JSON.stringify({ mac: createHmac('sha256', secret).update(swapped).digest('hex'), body: swapped });
    };
    // Under the attacker's own key it is served to the attacker: the test can tell a hit from a miss.
    const forged = forge(attacker);
    writeFileSync(path.join(cacheDir(attacker), name!), forged);
    expect((await loadConfig({ cwd: dir, env: attacker })).hooks[0]!.run).toMatchObject({ command: 'exit 0' });
    // Planted in the victim's cache it is a miss: the victim's own key does not vouch for it.
    await loadConfig({ cwd: dir, env: victim });
    writeFileSync(path.join(cacheDir(victim), name!), forged);
    expect((await loadConfig({ cwd: dir, env: victim })).hooks[0]!.run).toMatchObject({ command: 'exit 2' });
  });

  it.skipIf(!isRoot)('an entry owned by another user is a miss', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify(config) });
    const env = isolatedEnv(dir);
    await loadConfig({ cwd: dir, env });
    const file = path.join(cacheDir(env), entries(env)[0]!);
    const secret = Buffer.from(readFileSync(path.join(cacheDir(env), 'key'), 'utf8'), 'hex');
    const { body } = JSON.parse(readFileSync(file, 'utf8')) as { body: string };
    const swapped = body.replace('"command":"exit 2"', '"command":"exit 0"');
    writeFileSync(file, JSON.stringify({ mac: createHmac('sha256', secret).update(swapped).digest('hex'), body: swapped }));
    chownSync(file, 65534, 65534);
    expect((await loadConfig({ cwd: dir, env })).hooks[0]!.run).toMatchObject({ command: 'exit 2' });
  });

  it('the key is the bytes: a YAML value that does not survive checking is never served from the cache', async () => {
    const dir = tmpProject({ '.hooksrc.yaml': 'hooks:\n  preToolUse:\n    - command: "true"\n      timeout: 5\n' });
    const env = isolatedEnv(dir);
    await loadConfig({ cwd: dir, env });
    // Same parsed shape for a naive key, different bytes: a Date is not a number.
    writeFileSync(path.join(dir, '.hooksrc.yaml'), 'hooks:\n  preToolUse:\n    - command: "true"\n      timeout: 2001-01-01\n');
    const { trustProject } = await import('../helpers.js');
    trustProject(dir, env);
    const after = await loadConfig({ cwd: dir, env });
    // The file is switched off (only the default guards run), never served as it was.
    expect(after.hooks.every((h) => h.source.layer === 'defaults')).toBe(true);
    expect(after.warnings.join('\n')).toContain('hooks.preToolUse[0].timeout');
  });
});

describe('circular and very deep configs are one-line config errors, never a crash', () => {
  it.each([
    ['a YAML self-alias', 'self.yaml', 'hooks: &a\n  preToolUse:\n    - command: "true"\n      options: *a\n'],
    ['5,000-deep nesting', 'deep.json', `{"hooks":{"preToolUse":[{"builtin":"command-safety","options":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}]}}`],
  ])('%s', async (_name, file, text) => {
    const dir = tmpProject({ [file]: text });
    const error = (await loadConfig({ cwd: dir, configFile: file, env: isolatedEnv(dir) }).catch((e: unknown) => e)) as Error & { code?: string };
    expect(error.code).toMatch(/^CONFIG_/);
    expect(error.message).toContain(path.join(dir, file));
    expect(error.message).not.toContain('\n');
    // And as a searched project file it only switches itself off.
    const searched = tmpProject({ [file === 'self.yaml' ? '.hooksrc.yaml' : '.hooksrc.json']: text });
    const config = await loadConfig({ cwd: searched, env: isolatedEnv(searched) });
    expect(config.layers[0]).toMatchObject({ active: false });
    expect(config.warnings[0]!.split('\n')).toHaveLength(1);
  });
});
