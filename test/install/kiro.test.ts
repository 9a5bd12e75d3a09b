// `hooks install kiro`: a v3 hook file of our own (.kiro/hooks/agent-hooks.json), on real temp files;
// its PreToolUse command run as Kiro runs it blocks a payload shaped from Kiro's docs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tmpProject, trustProject } from '../helpers.js';
import { dependentProject, hooks, MARK, testEnv } from './kit.js';

const FILE = '.kiro/hooks/agent-hooks.json';

describe('install kiro', () => {
  it('writes one hook per trigger, in v3 form, each running the project bin; uninstall removes the file', async () => {
    const dir = dependentProject();
    const home = tmpProject();
    const r = await hooks(['install', 'kiro'], dir, home);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`created ${FILE}: 5 agent-hooks entries installed\n`);
    const doc = JSON.parse(readFileSync(path.join(dir, FILE), 'utf8'));
    expect(doc.version).toBe('v1');
    expect(doc.hooks.map((h: { trigger: string }) => h.trigger)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']);
    expect(doc.hooks[2]).toEqual({
      name: 'agent-hooks-pre-tool-use',
      trigger: 'PreToolUse',
      matcher: '.*',
      action: { type: 'command', command: `"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"/node_modules/.bin/agent-hooks run pre-tool-use --dialect kiro${MARK}` },
      timeout: 60,
      enabled: true,
    });
    expect((await hooks(['install', 'kiro'], dir, home)).stdout).toMatch(/^unchanged /);
    expect((await hooks(['uninstall', 'kiro'], dir, home)).code).toBe(0);
    expect(existsSync(path.join(dir, FILE))).toBe(false);
  });

  it('a file of that name the user wrote is refused, one line naming it', async () => {
    const dir = dependentProject({ [FILE]: JSON.stringify({ version: 'v1', hooks: [{ name: 'mine', trigger: 'Stop', action: { type: 'command', command: './notify.sh' } }] }) });
    const r = await hooks(['install', 'kiro'], dir, tmpProject());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('.kiro/hooks/agent-hooks.json: exists and was not written by agent-hooks; move it away first');
  });

  it('the installed PreToolUse command blocks rm -rf of the victim with exit 2, the reason on stderr', async () => {
    const dir = dependentProject();
    const home = tmpProject();
    mkdirSync(path.join(home, '.config', 'agent-hooks'), { recursive: true });
    writeFileSync(
      path.join(home, '.config', 'agent-hooks', 'config.json'),
      JSON.stringify({ hooks: { preToolUse: [{ id: 'protect-victim', command: "echo 'victim is protected' >&2; exit 2", match: 'exec', if: { command: '*victim*' } }] } }),
    );
    await hooks(['install', 'kiro'], dir, home);
    const command = JSON.parse(readFileSync(path.join(dir, FILE), 'utf8')).hooks[2].action.command as string;
    const env = testEnv(home);
    trustProject(dir, env);
    const payload = readFileSync(path.join(ROOT, 'test', 'fixtures', 'payloads', 'kiro', 'preToolUse.json'), 'utf8');
    const r = spawnSync('sh', ['-c', command], { cwd: dir, env, input: payload, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('victim is protected');
  });
});
