// `extends` on real files: paths, packages in a temp node_modules, git sources from a bare repository made
// here (git+file://, never the network). Each attack a hostile repository or the agent could try is a case.
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner, loadConfig } from '../../src/engine.js';
import { cachedTree, cacheEntry, fetchGitSource } from '../../src/config/extends/git.js';
import { parseExtends } from '../../src/config/extends/source.js';
import { trustFiles } from '../../src/trust/coverage.js';
import { isolatedEnv, tmpProject } from '../helpers.js';
import { bareRepo } from './git-repo.js';

const hook = (id: string, more: Record<string, unknown> = {}) => ({ hooks: { preToolUse: [{ id, command: 'true', ...more }] } });
const json = (v: unknown) => JSON.stringify(v);
const preToolUse = (cwd: string) => ({ name: 'preToolUse' as const, payload: { cwd, tool_name: 'Bash', tool_input: { command: 'ls' } } }) as never;

/** A project with these files, nothing trusted, then its project config trusted as `hooks trust` records it (extends included). */
async function trustedProject(files: Record<string, string>, config = '.hooksrc.json') {
  const dir = tmpProject({ '.git/HEAD': '', ...files });
  const env = isolatedEnv(dir, {}, { trust: false });
  await trustFiles(env, [path.join(dir, config)]);
  return { dir, env };
}

/** The configured hooks' ids (with no config that runs, the built-in defaults run: not counted). */
const ids = (config: { hooks: { id: string; source: { layer: string } }[] }) => config.hooks.filter((h) => h.source.layer !== 'defaults').map((h) => h.id);

describe('extends: paths and packages', () => {
  it('merges the extended hooks under the naming layer, before its own, and each remembers how it came', async () => {
    const { dir, env } = await trustedProject({
      '.hooksrc.json': json({ extends: ['./policy/base.json', 'pkg/strict.yaml'], ...hook('own') }),
      'policy/base.json': json({ extends: './more.json', ...hook('base') }),
      'policy/more.json': json(hook('more')),
      'node_modules/pkg/strict.yaml': 'hooks:\n  preToolUse:\n    - id: strict\n      command: "true"\n',
    });
    const config = await loadConfig({ cwd: dir, env });
    expect(config.warnings).toEqual([]);
    expect(ids(config)).toEqual(['more', 'base', 'strict', 'own']);
    const more = config.hooks.find((h) => h.id === 'more')!;
    expect(more.source).toEqual({
      layer: 'project',
      file: path.join(dir, 'policy/more.json'),
      key: 'hooks.preToolUse[0]',
      via: [
        { file: path.join(dir, '.hooksrc.json'), extends: './policy/base.json' },
        { file: path.join(dir, 'policy/base.json'), extends: './more.json' },
      ],
    });
    expect(config.hooks.find((h) => h.id === 'own')!.source.via).toBeUndefined();
    // The layer's own file is listed first: what finds "the project layer" finds it.
    expect(config.layers[0]).toMatchObject({ layer: 'project', file: path.join(dir, '.hooksrc.json'), active: true });
    expect(config.projectDir).toBe(dir);
  });

  it('a bare package name reads the package\'s .hooksrc.json, from the naming file\'s node_modules', async () => {
    const { dir, env } = await trustedProject({
      '.hooksrc.json': json({ extends: '@team/hooks-policy' }),
      'node_modules/@team/hooks-policy/.hooksrc.json': json(hook('team')),
    });
    expect(ids(await loadConfig({ cwd: dir, env }))).toEqual(['team']);
  });

  it('the agent edits the package in node_modules after trust: the project is untrusted, the run says which file', async () => {
    const { dir, env } = await trustedProject({
      '.hooksrc.json': json({ extends: '@team/hooks-policy', ...hook('own') }),
      'node_modules/@team/hooks-policy/.hooksrc.json': json(hook('team')),
    });
    const runner = await createRunner({ cwd: dir, env });
    expect(ids(runner.config)).toEqual(['team', 'own']);
    writeFileSync(path.join(dir, 'node_modules/@team/hooks-policy/.hooksrc.json'), json({ hooks: {} }));
    // A runner kept for many events (hooks serve) re-checks before the next one.
    const decision = await runner.run(preToolUse(dir));
    expect(runner.config.hooks.filter((h) => h.source.layer === 'project')).toEqual([]);
    expect(decision.warnings.join('\n')).toContain(`extends:${path.join(dir, 'node_modules/@team/hooks-policy/.hooksrc.json')} changed`);
    const fresh = await loadConfig({ cwd: dir, env });
    expect(fresh.layers[0]).toMatchObject({ trust: 'untrusted', active: false });
    // Reviewed again: runs.
    await trustFiles(env, [path.join(dir, '.hooksrc.json')]);
    expect(ids(await loadConfig({ cwd: dir, env }))).toEqual(['own']);
  });

  it('a script an extended hook runs is covered too', async () => {
    const { dir, env } = await trustedProject({
      '.hooksrc.json': json({ extends: 'pkg/policy.json' }),
      'node_modules/pkg/policy.json': json(hook('check', { command: 'bash check.sh', cwd: '.' })),
      'node_modules/pkg/check.sh': 'exit 0\n',
    });
    expect(ids(await loadConfig({ cwd: dir, env }))).toEqual(['check']);
    appendFileSync(path.join(dir, 'node_modules/pkg/check.sh'), 'echo changed\n');
    const config = await loadConfig({ cwd: dir, env });
    expect(ids(config)).toEqual([]);
    expect(config.warnings.join('\n')).toContain('node_modules/pkg/check.sh changed');
  });

  it('a package that now resolves to another file is untrusted until reviewed', async () => {
    const { dir, env } = await trustedProject({
      '.hooksrc.json': json({ extends: 'pkg' }),
      'node_modules/pkg/.hooksrc.yaml': 'hooks: {}\n',
    });
    expect((await loadConfig({ cwd: dir, env })).layers[0]).toMatchObject({ active: true });
    // Looked for first: the package now means another file, which trust never saw.
    writeFileSync(path.join(dir, 'node_modules/pkg/.hooksrc.json'), json(hook('new')));
    const config = await loadConfig({ cwd: dir, env });
    expect(ids(config)).toEqual([]);
    expect(config.warnings.join('\n')).toMatch(/now extends .*node_modules\/pkg\/\.hooksrc\.json, which was not reviewed/);
  });

  it('the naming file may switch off a hook of what it extends (the extending file wins), not another one', async () => {
    const { dir, env } = await trustedProject({
      '.hooksrc.json': json({ extends: './base.json', hooks: { preToolUse: [{ id: 'noisy', enabled: false }] } }),
      'base.json': json({ hooks: { preToolUse: [{ id: 'noisy', command: 'true' }, { id: 'kept', command: 'true' }] } }),
    });
    const config = await loadConfig({ cwd: dir, env });
    expect(config.hooks.map((h) => [h.id, h.enabled])).toEqual([['noisy', false], ['kept', true]]);
    expect(config.hooks[0]!.overriddenBy).toMatchObject({ file: path.join(dir, '.hooksrc.json') });
  });

  it('the user layer may extend a file in the home folder (~/)', async () => {
    const home = tmpProject({ '.config/agent-hooks/config.json': json({ extends: '~/policies/team.json' }), 'policies/team.json': json(hook('team')) });
    const config = await loadConfig({ cwd: home, env: isolatedEnv(home) });
    expect(config.hooks.map((h) => [h.id, h.source.layer])).toEqual([['team', 'user']]);
  });

  it('a broken extended file in the user layer is switched off alone, with one line naming it', async () => {
    const home = tmpProject({ '.config/agent-hooks/config.json': json({ extends: '~/p.json', ...hook('mine') }), 'p.json': json({ hooks: { preToolUse: [{ id: 'x', command: 'true', timout: 3 }] } }) });
    const config = await loadConfig({ cwd: home, env: isolatedEnv(home) });
    expect(ids(config)).toEqual(['mine']);
    expect(config.warnings.join('\n')).toMatch(/p\.json: hooks\.preToolUse\[0\]\.timout: unknown key.*this extended file is switched off/);
  });
});

describe('extends: what a hostile repository tries', () => {
  const refused = async (files: Record<string, string>, spec: string, why: RegExp) => {
    const { dir, env } = await trustedProject({ '.hooksrc.json': json({ extends: spec, ...hook('own') }), ...files });
    const config = await loadConfig({ cwd: dir, env });
    // The project's own hooks still run; the entry is one warning naming the file and the entry.
    expect(ids(config)).toEqual(['own']);
    const warning = config.warnings.find((w) => w.includes('extends'));
    expect(warning).toMatch(why);
    expect(warning).toContain(path.join(dir, '.hooksrc.json'));
    expect(warning).not.toMatch(/\n/);
    return { dir, env, warning: warning! };
  };

  it('a file in the home folder (~/.ssh): refused, never read', async () => {
    const { warning } = await refused({}, '~/.ssh/id_ed25519.json', /only extend files inside its project/);
    expect(warning).not.toContain('PRIVATE');
  });

  it('an absolute path out of the project (/proc, /etc): refused', async () => {
    await refused({}, '/proc/self/environ.json', /not found|outside/);
    await refused({}, '/etc/hostname.json', /not found|outside/);
  });

  it('a symlink out of the project: refused, its target never read', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-outside-'));
    writeFileSync(path.join(outside, 'secret.json'), '{"PRIVATE": "not for the agent"}');
    const dir = tmpProject({ '.git/HEAD': '', '.hooksrc.json': json({ extends: './linked.json', ...hook('own') }) });
    symlinkSync(path.join(outside, 'secret.json'), path.join(dir, 'linked.json'));
    const env = isolatedEnv(dir, {}, { trust: false });
    await trustFiles(env, [path.join(dir, '.hooksrc.json')]);
    const config = await loadConfig({ cwd: dir, env });
    expect(ids(config)).toEqual(['own']);
    const warning = config.warnings.find((w) => w.includes('extends'))!;
    expect(warning).toMatch(/outside/);
    expect(warning).not.toContain('PRIVATE');
  });

  it('/proc by name, or through a data-named link: refused, never read', async () => {
    await refused({}, '/proc/self/environ', /JSON or YAML/);
    const dir = tmpProject({ '.git/HEAD': '', '.hooksrc.json': json({ extends: './env.json', ...hook('own') }) });
    symlinkSync('/proc/self/environ', path.join(dir, 'env.json'));
    const env = isolatedEnv(dir, {}, { trust: false });
    await trustFiles(env, [path.join(dir, '.hooksrc.json')]);
    const config = await loadConfig({ cwd: dir, env });
    expect(ids(config)).toEqual(['own']);
    expect(config.warnings.join('\n')).toMatch(/env\.json leads to \/proc\/.*outside/);
  });

  it('a FIFO at the extended name: refused without opening it (a read would hang the run)', async () => {
    const dir = tmpProject({ '.git/HEAD': '', '.hooksrc.json': json({ extends: './policy.json', ...hook('own') }) });
    execFileSync('mkfifo', [path.join(dir, 'policy.json')]);
    const env = isolatedEnv(dir, {}, { trust: false });
    await trustFiles(env, [path.join(dir, '.hooksrc.json')]);
    const config = await loadConfig({ cwd: dir, env });
    expect(ids(config)).toEqual(['own']);
    expect(config.warnings.join('\n')).toMatch(/policy\.json: not a regular file/);
  });

  it('a package linked out of the project: refused', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-outside-'));
    writeFileSync(path.join(outside, '.hooksrc.json'), json(hook('linked')));
    const dir = tmpProject({ '.git/HEAD': '', '.hooksrc.json': json({ extends: 'linked', ...hook('own') }) });
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(outside, path.join(dir, 'node_modules/linked'));
    const env = isolatedEnv(dir, {}, { trust: false });
    await trustFiles(env, [path.join(dir, '.hooksrc.json')]);
    const config = await loadConfig({ cwd: dir, env });
    expect(ids(config)).toEqual(['own']);
    expect(config.warnings.join('\n')).toMatch(/leads to .* outside/);
  });

  it('a JavaScript file (code would run): refused, never imported', async () => {
    await refused({ 'evil.mjs': 'throw new Error("imported")' }, './evil.mjs', /JSON or YAML/);
  });

  it('a data-named link to a JavaScript file is parsed as data, never imported', async () => {
    const dir = tmpProject({ '.git/HEAD': '', '.hooksrc.json': json({ extends: './policy.json', ...hook('own') }), 'evil.mjs': 'globalThis.EXTENDS_IMPORTED = 1; export default {}' });
    symlinkSync(path.join(dir, 'evil.mjs'), path.join(dir, 'policy.json'));
    const env = isolatedEnv(dir, {}, { trust: false });
    await trustFiles(env, [path.join(dir, '.hooksrc.json')]);
    const config = await loadConfig({ cwd: dir, env });
    expect((globalThis as { EXTENDS_IMPORTED?: number }).EXTENDS_IMPORTED).toBeUndefined();
    expect(config.warnings.join('\n')).toMatch(/policy\.json: invalid JSON/);
  });

  it('a huge file: one line, not read', async () => {
    await refused({ 'big.json': `{"x": "${'a'.repeat(5 * 1024 * 1024)}"}` }, './big.json', /more than a config file may have/);
  });

  it('a cycle: said once, not followed', async () => {
    const { dir, env } = await trustedProject({
      '.hooksrc.json': json({ extends: './a.json', ...hook('own') }),
      'a.json': json({ extends: './b.json', ...hook('a') }),
      'b.json': json({ extends: './a.json', ...hook('b') }),
    });
    const config = await loadConfig({ cwd: dir, env });
    expect(ids(config)).toEqual(['b', 'a', 'own']);
    expect(config.warnings.join('\n')).toMatch(/a\.json extends itself/);
  });

  it('deeper than the limit: the rest is refused with one line', async () => {
    const files: Record<string, string> = { '.hooksrc.json': json({ extends: './l1.json' }) };
    for (let i = 1; i <= 10; i++) files[`l${i}.json`] = json({ extends: `./l${i + 1}.json`, ...hook(`l${i}`) });
    files['l11.json'] = json(hook('l11'));
    const { dir, env } = await trustedProject(files);
    const config = await loadConfig({ cwd: dir, env });
    expect(ids(config)).toEqual(['l8', 'l7', 'l6', 'l5', 'l4', 'l3', 'l2', 'l1']);
    expect(config.warnings.join('\n')).toMatch(/more than 8 levels of extends/);
  });

  it('an unpinned git URL: refused with one line', async () => {
    await refused({}, 'git+https://example.com/team/policy.git#main', /full 40-character commit hash/);
  });

  it('a project may not set requireExtends', async () => {
    const { dir, env } = await trustedProject({ '.hooksrc.json': json({ requireExtends: ['./a.json'], ...hook('own') }), 'a.json': json(hook('a')) });
    const config = await loadConfig({ cwd: dir, env });
    expect(ids(config)).toEqual([]);
    expect(config.warnings.join('\n')).toMatch(/requireExtends: only the managed config itself may set this/);
  });
});

describe('extends: git sources pinned by commit', () => {
  it('not fetched: a warning on the run, never a fetch; fetched once, then read from the cache offline', async () => {
    const repo = bareRepo({ '.hooksrc.json': json(hook('remote')), 'strict/policy.yaml': 'hooks:\n  preToolUse:\n    - id: strict\n      command: "true"\n' });
    const spec = `${repo.url}#${repo.commit}`;
    const home = tmpProject({ '.config/agent-hooks/config.json': json({ extends: [spec, `${spec}:strict/policy.yaml`] }) });
    const env = isolatedEnv(home);
    const before = await loadConfig({ cwd: home, env });
    expect(ids(before)).toEqual([]);
    expect(before.warnings.join('\n')).toMatch(/is not fetched yet, so its hooks do not run; .*npx agent-hooks trust --fetch/);
    const parsed = parseExtends(spec);
    if (!parsed.ok || parsed.source.kind !== 'git') throw new Error('not a git source');
    expect(fetchGitSource(parsed.source, env)).toHaveProperty('tree');
    // The repository is gone: the cache is enough.
    execFileSync('rm', ['-rf', repo.bare]);
    const after = await loadConfig({ cwd: home, env });
    expect(after.hooks.map((h) => [h.id, h.source.layer, h.source.via?.[0]?.extends])).toEqual([
      ['remote', 'user', spec],
      ['strict', 'user', `${spec}:strict/policy.yaml`],
    ]);
  });

  it('a commit the repository does not have: one line, nothing cached', async () => {
    const repo = bareRepo({ '.hooksrc.json': json(hook('remote')) });
    const parsed = parseExtends(`${repo.url}#${'0'.repeat(40)}`);
    if (!parsed.ok || parsed.source.kind !== 'git') throw new Error('not a git source');
    const home = tmpProject();
    const r = fetchGitSource(parsed.source, isolatedEnv(home));
    expect(r).toHaveProperty('problem');
    expect((r as { problem: string }).problem).not.toMatch(/\n/);
  });

  it('a project trusts a pinned source as fetched; the cached copy edited afterwards is untrusted', async () => {
    const repo = bareRepo({ '.hooksrc.json': json(hook('remote')) });
    const spec = `${repo.url}#${repo.commit}`;
    const dir = tmpProject({ '.git/HEAD': '', '.hooksrc.json': json({ extends: spec, ...hook('own') }) });
    const env = isolatedEnv(dir, {}, { trust: false });
    const parsed = parseExtends(spec);
    if (!parsed.ok || parsed.source.kind !== 'git') throw new Error('not a git source');
    const { tree } = fetchGitSource(parsed.source, env) as { tree: string };
    await trustFiles(env, [path.join(dir, '.hooksrc.json')]);
    expect(ids(await loadConfig({ cwd: dir, env }))).toEqual(['remote', 'own']);
    writeFileSync(path.join(tree, '.hooksrc.json'), json({ hooks: {} }));
    const config = await loadConfig({ cwd: dir, env });
    expect(ids(config)).toEqual([]);
    expect(config.warnings.join('\n')).toContain(`extends:${path.join(tree, '.hooksrc.json')} changed`);
  });

  it('a cache a repository checks out (XDG_CACHE_HOME from its .env) never stands in for the user\'s pinned source', async () => {
    const spec = `git+https://example.invalid/team/policy.git#${'a'.repeat(40)}`;
    const parsed = parseExtends(spec);
    if (!parsed.ok || parsed.source.kind !== 'git') throw new Error('not a git source');
    const home = tmpProject({ '.config/agent-hooks/config.json': json({ extends: spec }) });
    const repo = tmpProject();
    const planted = path.join(repo, 'planted-cache');
    // The entry the user's cache would have, as a checkout gives it: 0755 folders, 0644 files.
    const entry = cacheEntry(parsed.source, { ...process.env, XDG_CACHE_HOME: planted });
    mkdirSync(path.join(entry, 'tree'), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(entry, 'ok'), `${'a'.repeat(40)}\n`, { mode: 0o644 });
    writeFileSync(path.join(entry, 'tree', '.hooksrc.json'), json(hook('planted')), { mode: 0o644 });
    chmodSync(entry, 0o755);
    const env = isolatedEnv(home, { XDG_CACHE_HOME: planted });
    expect(cachedTree(parsed.source, env)).toBeUndefined();
    const config = await loadConfig({ cwd: home, env });
    expect(ids(config)).toEqual([]);
    expect(config.warnings.join('\n')).toMatch(/is not fetched yet, so its hooks do not run/);
    // The same entry made private, as fetchGitSource makes it, is read.
    chmodSync(entry, 0o700);
    chmodSync(path.join(entry, 'ok'), 0o600);
    expect(cachedTree(parsed.source, env)).toBe(path.join(entry, 'tree'));
  });

  it('a link in the repository out of its checkout: refused', async () => {
    const repo = bareRepo({ 'policy.json': json(hook('remote')) });
    // Replace the file with a link to a file outside, in a second commit.
    const root = path.dirname(repo.bare);
    const work = path.join(root, 'work');
    const git = (args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: work, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
    execFileSync('rm', [path.join(work, 'policy.json')]);
    symlinkSync('/etc/hostname', path.join(work, 'policy.json'));
    git(['add', '-A']);
    git(['commit', '--quiet', '-m', 'link']);
    git(['push', '--quiet', repo.bare, 'HEAD:main']);
    const commit = git(['rev-parse', 'HEAD']).trim();
    const spec = `${repo.url}#${commit}:policy.json`;
    const home = tmpProject({ '.config/agent-hooks/config.json': json({ extends: spec }) });
    const env = isolatedEnv(home);
    const parsed = parseExtends(spec);
    if (!parsed.ok || parsed.source.kind !== 'git') throw new Error('not a git source');
    fetchGitSource(parsed.source, env);
    const config = await loadConfig({ cwd: home, env });
    expect(ids(config)).toEqual([]);
    expect(config.warnings.join('\n')).toMatch(/outside/);
  });
});

describe('requireExtends in the managed layer', () => {
  it('its hooks are managed hooks: a project cannot switch them off', async () => {
    const home = tmpProject({
      'admin/managed.json': json({ requireExtends: ['./policy.json'] }),
      'admin/policy.json': json(hook('company-policy')),
      'p/.git/HEAD': '',
      'p/.hooksrc.local.json': json({ hooks: { preToolUse: [{ id: 'company-policy', enabled: false }] } }),
    });
    const env = isolatedEnv(home, { AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'admin/managed.json') }, { trust: path.join(home, 'p') });
    const config = await loadConfig({ cwd: path.join(home, 'p'), env });
    expect(config.hooks.map((h) => [h.id, h.source.layer, h.enabled])).toEqual([['company-policy', 'managed', true]]);
    expect(config.warnings.join('\n')).toMatch(/override of "company-policy" refused: it belongs to the managed layer/);
  });

  it('a required policy that cannot be loaded blocks what it would judge (fails closed); a plain extends only warns', async () => {
    const home = tmpProject({ 'admin/managed.json': json({ requireExtends: ['./missing.json'], extends: './optional-missing.json' }) });
    const env = isolatedEnv(home, { AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'admin/managed.json') });
    const runner = await createRunner({ cwd: home, env });
    expect(runner.config.requiredMissing).toHaveLength(1);
    const decision = await runner.run(preToolUse(home));
    expect(decision.decision).toBe('block');
    expect(decision.reason).toMatch(/requires a policy that cannot be loaded.*missing\.json: not found/);
    const observe = await runner.run({ name: 'notification', payload: { cwd: home, message: 'hi' } } as never);
    expect(observe.decision).not.toBe('block');
  });
});
