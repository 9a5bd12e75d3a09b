// Every reply kind and every failure kind, each answered by a real bash, python3 and node process.
import { describe, expect, it } from 'vitest';
import { bash, event, fixture, runnerWith } from '../helpers.js';
import type { HookEvent } from '../../src/types.js';

const LANGS = ['bash', 'python', 'node'] as const;
const who = { bash: 'bash', python: 'python', node: 'node' } as const;

async function answer(lang: (typeof LANGS)[number], mode: string, ev: HookEvent = bash('ls -la'), hook: Record<string, unknown> = {}) {
  const runner = await runnerWith({
    hooks: { [ev.name]: [{ id: `${lang}-${mode}`, command: fixture(lang), env: { MODE: mode }, ...hook }] },
  });
  return runner.run(ev);
}

describe.each(LANGS)('replies from a %s hook', (lang) => {
  const name = who[lang];

  it('exit 0 and no output continues', async () => {
    const d = await answer(lang, 'continue');
    expect(d.decision).toBe('continue');
    expect(d.results[0]!.failure).toBeUndefined();
  });

  it('exit 2 blocks with stderr as the reason', async () => {
    const d = await answer(lang, 'block-exit2');
    expect(d.decision).toBe('block');
    expect(d.reason).toBe(`blocked by ${name}`);
  });

  it('exit 2 with empty stderr blocks with a reason naming the hook', async () => {
    const d = await answer(lang, 'block-exit2-silent');
    expect(d.decision).toBe('block');
    expect(d.reason).toBe(`blocked by hook "${lang}-block-exit2-silent"`);
  });

  it.each([
    ['block-json', 'block', `blocked by ${name}`],
    ['allow-json', 'allow', `fine by ${name}`],
    ['ask-json', 'ask', `${name} asks`],
    ['claude-deny', 'block', `${name} denies`],
    ['gemini-deny', 'block', `${name} denies (gemini)`],
    ['cursor-deny', 'block', `${name} denies (cursor)`],
    ['halt', 'halt', `${name} halts`],
    ['json-wins-exit1', 'block', `${name} json on exit 1`],
  ])('JSON reply %s gives %s', async (mode, decision, reason) => {
    const d = await answer(lang, mode);
    expect(d.decision).toBe(decision);
    expect(d.reason).toBe(reason);
  });

  it('decision modify rewrites the whole tool input', async () => {
    const d = await answer(lang, 'modify-input', bash('ls -la', { description: 'list' }));
    expect(d.decision).toBe('modify');
    expect(d.updatedInput?.command).toBe(`ls -la --by-${name}`);
  });

  it("Claude Code's permissionDecision allow + updatedInput rewrites", async () => {
    const d = await answer(lang, 'claude-rewrite');
    expect(d.decision).toBe('modify');
    expect(d.updatedInput).toEqual({ command: `echo rewritten-by-${name}` });
  });

  it("Claude Code's top-level decision block blocks a postToolUse", async () => {
    const d = await answer(lang, 'claude-block', event('postToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: '' } }));
    expect(d.decision).toBe('block');
    expect(d.reason).toBe(`${name} blocks`);
  });

  it('additionalContext is kept', async () => {
    const d = await answer(lang, 'context');
    expect(d.additionalContext).toEqual([`context from ${name}`]);
  });

  it('plain stdout is context on userPromptSubmit and sessionStart, and ignored elsewhere', async () => {
    const prompt = await answer(lang, 'plain-stdout', event('userPromptSubmit', { prompt: 'hi' }));
    expect(prompt.additionalContext).toEqual([`plain text from ${name}`]);
    const start = await answer(lang, 'plain-stdout', event('sessionStart', { source: 'startup' }));
    expect(start.additionalContext).toEqual([`plain text from ${name}`]);
    const tool = await answer(lang, 'plain-stdout');
    expect(tool.additionalContext).toEqual([]);
    expect(tool.decision).toBe('continue');
  });

  it.each([
    ['exit1', 'exit-1'],
    ['exit3', 'exit-3'],
    ['invalid-json', 'invalid-json'],
    ['bad-decision', 'invalid-json'],
    ['signal', 'signal'],
    ['not-found', 'not-found'],
  ])('%s is a %s failure: reported, and continues by default', async (mode, kind) => {
    const d = await answer(lang, mode);
    expect(d.results[0]!.failure?.kind).toBe(kind);
    expect(d.decision).toBe('continue');
    expect(d.warnings.join('\n')).toContain(`hook "${lang}-${mode}" failed (${kind}`);
  });

  it.each([['exit1'], ['invalid-json'], ['signal'], ['not-found']])('%s with onFailure block blocks, naming the failure', async (mode) => {
    const d = await answer(lang, mode, bash('ls'), { onFailure: 'block' });
    expect(d.decision).toBe('block');
    expect(d.reason).toMatch(new RegExp(`hook "${lang}-${mode}" failed \\(.+\\) and its onFailure is "block"`));
  });

  it('a timeout is a failure, and the hook is killed on time', async () => {
    const started = Date.now();
    const d = await answer(lang, 'timeout', bash('ls'), { timeout: 0.5 });
    // The hook sleeps 30 s: returning at all, after the 0.5 s, is the kill; the ceiling only tells a hang from a busy machine.
    expect(Date.now() - started).toBeGreaterThanOrEqual(500 - 50);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(d.results[0]!.failure).toEqual({ kind: 'timeout', message: 'timed out after 0.5s' });
  });

  // A hang is the test's timeout (vitest.config.ts); how long 50 MB through a pipe takes is the machine's load.
  it('50 MB of stdout is an output-too-large failure, not a hang or a crash', async () => {
    const d = await answer(lang, 'flood', bash('ls'), { onFailure: 'block' });
    expect(d.results[0]!.failure?.kind).toBe('output-too-large');
    expect(d.decision).toBe('block');
  });

  it('gets the env vars and runs in the project folder', async () => {
    const d = await answer(lang, 'echo-env');
    const [ev, tool, projectDir, cwd] = d.additionalContext[0]!.split('|');
    expect(ev).toBe('preToolUse');
    expect(tool).toBe('exec');
    expect(projectDir).toBeTruthy();
    expect(cwd).toBe(projectDir);
  });
});

describe('a command that does not exist', () => {
  it.each([
    ['shell form', { command: './no/such/guard.sh' }],
    ['exec form', { command: './no/such/guard.sh', args: [] }],
  ])('is a not-found failure in %s', async (_, hook) => {
    const runner = await runnerWith({ hooks: { preToolUse: [{ id: 'typo', ...hook }] } });
    const d = await runner.run(bash('ls'));
    expect(d.results[0]!.failure?.kind).toBe('not-found');
    expect(d.warnings[0]).toContain('hook "typo" failed (not-found');
  });
});
