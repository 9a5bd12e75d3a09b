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

describe('--fail-closed, per agent', () => {
  const gated: Record<string, { file: string; events: string[]; list: (doc: any) => Record<string, any[]> }> = {
    'claude-code': { file: '.claude/settings.json', events: ['PreToolUse', 'UserPromptSubmit'], list: (d) => d.hooks },
    codex: { file: '.codex/hooks.json', events: ['PreToolUse', 'UserPromptSubmit'], list: (d) => d.hooks },
    gemini: { file: '.gemini/settings.json', events: ['BeforeTool', 'BeforeAgent'], list: (d) => d.hooks },
    cursor: { file: '.cursor/hooks.json', events: ['preToolUse', 'beforeSubmitPrompt'], list: (d) => d.hooks },
    copilot: { file: '.github/hooks/agent-hooks.json', events: ['preToolUse', 'userPromptSubmitted'], list: (d) => d.hooks },
  };
  for (const [agent, g] of Object.entries(gated)) {
    it(`${agent}: only the gating events block on a runner error (and a missing runner, where the agent can say so)`, async () => {
      const { readFileSync } = await import('node:fs');
      const dir = tmpProject({ 'package.json': JSON.stringify({ devDependencies: { 'agent-hooks': '*' } }) });
      expect((await hooks(['install', agent, '--fail-closed'], dir, tmpProject())).code).toBe(0);
      const table = g.list(JSON.parse(readFileSync(path.join(dir, g.file), 'utf8')));
      for (const [event, entries] of Object.entries(table)) {
        const handler = entries[0].hooks?.[0] ?? entries[0];
        const command: string = handler.command ?? handler.bash;
        const closed = g.events.includes(event);
        expect(command.includes(' --on-error block # agent-hooks'), `${event}: ${command}`).toBe(closed);
        if (agent === 'claude-code') expect(handler.onFailure, event).toBe(closed ? 'block' : undefined);
        if (agent === 'cursor') expect(handler.failClosed, event).toBe(closed ? true : undefined);
      }
    });
  }
});

describe('the notes install prints', () => {
  it('a project without the dependency, installed from a global copy: the entries run agent-hooks on PATH, and stderr says what teammates need', async () => {
    const dir = tmpProject();
    const r = await hooks(['install', 'claude-code'], dir, tmpProject());
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('agent-hooks: note: agent-hooks is not a dependency of this project, so the entries run the "agent-hooks" on PATH: every teammate needs it installed globally (npm i -g agent-hooks), or add it to the project (npm i -D agent-hooks) and install again\n');
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8')).hooks.PostToolUse[0].hooks[0].command).toBe('agent-hooks run post-tool-use --dialect claude-code # agent-hooks');
  });
});
