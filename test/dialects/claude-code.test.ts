// The claude-code dialect's answer: what Claude Code 2.1.328 really does with it was checked with the
// real CLI (test/e2e/claude-code.e2e.test.ts); these pin the shape.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Decision, HookResult, Outcome } from '../../src/decide/combine.js';
import { claudeCode } from '../../src/dialects/claude-code.js';
import { codex } from '../../src/dialects/codex.js';
import type { HookEvent } from '../../src/types.js';
import { ROOT } from '../helpers.js';

const load = (agent: string, file: string) => JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'payloads', agent, file), 'utf8')) as Record<string, unknown>;
const ev = (file: string) => claudeCode.toEvent(load('claude', file), undefined);
const decide = (event: HookEvent, decision: Outcome, extra: Partial<Decision> = {}): Decision => ({ decision, event, additionalContext: [], results: [], warnings: [], skipped: [], steps: [], ...extra });
const json = (d: Decision, dialect = claudeCode) => {
  const a = dialect.answer(d);
  return { ...a, json: a.stdout === '' ? undefined : (JSON.parse(a.stdout) as Record<string, any>) };
};
const result = (id: string, reply: HookResult['reply']): HookResult => ({ id, reply, ms: 1 }) as unknown as HookResult;

describe('claude-code: a rewrite is not an approval', () => {
  it('a pure rewrite sends updatedInput without permissionDecision (Claude Code applies it, then asks as usual)', () => {
    const d = decide(ev('PreToolUse.Bash.json'), 'modify', { reason: 'colour off', updatedInput: { command: 'ls --color=never' }, results: [result('rewrite', { decision: 'continue', reason: 'colour off', updatedInput: { command: 'ls --color=never' } })] });
    const a = json(d);
    expect(a.exitCode).toBe(0);
    expect(a.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls --color=never' } } });
  });

  it('allow goes with the rewrite only when a hook said allow', () => {
    const d = decide(ev('PreToolUse.Bash.json'), 'modify', {
      reason: 'vetted',
      updatedInput: { command: 'ls' },
      results: [result('rewrite', { decision: 'continue', updatedInput: { command: 'ls' } }), result('approve', { decision: 'allow', reason: 'vetted' })],
    });
    expect(json(d).json?.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'vetted', updatedInput: { command: 'ls' } });
  });

  it('codex takes updatedInput only with allow: its rewrite keeps allow', () => {
    const e = codex.toEvent(load('codex', 'PreToolUse.Bash.json'), undefined);
    expect(json(decide(e, 'modify', { updatedInput: { command: 'echo safe' } }), codex).json?.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo safe' } });
  });
});

describe('claude-code: halt', () => {
  // Exit 0: Claude Code reads continue:false from the JSON and records a stop, not a block.
  it('on PreToolUse: deny + continue:false, exit 0 (Claude runs the tool on continue:false alone)', () => {
    const a = json(decide(ev('PreToolUse.Bash.json'), 'halt', { reason: 'stop everything' }));
    expect(a.exitCode).toBe(0);
    expect(a.json).toEqual({ continue: false, stopReason: 'stop everything', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'stop everything' } });
  });

  // Exit 2 on Stop means "do not stop, go on", and the JSON is not read on exit 2.
  it.each([['Stop.json'], ['SubagentStop.json']])('on %s: exit 0 with continue:false, so the agent does stop', (file) => {
    for (const dialect of [claudeCode, codex]) {
      const e = dialect === codex ? codex.toEvent(load('claude', file), undefined) : ev(file);
      const a = json(decide(e, 'halt', { reason: 'out of budget' }), dialect);
      expect(a.exitCode).toBe(0);
      expect(a.json).toEqual({ continue: false, stopReason: 'out of budget' });
      expect(a.stderr).toBe('');
    }
  });

  it('a Stop block is still exit 2 with decision block (go on, with the reason)', () => {
    expect(json(decide(ev('Stop.json'), 'block', { reason: 'run the tests' }))).toMatchObject({ exitCode: 2, stderr: 'run the tests\n', json: { decision: 'block', reason: 'run the tests' } });
  });
});
