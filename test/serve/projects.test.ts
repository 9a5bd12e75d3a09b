// The server's check that a project's config is still what it loaded: a stat per folder of the search and
// per file that is there, every name of a folder again only when the folder moved. Each change below is
// made once the stamps have settled (past the second in which a change may share a timestamp), and the next
// lookup must load what `hooks run` would load now; an unrelated change must not cost a load.
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createRunner, type Runner } from '../../src/engine.js';
import { Projects } from '../../src/serve/projects.js';
import { isolatedEnv, tmpProject, trustProject } from '../helpers.js';

vi.setConfig({ testTimeout: 120_000 });

const settle = () => new Promise((r) => setTimeout(r, 1_100));
/** The project's hooks, and every layer found with its trust (an untrusted config runs nothing, but is there). */
const ids = (runner: Runner) => [
  ...runner.config.hooks.filter((h) => h.source.layer === 'project').map((h) => h.id),
  ...runner.config.layers.filter((l) => l.layer === 'project').map((l) => `${path.basename(l.file)} ${l.trust}`),
];
const config = (id: string) => JSON.stringify({ hooks: { preToolUse: [{ id, command: 'true' }] } });

/** A repository (`.git` at its root) with the search starting two folders down, and a server's projects over it. */
async function setup() {
  const root = tmpProject({ '.git/HEAD': 'ref: refs/heads/main\n' });
  const start = path.join(root, 'a', 'b');
  mkdirSync(start, { recursive: true });
  const env = isolatedEnv(tmpProject());
  const projects = new Projects(env);
  const fresh = async () => ids(await createRunner({ cwd: start, env }));
  /** The next lookup's hooks, checked against a fresh load, and how many loads it took. */
  const next = async () => {
    const before = projects.stats().loads;
    const got = ids(await projects.runner(start));
    expect(got).toEqual(await fresh());
    return { ids: got, loads: projects.stats().loads - before };
  };
  await next();
  await settle();
  await next(); // one more load if the first was racy
  expect((await next()).loads).toBe(0);
  return { root, start, env, next };
}

describe('a project is loaded again exactly when what decides its config changed', () => {
  it('a config appearing in a folder above the start (below the repository root) is seen; an unrelated file is not a load', async () => {
    const { root, start, next } = await setup();
    writeFileSync(path.join(start, 'notes.txt'), 'x');
    writeFileSync(path.join(root, 'a', 'notes.txt'), 'x');
    await settle();
    expect(await next()).toEqual({ ids: [], loads: 0 });
    // Not trusted: nothing but the folder's times and the name tell (the trust store does not move).
    writeFileSync(path.join(root, 'a', '.hooksrc.json'), config('above'));
    expect(await next()).toEqual({ ids: ['.hooksrc.json untrusted'], loads: 1 });
  });

  it('an edit in place of the config (same size, same inode) is seen', async () => {
    const { root, env, next } = await setup();
    const file = path.join(root, 'a', '.hooksrc.json');
    writeFileSync(file, config('one'));
    trustProject(path.join(root, 'a'), env);
    await settle();
    expect((await next()).ids).toEqual(['one', '.hooksrc.json trusted']);
    await settle();
    expect((await next()).loads).toBe(0);
    // Not trusted: only the file's own stat tells.
    writeFileSync(file, config('two'));
    expect(await next()).toEqual({ ids: ['.hooksrc.json untrusted'], loads: 1 });
  });

  it('a dangling link at a config name is seen once what it points to appears (its folder does not move)', async () => {
    const { start, next } = await setup();
    const elsewhere = tmpProject();
    symlinkSync(path.join(elsewhere, 'later.json'), path.join(start, '.hooksrc.json'));
    await settle();
    expect((await next()).ids).toEqual([]);
    await settle();
    expect((await next()).loads).toBe(0);
    writeFileSync(path.join(elsewhere, 'later.json'), config('linked'));
    expect(await next()).toEqual({ ids: ['.hooksrc.json untrusted'], loads: 1 });
  });

  it('a folder of the search opened to others is seen (the loader then refuses its config)', async () => {
    const { root, env, next } = await setup();
    const dir = path.join(root, 'a');
    writeFileSync(path.join(dir, '.hooksrc.json'), config('mine'));
    trustProject(dir, env);
    await settle();
    expect((await next()).ids).toEqual(['mine', '.hooksrc.json trusted']);
    await settle();
    expect((await next()).loads).toBe(0);
    chmodSync(dir, 0o777);
    expect(await next()).toEqual({ ids: [], loads: 1 });
  });

  it('a .git appearing below the root stops the search there; trusting a config is seen', async () => {
    const { root, start, env, next } = await setup();
    writeFileSync(path.join(root, 'a', '.hooksrc.json'), config('above'));
    await settle();
    expect((await next()).ids).toEqual(['.hooksrc.json untrusted']);
    await settle();
    expect((await next()).loads).toBe(0);
    trustProject(path.join(root, 'a'), env);
    expect(await next()).toEqual({ ids: ['above', '.hooksrc.json trusted'], loads: 1 });
    await settle();
    await next();
    mkdirSync(path.join(start, '.git'));
    expect(await next()).toEqual({ ids: [], loads: 1 });
  });
});
