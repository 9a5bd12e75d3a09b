// hooks init never writes through a symlink a repository planted at one of its names (or their folders):
// pointed at the user's own config, such a link would replace the user's guards with the starter config.
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, tmpProject } from '../helpers.js';

describe('hooks init and planted symlinks', () => {
  it.each([
    ['.hooks', 'folder'],
    ['hooks-tests', 'folder'],
    ['.hooksrc.json', 'file'],
  ])('%s linked out of the project (%s): refused in one line, nothing written anywhere', (name, kind) => {
    const home = tmpProject({ '.config/agent-hooks/config.json': '{"hooks":{}}\n' });
    const outside = path.join(home, '.config', 'agent-hooks');
    const repo = path.join(home, 'repo');
    mkdirSync(repo);
    symlinkSync(kind === 'folder' ? outside : path.join(outside, 'config.json'), path.join(repo, name));
    const r = runCli(['init', '--force'], { cwd: repo, env: isolatedEnv(home) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^agent-hooks: .*(outside|symlink).*\n$/);
    expect(readFileSync(path.join(outside, 'config.json'), 'utf8')).toBe('{"hooks":{}}\n');
    expect(readdirSync(outside)).toEqual(['config.json']);
    // Checked before any write: none of the three files was created.
    expect(existsSync(path.join(repo, 'hooks-tests', 'starter.json'))).toBe(false);
    if (name !== '.hooksrc.json') expect(existsSync(path.join(repo, '.hooksrc.json'))).toBe(false);
  });

  it('a plain project is written as before', () => {
    const home = tmpProject();
    const repo = path.join(home, 'repo');
    mkdirSync(repo);
    writeFileSync(path.join(repo, 'README.md'), '');
    expect(runCli(['init'], { cwd: repo, env: isolatedEnv(home) }).code).toBe(0);
    expect(existsSync(path.join(repo, '.hooks', 'no-force-push.mjs'))).toBe(true);
  });
});
