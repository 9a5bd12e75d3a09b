import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers.js';
import { A62, generator } from './corpus/secrets-examples.js';

// The standalone guard as Claude Code runs it (`hooks guard redact-secrets`, no config), a real process.
const { pick } = generator(21);
const GHP = 'ghp_' + pick(A62, 36);
const KEY = 'sk-ant-api03-' + pick(A62, 93) + 'AA';
const base = { session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: '/tmp' };
const deepJson = (depth: number): string => '['.repeat(depth) + '"x"' + ']'.repeat(depth);
const postToolUse = (stdout: string, deep: string) =>
  `{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"env"},"tool_response":{"stdout":${JSON.stringify(stdout)},"deep":${deep}}}`;

describe('hooks guard redact-secrets (Claude Code dialect)', () => {
  it('blocks a prompt holding a key: Claude Code cannot take a rewritten prompt', () => {
    const { code, stdout, stderr } = runCli(['guard', 'redact-secrets'], { input: JSON.stringify({ ...base, hook_event_name: 'UserPromptSubmit', prompt: `deploy with ${KEY}` }) });
    expect(code).toBe(2);
    const reason = 'a hook rewrote this prompt, and Claude Code cannot take a rewritten prompt; it was not sent (redact-secrets: redacted 1 secret(s): anthropic-key)';
    expect(JSON.parse(stdout)).toEqual({ decision: 'block', reason });
    expect(stderr.trim()).toBe(reason);
    expect(stdout + stderr).not.toContain(KEY);
  });

  it('lets a clean prompt through', () => {
    const { code, stdout } = runCli(['guard', 'redact-secrets'], { input: JSON.stringify({ ...base, hook_event_name: 'UserPromptSubmit', prompt: 'fix the bug' }) });
    expect(code).toBe(0);
    expect(stdout).toBe('');
  });

  it('redacts tool output in place', () => {
    const { code, stdout } = runCli(['guard', 'redact-secrets'], { input: postToolUse(`GITHUB_TOKEN=${GHP}\n`, deepJson(10)) });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).hookSpecificOutput.updatedToolOutput.stdout).toBe('GITHUB_TOKEN=[REDACTED:github-token]\n');
  });

  it.each([3_000, 6_000, 50_000])('never lets a token beside a %i-level value through', (depth) => {
    const { code, stdout, stderr } = runCli(['guard', 'redact-secrets'], { input: postToolUse(`GITHUB_TOKEN=${GHP}\n`, deepJson(depth)) });
    expect(code).toBe(0);
    expect(stdout + stderr).not.toContain(GHP);
    expect(stderr).not.toContain('failed');
    expect(JSON.parse(stdout).hookSpecificOutput.updatedToolOutput).toBeDefined();
  });
});
