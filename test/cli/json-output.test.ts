// --json where a script would parse the output (trust --list, serve status, install), and hooks trust
// saying when a file it shows will be switched off for a bad key.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, tmpProject } from '../helpers.js';

const CONFIG = { hooks: { stop: [{ id: 'check', command: 'make check' }] } };

describe('hooks trust', () => {
  it('shows each problem that will switch a file off, trusted or not, naming the key path', async () => {
    const bad = { hooks: { preToolUse: [{ command: 'make lint', timout: 5 }] } };
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify(bad) });
    const env = isolatedEnv(tmpProject(), {}, { trust: false });
    const r = await cliInProcess(['trust', '--yes'], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}switched off when it runs: a problem; trusted or not, none of its hooks run until it is fixed:$/m);
    expect(r.stdout).toMatch(/^ {4}\S*\.hooksrc\.json: hooks\.preToolUse\[0\]\.timout: unknown key \(did you mean "timeout"\?\)$/m);
    // A good file says nothing of the kind.
    const good = tmpProject({ '.hooksrc.json': JSON.stringify(CONFIG) });
    expect((await cliInProcess(['trust', '--yes'], { cwd: good, env })).stdout).not.toContain('switched off');
  });

  it('--list --json: each trusted file, its state and its covered files', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify(CONFIG) });
    const env = isolatedEnv(tmpProject(), {}, { trust: false });
    const empty = JSON.parse((await cliInProcess(['trust', '--list', '--json'], { cwd: dir, env })).stdout) as { files: unknown[] };
    expect(empty.files).toEqual([]);
    expect((await cliInProcess(['trust', '--yes'], { cwd: dir, env })).code).toBe(0);
    const list = async () => JSON.parse((await cliInProcess(['trust', '--list', '--json'], { cwd: dir, env })).stdout) as { store: string; files: { file: string; state: string; trusted: boolean; sha256: string }[] };
    const before = await list();
    expect(before.files).toEqual([expect.objectContaining({ file: path.join(dir, '.hooksrc.json'), state: 'trusted', trusted: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })]);
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: {} }));
    expect((await list()).files[0]).toMatchObject({ state: 'changed', trusted: false });
    const refused = await cliInProcess(['trust', '--json'], { cwd: dir, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('agent-hooks: --json goes with --list (trusting asks for a review, which is text)\n');
  });
});

describe('hooks serve status --json', () => {
  it('not running: running false, exit 3, as the text form', async () => {
    const env = isolatedEnv(tmpProject(), { AGENT_HOOKS_SERVE_AUTOSTART: '0' });
    const r = await cliInProcess(['serve', 'status', '--json'], { cwd: tmpProject(), env });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ running: false });
    expect((await cliInProcess(['serve', 'stop', '--json'], { cwd: tmpProject(), env })).stderr).toBe('agent-hooks: --json goes with "hooks serve status"\n');
  });
});

describe('hooks install --json', () => {
  it('the outcome as JSON, the notes in it; a dry run too', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify(CONFIG) });
    const env = isolatedEnv(tmpProject(), {}, { trust: dir });
    const dry = await cliInProcess(['install', 'claude-code', '--dry-run', '--json'], { cwd: dir, env });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ agent: 'claude-code', scope: 'project', file: path.join(dir, '.claude', 'settings.json'), action: 'created', dryRun: true, diff: expect.stringContaining('+') });
    const real = await cliInProcess(['install', 'claude-code', '--json'], { cwd: dir, env });
    expect(real.code).toBe(0);
    const outcome = JSON.parse(real.stdout) as { action: string; entries: number; notes: string[] };
    expect(outcome.action).toBe('created');
    expect(outcome.entries).toBeGreaterThan(0);
    expect(Array.isArray(outcome.notes)).toBe(true);
    expect(real.stderr).toBe('');
    expect(JSON.parse((await cliInProcess(['install', 'claude-code', '--json'], { cwd: dir, env })).stdout)).toMatchObject({ action: 'unchanged', why: 'installed' });
  });
});
