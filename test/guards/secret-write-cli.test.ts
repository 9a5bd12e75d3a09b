// secret-write on real processes: as a builtin from a config file (`hooks run pre-tool-use`) and
// standalone (`hooks guard secret-write`), in Claude Code's dialect. Throwaway HOME and project.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, tmpProject } from '../helpers.js';
import { A62, generator } from './corpus/secrets-examples.js';

const g = generator(2704);
const AKIA = ['AK', 'IA'].join('') + g.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16);
const GHP = ['gh', 'p_'].join('') + g.pick(A62, 36);
const pre = (tool_name: string, tool_input: Record<string, unknown>, cwd: string) =>
  JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', transcript_path: '/tmp/t.jsonl', tool_name, tool_input, cwd });

describe('secret-write as a process', () => {
  const dir = tmpProject();
  const env = isolatedEnv(dir);
  const configFile = path.join(dir, 'hooks.json');
  writeFileSync(configFile, JSON.stringify({ hooks: { preToolUse: [{ builtin: 'secret-write' }] } }));
  const askFile = path.join(dir, 'ask.json');
  writeFileSync(askFile, JSON.stringify({ hooks: { preToolUse: [{ builtin: 'secret-write', options: { decision: 'ask' } }] } }));
  const run = (input: string, config = configFile) => runCli(['run', 'pre-tool-use', '--config', config], { cwd: dir, env, input });

  it('blocks a Write of a hard-coded AWS key into src/config.ts with exit 2, naming the rule, not the key', () => {
    const r = run(pre('Write', { file_path: path.join(dir, 'src/config.ts'), content: `export const KEY = "${AKIA}";\n` }, dir));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/secret-write: a hard-coded credential would be written to .*src\/config\.ts \(aws-access-key-id\)/);
    expect(r.stdout + r.stderr).not.toContain(AKIA);
  });

  it('blocks a shell writer (heredoc into a file) and an Edit', () => {
    const bash = run(pre('Bash', { command: `cat <<EOF > .env\nGITHUB_TOKEN=${GHP}\nEOF` }, dir));
    expect(bash.code).toBe(2);
    expect(bash.stderr).toContain('github-token');
    const edit = run(pre('Edit', { file_path: 'src/a.ts', old_string: 'x', new_string: `const t = "${GHP}"` }, dir));
    expect(edit.code).toBe(2);
    expect(bash.stdout + bash.stderr + edit.stdout + edit.stderr).not.toContain(GHP);
  });

  it('asks with decision=ask (Claude Code: permissionDecision "ask")', () => {
    const r = run(pre('Write', { file_path: 'src/config.ts', content: `k = "${AKIA}"` }, dir), askFile);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput.permissionDecision).toBe('ask');
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain('aws-access-key-id');
    expect(r.stdout).not.toContain(AKIA);
  });

  it('lets fixtures, placeholders and clean writes through', () => {
    for (const input of [
      pre('Write', { file_path: 'test/fixtures/creds.json', content: `{"key": "${AKIA}"}` }, dir),
      pre('Write', { file_path: 'src/config.ts', content: 'export const KEY = process.env.AWS_ACCESS_KEY_ID ?? "<your-key>";' }, dir),
      pre('Bash', { command: 'echo "hello" > notes.txt' }, dir),
    ]) {
      const r = run(input);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
    }
  });

  it('runs standalone as `hooks guard secret-write`', () => {
    const r = runCli(['guard', 'secret-write'], { cwd: dir, env, input: pre('Write', { file_path: 'src/k.ts', content: GHP }, dir) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('github-token');
    expect(r.stderr).not.toContain(GHP);
  });
});
