// What is kept read-only inside a writable folder, read from the project's own (untrusted) files:
// the config's words that name scripts, git's config, package.json. Never throws, never names a path
// outside the folder, always keeps what a config runs; and the mounts come in an order that works.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInside } from '../../src/paths.js';
import { configEntries, protectWritable, referencedWords, scriptPaths } from '../../src/sandbox/protect.js';

const params = { seed: 20261127, numRuns: 150, interruptAfterTimeLimit: 8_000 };

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-protect-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('referencedWords / scriptPaths', () => {
  it('never throws, and every word is relative (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        for (const word of referencedWords(text)) {
          expect(word.startsWith('/') || word.startsWith('~') || word.startsWith('-')).toBe(false);
          expect(word).not.toBe('');
        }
      }),
      params,
    );
  });

  it('a script a command names is found, whatever surrounds it; nothing outside the project is (property)', () => {
    const dir = project({ 'hooks/guard.py': 'x', 'run.sh': 'x', 'outside-marker': '' });
    const noise = fc.string({ maxLength: 30 }).map((s) => s.replace(/[\w./$~{}-]/g, ' '));
    fc.assert(
      fc.property(noise, noise, fc.constantFrom('hooks/guard.py', './hooks/guard.py', '$CLAUDE_PROJECT_DIR/hooks/guard.py', '"${CLAUDE_PROJECT_DIR}"/hooks/guard.py'), (before, after, spelled) => {
        writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { preToolUse: [{ command: `${before} python3 ${spelled} ${after}`, if: { file_path: 'run.sh' } }, { command: '../../etc/passwd /etc/shadow ~/.ssh/id_rsa' }] } }));
        const found = scriptPaths(dir);
        expect(found).toContain('hooks');
        // The `if` names run.sh, which runs nothing: only commands, args and cwd count in a JSON config.
        expect(found).not.toContain('run.sh');
        for (const rel of found) expect(isInside(dir, path.resolve(dir, rel))).toBe(true);
      }),
      { ...params, numRuns: 60 },
    );
  });

  it("a JS config's words count, package.json only under its hooks key", () => {
    const dir = project({ 'hooks.config.mjs': "import { check } from './lib/helpers.js';\nexport default { hooks: {} };\n", 'lib/helpers.js': '', 'dist/index.js': '', 'guard.sh': '', 'package.json': JSON.stringify({ main: 'dist/index.js', hooks: { stop: [{ command: './guard.sh', args: [] }] } }) });
    expect(scriptPaths(dir).sort()).toEqual(['guard.sh', 'lib']);
  });
});

describe('protectWritable', () => {
  it('parents before children; every path inside the writable folder; each kept path has its folders pinned', () => {
    const dir = project({ '.git/config': '[core]\n\thooksPath = .husky/_\n', '.git/hooks/x.sample': '', '.hooksrc.json': '{"hooks":{"stop":[{"command":"bash tools/ci/check.sh"}]}}', 'tools/ci/check.sh': '' });
    const found = protectWritable([dir]);
    if ('problem' in found) throw new Error(found.problem);
    const seen: string[] = [];
    for (const m of found.mounts) {
      expect(isInside(dir, m.path) && m.path !== dir).toBe(true);
      for (const earlier of seen) expect(isInside(m.path, earlier) && earlier !== m.path, `${earlier} before ${m.path}`).toBe(false);
      seen.push(m.path);
    }
    const kinds = Object.fromEntries(found.mounts.map((m) => [path.relative(dir, m.path), m.kind]));
    expect(kinds).toMatchObject({ '.git': 'pin', '.git/hooks': 'ro', '.git/config': 'ro', '.husky': 'dir', '.hooksrc.json': 'ro', tools: 'pin', 'tools/ci': 'ro', '.envrc': 'file', '.claude': 'dir', '.github': 'dir' });
  });

  it('a link where a kept path is: a problem naming it (the link could be replaced)', () => {
    const dir = project({ 'real-claude/settings.json': '{}' });
    symlinkSync('real-claude', path.join(dir, '.claude'));
    expect(protectWritable([dir])).toEqual({ problem: `${path.join(dir, '.claude')} is a symbolic link, which a sandboxed command could replace; the sandbox cannot keep what the host runs there read-only` });
  });
});

describe('git: hooksPath, included configs, hook managers', () => {
  const kindsOf = (dir: string) => {
    const found = protectWritable([dir]);
    if ('problem' in found) throw new Error(found.problem);
    for (const m of found.mounts) expect(isInside(dir, m.path) && m.path !== dir, m.path).toBe(true);
    return Object.fromEntries(found.mounts.map((m) => [path.relative(dir, m.path), m.kind]));
  };

  it("husky's .husky/_ keeps all of .husky; included configs are kept, transitively, never outside; hook managers' files are kept", () => {
    const dir = project({
      '.git/config': '[core]\n\thooksPath = .husky/_\n[include]\n\tpath = ../.gitconfig.shared\n[include] path = ~/.gitconfig\n[include]\n\tpath = /etc/gitconfig\n',
      '.husky/_/h': '#!/bin/sh\n',
      '.husky/pre-commit': 'npm test\n',
      '.gitconfig.shared': '[includeIf "gitdir:~/work/"]\n\tPath = "conf/more.cfg" ; a comment\n[include]\n\tpath = ../../outside.cfg\n',
      'conf/more.cfg': '[include]\n\tpath = ../.gitconfig.shared\n\tpath = later.cfg # missing: git skips it, so it could be made\n',
      '.pre-commit-config.yaml': 'repos: []\n',
      'lefthook.yml': 'pre-commit: {}\n',
      '.lefthook.yml': '',
      'lefthook-local.yml': '',
      '.lefthook/pre-commit/run.sh': '',
      '.overcommit.yml': '',
      'src/app.ts': '',
    });
    expect(kindsOf(dir)).toMatchObject({
      '.husky': 'ro',
      '.gitconfig.shared': 'ro',
      conf: 'pin',
      'conf/more.cfg': 'ro',
      'conf/later.cfg': 'file',
      '.pre-commit-config.yaml': 'ro',
      'lefthook.yml': 'ro',
      '.lefthook.yml': 'ro',
      'lefthook-local.yml': 'ro',
      '.lefthook': 'ro',
      '.overcommit.yml': 'ro',
    });
    expect(kindsOf(dir)).not.toHaveProperty('src');
    // `~/.gitconfig` is the home folder's, not a folder named `~` beside the config.
    expect(Object.keys(kindsOf(dir)).filter((rel) => rel.includes('~'))).toEqual([]);
  });

  it('a hooksPath ending in _ keeps its parent (a placeholder when missing); other hooksPaths are kept as named', () => {
    expect(kindsOf(project({ '.git/config': '[core]\n\thooksPath = "tools/husky/_"\n' }))).toMatchObject({ tools: 'dir' });
    expect(kindsOf(project({ '.git/config': '[core]\n\thooksPath = tools/husky/_\n', 'tools/husky/pre-commit': '', 'tools/husky/_/h': '' }))).toMatchObject({ tools: 'pin', 'tools/husky': 'ro' });
    expect(kindsOf(project({ '.git/config': '[core]\n\thooksPath = .githooks\n', '.githooks/pre-push': '' }))).toMatchObject({ '.githooks': 'ro' });
    // Without a repository, an existing .husky folder is kept all the same (a `git init` in the sandbox is stopped by the .git placeholder).
    expect(kindsOf(project({ '.husky/pre-commit': '' }))).toMatchObject({ '.git': 'dir', '.husky': 'ro' });
  });

  it('configEntries reads quoting, escapes, comments and section spellings as git does', () => {
    expect(configEntries('[include]\n  path = a b ; c\n[includeIf "onbranch:x"] path = " q " # c\n[Include]\nPATH=x\\"y\n[core]\n\thooksPath=".hus;ky"/_\n[other]\n\tpath = no\n')).toEqual([
      { key: 'include.path', value: 'a b' },
      { key: 'include.path', value: ' q ' },
      { key: 'include.path', value: 'x"y' },
      { key: 'core.hookspath', value: '.hus;ky/_' },
    ]);
  });

  it('never throws on any config text; every mount stays inside the project (property)', () => {
    const dir = project({ 'a.cfg': '[include]\n\tpath = .git/config\n' });
    mkdirSync(path.join(dir, '.git'));
    const piece = fc.constantFrom('[include]', '[includeIf "gitdir:~/"]', '[core]', '[core "x"]', 'path', 'hooksPath', ' = ', '=', '../', '..', '/etc/', '~/', '/', '"', '\\', '#', ';', ' ', '\t', '\n', '\r\n', 'a.cfg', '_', '.husky/', '.git', 'x');
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 4 })), { maxLength: 60 }), (pieces) => {
        writeFileSync(path.join(dir, '.git', 'config'), pieces.join(''));
        const found = protectWritable([dir]);
        if ('problem' in found) return;
        for (const m of found.mounts) expect(isInside(dir, m.path) && m.path !== dir, m.path).toBe(true);
      }),
      params,
    );
  });
});
