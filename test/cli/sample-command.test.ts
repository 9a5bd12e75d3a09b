// `hooks sample`: realistic payloads that `hooks run` takes as they are.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, ROOT, tmpProject } from '../helpers.js';

// The CLI in-process (cliInProcess: the same argv, cwd, env, stdin and exit code); a real shell pipe between two
// real processes proves the bin end to end.
const cli = cliInProcess;

const env = () => isolatedEnv(tmpProject());

describe('hooks sample', () => {
  it('prints a Claude Code payload with the current directory as cwd', async () => {
    const dir = tmpProject();
    const r = await cli(['sample', 'pre-tool-use', '--tool', 'edit', '--input', 'file_path=package-lock.json'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const payload = JSON.parse(r.stdout);
    expect(payload).toMatchObject({
      cwd: dir,
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      tool_name: 'Edit',
      tool_input: { file_path: 'package-lock.json', old_string: expect.any(String), new_string: expect.any(String), replace_all: false },
    });
    expect(payload.tool_use_id).toMatch(/^toolu_01[A-Za-z0-9]{22}$/);
  });

  it('pipes into hooks run end to end: hooks sample pre-tool-use --tool exec --input command=\'ls -la\' | hooks run pre-tool-use', async () => {
    const e = env();
    const sample = await cli(['sample', 'pre-tool-use', '--tool', 'exec', '--input', 'command=ls -la'], { env: e });
    expect(sample.code).toBe(0);
    const run = await cli(['run', 'pre-tool-use', '--config', '.hooksrc.example.json'], { env: e, input: sample.stdout });
    expect(run.code).toBe(0);
    const specific = JSON.parse(run.stdout).hookSpecificOutput;
    expect(specific).toMatchObject({ hookEventName: 'PreToolUse', updatedInput: { command: 'ls --color=never -la' } });
    // A rewrite is not an approval: Claude Code's own permission check still applies.
    expect(specific).not.toHaveProperty('permissionDecision');
  });

  it('works through a real shell pipe, and a force push sample is blocked', () => {
    const bin = JSON.stringify(path.join(ROOT, 'bin', 'hooks.js'));
    const pipeline = `node ${bin} sample pre-tool-use --tool Bash --input command='git push --force origin main' | node ${bin} run pre-tool-use --config .hooksrc.example.json`;
    const r = spawnSync('sh', ['-c', pipeline], { cwd: ROOT, env: env(), encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(r.stderr).toMatch(/^Force push blocked \(--force\)/);
  });

  it('--dialect native leaves out hook_event_name, and hooks run then answers natively', async () => {
    const e = env();
    const sample = await cli(['sample', 'stop', '--dialect', 'native', '--input', 'stop_hook_active=true'], { env: e });
    const payload = JSON.parse(sample.stdout);
    expect(payload).not.toHaveProperty('hook_event_name');
    expect(payload.stop_hook_active).toBe(true);
    const run = await cli(['run', 'stop', '--config', '.hooksrc.example.json'], { env: e, input: sample.stdout });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ decision: 'allow', hooks: [{ id: 'require-tests', outcome: 'continue' }] });
  });

  it('--input takes a JSON object for several fields', async () => {
    const r = await cli(['sample', 'pre-tool-use', '--tool', 'write', '--input', '{"file_path":"a.txt","content":"x"}'], { env: env() });
    expect(JSON.parse(r.stdout).tool_input).toEqual({ file_path: 'a.txt', content: 'x' });
  });

  it('usage errors are one line and exit 1', async () => {
    for (const [args, message] of [
      [['sample'], /^agent-hooks: hooks sample: name an event: pre-tool-use, /],
      [['sample', 'pre-tol-use'], /^agent-hooks: unknown event "pre-tol-use" \(did you mean "pre-tool-use"\?\)/],
      [['sample', 'pre-tool-use', '--tool', 'Bsh'], /^agent-hooks: unknown tool "Bsh" \(did you mean "Bash"\?\)/],
      [['sample', 'stop', '--tool', 'exec'], /^agent-hooks: stop has no tool/],
      [['sample', 'stop', '--dialect', 'gemini'], /^agent-hooks: --dialect: expected claude-code or native, got "gemini"/],
      [['sample', 'pre-tool-use', '--input', 'nokey'], /^agent-hooks: --input: expected key=value/],
    ] as const) {
      const r = await cli([...args], { env: env() });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('--help shows the options and examples', async () => {
    const r = await cli(['sample', '--help'], { env: env() });
    expect(r.code).toBe(0);
    for (const word of ['--tool', '--input', '--dialect', '| npx agent-hooks run pre-tool-use']) expect(r.stdout).toContain(word);
  });
});
