// The attacks on `hooks install` reproduced on real files in a temporary HOME (issue 9, item 3): a
// repository plants symlinks where install writes, ships a read-only or out-of-project settings file,
// or is owned by someone else. Each must leave the user's files alone and say why in one line.
import { chmodSync, chownSync, constants, existsSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { privateFolder } from '../../src/fs/private.js';
import { writeSafely } from '../../src/fs/write-safely.js';
import { tmpProject } from '../helpers.js';
import { backupOf, dependentProject, hooks } from './kit.js';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

/** A home with a shell profile worth stealing, and a project cloned into it. */
function victim() {
  const home = tmpProject({ '.bashrc': '# my bashrc\n', '.profile': '# my profile\n' });
  const dir = dependentProject();
  return { home, dir, settings: path.join(dir, '.claude', 'settings.json') };
}

const untouched = (home: string) => {
  expect(readFileSync(path.join(home, '.bashrc'), 'utf8')).toBe('# my bashrc\n');
  expect(readFileSync(path.join(home, '.profile'), 'utf8')).toBe('# my profile\n');
};

describe('planted symlinks', () => {
  it('.claude/settings.json.agent-hooks.bak -> ~/.bashrc: the backup is never written beside the file, so ~/.bashrc stays', async () => {
    const { home, dir, settings } = victim();
    mkdirSync(path.dirname(settings));
    writeFileSync(settings, '{"model": "opus"}\n');
    symlinkSync(path.join(home, '.bashrc'), `${settings}.agent-hooks.bak`);
    for (const command of ['install', 'uninstall']) expect((await hooks([command, 'claude-code'], dir, home)).code).toBe(0);
    untouched(home);
    expect(readlinkSync(`${settings}.agent-hooks.bak`)).toBe(path.join(home, '.bashrc'));
    expect(readFileSync(settings, 'utf8')).toBe('{"model": "opus"}\n');
    expect(backupOf(settings, home).before).toContain('agent-hooks');
  });

  it('symlinks at the old temporary names (.agent-hooks-<pid>.tmp) redirect nothing: temporary names are random and opened O_EXCL|O_NOFOLLOW', async () => {
    const { home, dir, settings } = victim();
    mkdirSync(path.dirname(settings));
    writeFileSync(settings, '{}\n');
    for (let pid = process.pid - 50; pid < process.pid + 50; pid++) symlinkSync(path.join(home, '.profile'), `${settings}.agent-hooks-${pid}.tmp`);
    expect((await hooks(['install', 'claude-code'], dir, home)).code).toBe(0);
    untouched(home);
    expect(JSON.parse(readFileSync(settings, 'utf8')).hooks.PreToolUse).toHaveLength(1);
    expect(lstatSync(settings).isSymbolicLink()).toBe(false);
  });

  it('a temporary file is never opened through a symlink: O_NOFOLLOW refuses even a name it happened to choose', () => {
    // writeSafely's own open, exercised directly: a link at the exact path makes the open fail, not follow.
    const home = tmpProject({ '.profile': '# my profile\n' });
    const dir = tmpProject();
    const planted = path.join(dir, '.x.tmp');
    symlinkSync(path.join(home, '.profile'), planted);
    expect(() => openSync(planted, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600)).toThrow(/EEXIST/);
    writeSafely(path.join(dir, 'settings.json'), '{}\n', { root: dir });
    expect(readFileSync(path.join(home, '.profile'), 'utf8')).toBe('# my profile\n');
  });

  it('a settings file symlinked out of the project is refused in one line, unless --allow-outside', async () => {
    const { home, dir, settings } = victim();
    mkdirSync(path.dirname(settings));
    symlinkSync(path.join(home, '.bashrc'), settings);
    const r = await hooks(['install', 'claude-code'], dir, home);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`agent-hooks: ${settings}: resolves to ${path.join(home, '.bashrc')}, outside ${dir}; agent-hooks will not write there (pass --allow-outside if you mean it)\n`);
    untouched(home);
    // Uninstall and a dry run refuse the same way (a read through the link could leak the target).
    expect((await hooks(['uninstall', 'claude-code'], dir, home)).code).toBe(1);
    expect((await hooks(['install', 'claude-code', '--dry-run'], dir, home)).code).toBe(1);

    const shared = path.join(home, 'shared-settings.json');
    writeFileSync(shared, '{}\n');
    const link = path.join(dir, '.gemini', 'settings.json');
    mkdirSync(path.dirname(link));
    symlinkSync(shared, link);
    expect((await hooks(['install', 'gemini', '--allow-outside'], dir, home)).code).toBe(0);
    expect(JSON.parse(readFileSync(shared, 'utf8')).hooks.BeforeTool).toHaveLength(1);
  });

  it('a settings folder symlinked out of the project (.claude -> ~) is refused; nothing is created there', async () => {
    const { home, dir } = victim();
    symlinkSync(home, path.join(dir, '.claude'));
    const r = await hooks(['install', 'claude-code'], dir, home);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/resolves to .*settings\.json, outside .*; agent-hooks will not write there/);
    expect(existsSync(path.join(home, 'settings.json'))).toBe(false);
  });

  it('a dangling symlink at the settings path is refused: its target is never created', async () => {
    const { home, dir, settings } = victim();
    mkdirSync(path.dirname(settings));
    symlinkSync(path.join(home, '.bash_login'), settings);
    const r = await hooks(['install', 'claude-code'], dir, home);
    expect(r).toEqual({ code: 1, stdout: '', stderr: `agent-hooks: ${settings}: is a symlink to a missing file; agent-hooks will not create its target (remove the link first)\n` });
    expect(existsSync(path.join(home, '.bash_login'))).toBe(false);
  });
});

describe('modes and owners', () => {
  it('a read-only (0444) settings file is refused in one line, never replaced', async () => {
    const { home, dir, settings } = victim();
    mkdirSync(path.dirname(settings));
    writeFileSync(settings, '{"locked": true}\n');
    chmodSync(settings, 0o444);
    const r = await hooks(['install', 'claude-code'], dir, home);
    expect(r).toEqual({ code: 1, stdout: '', stderr: `agent-hooks: ${settings}: is read-only (mode 0444); agent-hooks will not replace it (chmod u+w it if you want the change)\n` });
    expect(readFileSync(settings, 'utf8')).toBe('{"locked": true}\n');
    expect(statSync(settings).mode & 0o777).toBe(0o444);
  });

  it('keeps the file\'s mode through install and uninstall', async () => {
    const { home, dir, settings } = victim();
    mkdirSync(path.dirname(settings));
    writeFileSync(settings, '{"model": "opus"}\n');
    chmodSync(settings, 0o600);
    await hooks(['install', 'claude-code'], dir, home);
    expect(statSync(settings).mode & 0o777).toBe(0o600);
    await hooks(['uninstall', 'claude-code'], dir, home);
    expect(statSync(settings).mode & 0o777).toBe(0o600);
    expect(readFileSync(settings, 'utf8')).toBe('{"model": "opus"}\n');
  });

  it.runIf(isRoot)('a settings file or folder owned by another user is refused (checked even when run as root)', async () => {
    const { home, dir, settings } = victim();
    mkdirSync(path.dirname(settings));
    writeFileSync(settings, '{}\n');
    chownSync(settings, NOBODY, NOBODY);
    const r = await hooks(['install', 'claude-code'], dir, home);
    expect(r).toEqual({ code: 1, stdout: '', stderr: `agent-hooks: ${settings}: is owned by another user (uid ${NOBODY}); agent-hooks will not write it\n` });
    expect(readFileSync(settings, 'utf8')).toBe('{}\n');

    const other = dependentProject();
    mkdirSync(path.join(other, '.gemini'));
    chownSync(path.join(other, '.gemini'), NOBODY, NOBODY);
    const g = await hooks(['install', 'gemini'], other, home);
    expect(g.code).toBe(1);
    expect(g.stderr).toMatch(/its folder .*\.gemini is owned by another user \(uid 65534\); agent-hooks will not write there\n$/);
  });

  it('the state dir the backups go to must be private: group/world-writable or a symlink is refused', () => {
    const base = tmpProject();
    const open = path.join(base, 'open');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    expect(() => privateFolder(open)).toThrow(`${open}: is writable by group or others (mode 0777); chmod 700 it`);
    symlinkSync(tmpProject(), path.join(base, 'link'));
    expect(() => privateFolder(path.join(base, 'link'))).toThrow(/is not a plain folder/);
    const made = privateFolder(path.join(base, 'new', 'agent-hooks'));
    expect(statSync(made).mode & 0o777).toBe(0o700);
  });

  it('install fails with one line, writing nothing, when the state dir is world-writable', async () => {
    const { home, dir, settings } = victim();
    mkdirSync(path.join(home, '.local', 'state', 'agent-hooks'), { recursive: true });
    chmodSync(path.join(home, '.local', 'state', 'agent-hooks'), 0o777);
    const r = await hooks(['install', 'claude-code'], dir, home);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^agent-hooks: .*agent-hooks: is writable by group or others \(mode 0777\); chmod 700 it\n$/);
    expect(existsSync(settings)).toBe(false);
  });
});
