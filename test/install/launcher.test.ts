// What an installed entry runs: the project's dependency by a project-relative path, the global copy
// by name or by absolute path, and the refusals (a --user install from a project's copy or npx's cache).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseLauncher, copyKind, gitRoot, projectDependency } from '../../src/install/launcher.js';
import { launcherWord } from '../../src/install/shell.js';
import { tmpProject } from '../helpers.js';
import { hooks } from './kit.js';

/** A fake agent-hooks package at `root` (package.json + bin/hooks.js); returns its bin. */
function fakeCopy(root: string): string {
  mkdirSync(path.join(root, 'bin'), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'agent-hooks' }));
  writeFileSync(path.join(root, 'bin', 'hooks.js'), '');
  return path.join(root, 'bin', 'hooks.js');
}

describe('where the running copy lives', () => {
  const base = tmpProject({ 'app/package.json': '{"name":"app"}' });
  const local = fakeCopy(path.join(base, 'app', 'node_modules', 'agent-hooks'));
  const global = fakeCopy(path.join(base, 'usr', 'lib', 'node_modules', 'agent-hooks'));
  const npx = fakeCopy(path.join(base, '.npm', '_npx', '1a2b', 'node_modules', 'agent-hooks'));

  it('a global install, a project\'s dependency, npx\'s cache', () => {
    expect(copyKind(global)).toEqual({ kind: 'global' });
    // pnpm's and yarn's global folders hold a package.json, and are still global.
    for (const folder of [['.local', 'share', 'pnpm', 'global', '5'], ['.config', 'yarn', 'global']]) {
      const owner = path.join(base, ...folder);
      mkdirSync(owner, { recursive: true });
      writeFileSync(path.join(owner, 'package.json'), '{}');
      expect(copyKind(fakeCopy(path.join(owner, 'node_modules', 'agent-hooks')))).toEqual({ kind: 'global' });
    }
    expect(copyKind(local)).toMatchObject({ kind: 'local', why: expect.stringContaining(`is a dependency of the project ${path.join(base, 'app')}`) });
    expect(copyKind(npx)).toMatchObject({ kind: 'transient', why: expect.stringContaining("npx's cache") });
  });

  it('--user runs only a global copy, by absolute path; a project\'s copy or npx\'s is refused with the reason', () => {
    expect(chooseLauncher('user', tmpProject(), global)).toEqual({ launcher: { kind: 'absolute', bin: global } });
    expect(() => chooseLauncher('user', tmpProject(), local)).toThrow(/^install --user: this copy .* is a dependency of the project .*; a user-level install serves every project, so it must run a copy that outlives this one: install agent-hooks globally/);
    expect(() => chooseLauncher('user', tmpProject(), npx)).toThrow(/^install --user: this copy .* is in npx's cache/);
  });

  it('--project runs the project\'s dependency; without one the global agent-hooks on PATH (with a note); from npx, refused', () => {
    const withDep = tmpProject({ 'package.json': JSON.stringify({ devDependencies: { 'agent-hooks': '^0.1.0' } }) });
    // Declared but not installed yet (a fresh clone): the same path, so teammates' installs never churn.
    expect(chooseLauncher('project', withDep, npx)).toEqual({ launcher: { kind: 'project', rel: 'node_modules/.bin/agent-hooks' } });
    const bare = tmpProject();
    expect(chooseLauncher('project', bare, global)).toMatchObject({ launcher: { kind: 'path' }, note: expect.stringContaining('every teammate needs it installed globally') });
    expect(() => chooseLauncher('project', bare, npx)).toThrow(/^install: agent-hooks is not a dependency of this project and this copy .* is in npx's cache, which npm may clear; add it to the project \(npm i -D agent-hooks\)/);
  });

  it('a workspace package finds the dependency hoisted to the repository root, but never above the repository', () => {
    const repo = tmpProject({ '.git/HEAD': 'ref: refs/heads/main\n', 'node_modules/agent-hooks/package.json': '{"name":"agent-hooks"}', 'packages/app/package.json': '{}' });
    expect(projectDependency(path.join(repo, 'packages', 'app'))).toBe('../../node_modules/.bin/agent-hooks');
    expect(gitRoot(path.join(repo, 'packages', 'app'))).toBe(repo);
    // A node_modules planted in a folder above the repository (say /tmp) is not the project's.
    const outer = tmpProject({ 'node_modules/agent-hooks/package.json': '{"name":"agent-hooks"}', 'repo/.git/HEAD': 'x' });
    expect(projectDependency(path.join(outer, 'repo'))).toBeUndefined();
  });

  it('the shell word for each launcher', () => {
    expect(launcherWord({ kind: 'project', rel: 'node_modules/.bin/agent-hooks' }, '"$CLAUDE_PROJECT_DIR"')).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks');
    expect(launcherWord({ kind: 'path' }, '"$X"')).toBe('agent-hooks');
    expect(launcherWord({ kind: 'absolute', bin: '/opt/a b/hooks.js' }, '"$X"')).toBe("'/opt/a b/hooks.js'");
  });
});

describe('re-running install on another machine does not churn the file', () => {
  it('two clones of a project at different paths, with different homes, get the same bytes', async () => {
    const files = { 'package.json': JSON.stringify({ devDependencies: { 'agent-hooks': '^0.1.0' } }) };
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const dir = tmpProject(files);
      for (const agent of ['claude-code', 'codex', 'gemini', 'cursor', 'copilot', 'opencode']) expect((await hooks(['install', agent], dir, tmpProject())).code).toBe(0);
      const { readFileSync } = await import('node:fs');
      texts.push(['.claude/settings.json', '.codex/hooks.json', '.gemini/settings.json', '.cursor/hooks.json', '.github/hooks/agent-hooks.json', '.opencode/plugin/agent-hooks.js'].map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n---\n'));
    }
    expect(texts[1]).toBe(texts[0]);
    expect(texts[0]).not.toMatch(/\/tmp\//);
  });
});
