// The shared parts of install: the bin's location, shell quoting, the diff, and writing files safely;
// and the real CLI process (the esbuild bundle) finding the bin from dist/bundle.
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { hooksBin, isTransient, packageRoot } from '../../src/install/bin.js';
import { unifiedDiff } from '../../src/install/diff.js';
import { install, label, uninstall } from '../../src/install/index.js';
import { hookCommand, isOurCommand, shellQuote } from '../../src/install/shell.js';
import { isolatedEnv, ROOT, runCli, tmpProject } from '../helpers.js';
import { backupOf, dependentProject, testEnv } from './kit.js';

describe('the bin', () => {
  it('is found from src/, from a bundle chunk, and past a dependency\'s own package.json', () => {
    expect(hooksBin()).toBe(path.join(ROOT, 'bin', 'hooks.js'));
    expect(packageRoot(path.join(ROOT, 'dist', 'bundle', 'chunks', 'install-X.js'))).toBe(ROOT);
    expect(packageRoot(path.join(ROOT, 'node_modules', 'zod', 'index.js'))).toBe(ROOT);
    expect(() => packageRoot('/tmp/x.js')).toThrow(/cannot find the agent-hooks package.json/);
  });

  it('in the npx cache is flagged as transient', () => {
    expect(isTransient('/home/u/.npm/_npx/1a2b/node_modules/agent-hooks/bin/hooks.js')).toBe(true);
    expect(isTransient('/usr/lib/node_modules/agent-hooks/bin/hooks.js')).toBe(false);
  });

  it('the real CLI (the bundle in dist/bundle): the project file names no machine path; --user names the global copy', () => {
    const dir = dependentProject();
    const home = tmpProject();
    const r = runCli(['install', 'claude-code'], { cwd: dir, env: testEnv(home) });
    expect(r).toMatchObject({ code: 0, stdout: 'created .claude/settings.json: 3 agent-hooks entries installed\n', stderr: '' });
    const text = readFileSync(path.join(dir, '.claude/settings.json'), 'utf8');
    // --project: the events the config uses (here the default guards'); --user: every event.
    expect(JSON.parse(text).hooks.PostToolUse[0].hooks[0].command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks run post-tool-use --dialect claude-code # agent-hooks');
    expect(text).not.toContain(dir);
    expect(text).not.toContain(ROOT);
    const user = runCli(['install', 'claude-code', '--user'], { cwd: dir, env: testEnv(home) });
    expect(user.code).toBe(0);
    const settings = JSON.parse(readFileSync(path.join(home, '.claude/settings.json'), 'utf8'));
    expect(settings.hooks.Stop[0].hooks[0].command).toBe(`${path.join(ROOT, 'bin', 'hooks.js')} run stop --dialect claude-code # agent-hooks`);
  });
});

describe('shell quoting', () => {
  it.each([
    ['/usr/lib/node_modules/agent-hooks/bin/hooks.js', '/usr/lib/node_modules/agent-hooks/bin/hooks.js'],
    ['/home/a b/hooks.js', "'/home/a b/hooks.js'"],
    ["/home/o'neil/hooks.js", "'/home/o'\\''neil/hooks.js'"],
    ['/x/$HOME/`id`/hooks.js', "'/x/$HOME/`id`/hooks.js'"],
  ])('%s', (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
    expect(spawnSync('sh', ['-c', `printf %s ${quoted}`], { encoding: 'utf8' }).stdout).toBe(word);
  });

  it('the marker is what makes a command ours', () => {
    expect(isOurCommand(hookCommand("/a b/hooks.js", 'stop', 'codex'))).toBe(true);
    expect(isOurCommand('./my-hook.sh # agent-hooks-fan')).toBe(false);
    expect(isOurCommand('./my-hook.sh')).toBe(false);
    expect(isOurCommand(undefined)).toBe(false);
  });

  it('a bin under a path with a space and a quote still runs from the installed command', () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { stop: [{ command: "echo 'keep going' >&2; exit 2" }] } }) });
    const odd = path.join(tmpProject(), "it's a dir");
    mkdirSync(odd);
    symlinkSync(path.join(ROOT, 'bin', 'hooks.js'), path.join(odd, 'hooks.js'));
    const home = tmpProject();
    install({ agent: 'claude-code', scope: 'project', where: { cwd: dir, home, env: { HOME: home } }, dryRun: false, launcher: { kind: 'absolute', bin: path.join(odd, 'hooks.js') } });
    const command = JSON.parse(readFileSync(path.join(dir, '.claude/settings.json'), 'utf8')).hooks.Stop[0].hooks[0].command as string;
    expect(command.startsWith(`'${odd.replace(/'/g, `'\\''`)}/hooks.js' run stop`)).toBe(true);
    const r = spawnSync('sh', ['-c', command], { cwd: dir, env: isolatedEnv(home, {}, { trust: dir }), input: JSON.stringify({ hook_event_name: 'Stop', session_id: 's', cwd: dir }), encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ decision: 'block', reason: 'keep going' });
  });
});

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', 'f')).toBe('');
  });

  it('shows a change with three lines of context and correct ranges', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].join('\n') + '\n';
    const after = ['1', '2', '3', '4', '5', 'five', '6', '7', '8', '9', '10'].join('\n') + '\n';
    expect(unifiedDiff(before, after, 'f.json')).toBe(['--- a/f.json', '+++ b/f.json', '@@ -3,6 +3,7 @@', ' 3', ' 4', ' 5', '+five', ' 6', ' 7', ' 8', ''].join('\n'));
  });

  it('splits far-apart changes into hunks, and diffs a new or deleted file against /dev/null', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n') + '\n';
    const after = before.replace('l1\n', 'L1\n').replace('l18\n', 'L18\n');
    const diff = unifiedDiff(before, after, 'f');
    expect(diff.match(/^@@/gm)).toHaveLength(2);
    expect(diff).toContain('@@ -1,5 +1,5 @@\n l0\n-l1\n+L1\n l2\n');
    expect(diff).toContain('@@ -16,5 +16,5 @@\n l15\n l16\n l17\n-l18\n+L18\n l19\n');
    expect(unifiedDiff(undefined, 'x\ny\n', 'new')).toBe('--- /dev/null\n+++ b/new\n@@ -0,0 +1,2 @@\n+x\n+y\n');
    expect(unifiedDiff('x\n', undefined, 'gone')).toBe('--- a/gone\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n');
  });
});

describe('writing settings', () => {
  it('writes through a symlinked user settings file that stays in the home folder (dotfiles), keeps its mode, and backs it up', () => {
    const home = tmpProject({ 'dotfiles/claude.json': '{"model": "opus"}\n' });
    const dotfile = path.join(home, 'dotfiles', 'claude.json');
    mkdirSync(path.join(home, '.claude'));
    const link = path.join(home, '.claude', 'settings.json');
    symlinkSync(dotfile, link);
    chmodSync(dotfile, 0o600);
    install({ agent: 'claude-code', scope: 'user', where: { cwd: tmpProject(), home, env: { HOME: home } }, dryRun: false });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(dotfile, 'utf8')).model).toBe('opus');
    // --user: every Claude Code event (2.1.332 has 34).
    expect(Object.keys(JSON.parse(readFileSync(link, 'utf8')).hooks)).toHaveLength(34);
    expect(statSync(dotfile).mode & 0o777).toBe(0o600);
    expect(backupOf(link, home).before).toBe('{"model": "opus"}\n');
    expect(existsSync(`${link}.agent-hooks.bak`)).toBe(false);
  });

  it('keeps a file with tabs in tabs, and takes an empty file as an empty object', () => {
    const dir = tmpProject({ '.cursor/hooks.json': '{\n\t"version": 1\n}\n', '.codex/hooks.json': '  \n' });
    const where = { cwd: dir, home: tmpProject(), env: {} };
    install({ agent: 'cursor', scope: 'project', where, dryRun: false });
    expect(readFileSync(path.join(dir, '.cursor/hooks.json'), 'utf8')).toMatch(/^\{\n\t"version": 1,\n\t"hooks": \{\n\t\t"preToolUse"/);
    install({ agent: 'codex', scope: 'project', where, dryRun: false });
    expect(Object.keys(JSON.parse(readFileSync(path.join(dir, '.codex/hooks.json'), 'utf8')))).toEqual(['hooks']);
  });

  it('values in the hooks table that are not event lists are left alone (Gemini\'s switches)', () => {
    const original = `${JSON.stringify({ hooks: { enabled: true, disabled: ['fmt'], BeforeTool: [{ hooks: [{ type: 'command', name: 'fmt', command: 'fmt' }] }] } }, null, 2)}\n`;
    const dir = tmpProject({ '.gemini/settings.json': original });
    const where = { cwd: dir, home: tmpProject(), env: {} };
    install({ agent: 'gemini', scope: 'project', where, dryRun: false });
    const doc = JSON.parse(readFileSync(path.join(dir, '.gemini/settings.json'), 'utf8'));
    expect(doc.hooks.enabled).toBe(true);
    expect(doc.hooks.disabled).toEqual(['fmt']);
    expect(doc.hooks.BeforeTool).toHaveLength(2);
    uninstall({ agent: 'gemini', scope: 'project', where, dryRun: false });
    expect(readFileSync(path.join(dir, '.gemini/settings.json'), 'utf8')).toBe(original);
  });

  it('a top level that is not an object is an error naming the file', () => {
    const dir = tmpProject({ '.gemini/settings.json': '[1, 2]' });
    expect(() => install({ agent: 'gemini', scope: 'project', where: { cwd: dir, home: tmpProject(), env: {} }, dryRun: false })).toThrow(
      `${path.join(dir, '.gemini/settings.json')}: expected a JSON object at the top level`,
    );
  });

  it('labels paths as the user would type them', () => {
    const where = { cwd: '/p/proj', home: '/home/u', env: {} };
    expect(label('/p/proj/.claude/settings.json', where)).toBe('.claude/settings.json');
    expect(label('/home/u/.codex/hooks.json', where)).toBe('~/.codex/hooks.json');
    expect(label('/etc/x.json', where)).toBe('/etc/x.json');
  });
});
