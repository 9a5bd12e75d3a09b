// doctor says when the project's Claude Code install no longer sends an event or tool the config guards
// (install --project registers only what the config used when it ran): a hook that never runs is a
// guard that fails open without a word.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, tmpProject, trustProject } from '../helpers.js';

const config = (hooks: Record<string, unknown>) => JSON.stringify({ hooks });

describe('doctor: the installed Claude Code entries against the config', () => {
  it('is quiet right after an install, and names an event and a tool added since', () => {
    const dir = tmpProject({ '.hooksrc.json': config({ preToolUse: [{ command: 'true', match: 'exec' }] }) });
    const env = isolatedEnv(dir);
    trustProject(dir, env);
    expect(runCli(['install', 'claude-code'], { cwd: dir, env }).code).toBe(0);
    const quiet = runCli(['doctor'], { cwd: dir, env });
    expect(quiet.stdout).not.toContain('never reach');
    expect(quiet.stdout).not.toContain('never send');

    writeFileSync(path.join(dir, '.hooksrc.json'), config({ preToolUse: [{ command: 'true', match: ['exec', 'write'] }], stop: [{ command: 'true' }] }));
    trustProject(dir, env);
    const r = runCli(['doctor'], { cwd: dir, env });
    expect(r.stdout).toContain('the config has hooks on Stop, which the installed entries never send to agent-hooks');
    expect(r.stdout).toMatch(/on PreToolUse the installed entries send only Bash[^\n]*also guard Write/);
    expect(r.stdout).toContain('npx agent-hooks install claude-code');
  });

  it('reads an install --serve the same: a prompt hook added after it is named (no UserPromptSubmit entry, its client-wrapped entries are ours)', () => {
    const dir = tmpProject({ '.hooksrc.json': config({ preToolUse: [{ command: 'true', match: 'exec' }] }) });
    const env = isolatedEnv(dir);
    trustProject(dir, env);
    expect(runCli(['install', 'claude-code', '--serve'], { cwd: dir, env }).code).toBe(0);
    const settings = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, [{ hooks: [{ command: string }] }]> };
    expect(Object.keys(settings.hooks).sort()).toEqual(['PreToolUse', 'SessionStart']);
    expect(settings.hooks.PreToolUse![0].hooks[0].command).toMatch(/^agent-hooks-client /);
    expect(runCli(['doctor'], { cwd: dir, env }).stdout).not.toContain('never send');

    writeFileSync(path.join(dir, '.hooksrc.json'), config({ preToolUse: [{ command: 'true', match: 'exec' }], userPromptSubmit: [{ command: 'exit 2' }] }));
    trustProject(dir, env);
    const r = runCli(['doctor'], { cwd: dir, env });
    expect(r.stdout).toContain('the config has hooks on UserPromptSubmit, which the installed entries never send to agent-hooks');
    expect(runCli(['install', 'claude-code', '--serve'], { cwd: dir, env }).code).toBe(0);
    expect(runCli(['doctor'], { cwd: dir, env }).stdout).not.toContain('never send');
  });

  it('says nothing where agent-hooks is not installed for Claude Code', () => {
    const dir = tmpProject({ '.hooksrc.json': config({ stop: [{ command: 'true' }] }), '.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './mine.sh' }] }] } }) });
    const env = isolatedEnv(dir);
    trustProject(dir, env);
    expect(runCli(['doctor'], { cwd: dir, env }).stdout).not.toContain('installed entries');
  });
});
