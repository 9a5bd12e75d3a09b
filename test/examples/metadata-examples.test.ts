// The classifier → think level pair (hooks-examples/classify-prompt.py, think-level.mjs) on its own:
// what each answers, and that odd input never fails a run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../helpers.js';

const run = (script: string, input: string, env: Record<string, string> = {}) => {
  const r = spawnSync(path.join(EXAMPLES, script), { input, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 15_000 });
  return { code: r.status, stdout: r.stdout.trim(), stderr: r.stderr };
};

describe('classify-prompt.py', () => {
  it.each([
    ['Why does the build fail?', { intent: 'question', thinking: 'low' }],
    ['Refactor the cache for concurrency', { intent: 'change', thinking: 'high' }],
    ['add a --port flag', { intent: 'change', thinking: 'low' }],
  ])('%j → %j', (prompt, metadata) => {
    const r = run('classify-prompt.py', JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ metadata });
  });
});

describe('think-level.mjs', () => {
  it('adds context for a demanding prompt, asks before a write after a question, else says nothing', () => {
    const high = run('think-level.mjs', JSON.stringify({ prompt: 'x', agent_hooks_metadata: { thinking: 'high' } }), { HOOKS_EVENT: 'userPromptSubmit' });
    expect(JSON.parse(high.stdout).additionalContext).toMatch(/^Think hard/);
    const ask = run('think-level.mjs', JSON.stringify({ tool_name: 'Write', agent_hooks_metadata: { intent: 'question' } }), { HOOKS_EVENT: 'preToolUse' });
    expect(JSON.parse(ask.stdout).decision).toBe('ask');
    expect(run('think-level.mjs', JSON.stringify({ tool_name: 'Write', agent_hooks_metadata: { intent: 'change' } }), { HOOKS_EVENT: 'preToolUse' }).stdout).toBe('');
  });
});

describe.each(['classify-prompt.py', 'think-level.mjs'])('%s on odd input', (script) => {
  it.each(['', '{not json', '[]', 'null', '{"prompt": 5}', '{"agent_hooks_metadata": "x"}'])('%j: exit 0, nothing on stdout', (input) => {
    expect(run(script, input, { HOOKS_EVENT: 'userPromptSubmit' })).toEqual({ code: 0, stdout: '', stderr: '' });
    // Run by an agent directly, without the runner's HOOKS_EVENT.
    expect(run(script, input)).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
