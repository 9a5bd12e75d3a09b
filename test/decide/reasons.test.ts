// What the model reads when hooks give no reason: Claude Code's own words in the claude-code dialect
// ("Blocked by hook", "No stderr output", nothing invented for an ask or a defer), a later hook's reason
// kept when the first blocking hook gave none. Every hook is a real bash process.
import { describe, expect, it } from 'vitest';
import { claudeCode } from '../../src/dialects/claude-code.js';
import { codex } from '../../src/dialects/codex.js';
import type { Decision } from '../../src/decide/combine.js';
import type { HookEvent } from '../../src/types.js';
import { bash, event, runnerWith } from '../helpers.js';

const post = () => event('postToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'a' }, tool_use_id: 'toolu_test' });
const stop = (extra: Record<string, unknown> = {}) => event('stop', { stop_hook_active: false, last_assistant_message: 'Done.', ...extra });

async function decide(ev: HookEvent, hooks: Record<string, unknown>[]): Promise<Decision> {
  const runner = await runnerWith({ hooks: { [ev.name]: hooks } } as never);
  return runner.run(ev);
}
const answer = (d: Decision) => {
  const a = claudeCode.answer(d);
  return { ...a, json: a.stdout === '' ? {} : (JSON.parse(a.stdout) as Record<string, any>) };
};

describe('a deny without a reason reads as Claude Code says it', () => {
  it('JSON deny without a reason: "Blocked by hook", not the hook id', async () => {
    const d = await decide(bash('ls'), [{ command: `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'` }]);
    expect(d.decision).toBe('block');
    const a = answer(d);
    expect(a.json.hookSpecificOutput.permissionDecisionReason).toBe('Blocked by hook');
    expect(a.stderr).toBe('Blocked by hook\n');
    expect(a.exitCode).toBe(2);
    // Other dialects and traces still name the hook (a readable id, not "null-").
    expect(d.reason).toBe('blocked by hook "echo"');
    expect(codex.answer(d).stderr).not.toContain('Blocked by hook');
  });

  it('decision block with an empty reason on Stop: "Blocked by hook"', async () => {
    const a = answer(await decide(stop(), [{ command: `echo '{"decision":"block","reason":""}'` }]));
    expect(a.json).toMatchObject({ decision: 'block', reason: 'Blocked by hook' });
  });

  it.each([
    ['PostToolUse', post],
    ['PreToolUse', () => bash('ls')],
    ['Stop', () => stop()],
  ])('exit 2 with empty stderr on %s: "No stderr output"', async (_name, ev) => {
    const a = answer(await decide(ev(), [{ command: 'cat >/dev/null; exit 2' }]));
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toBe('No stderr output\n');
  });

  it('a hook that gave a reason keeps it', async () => {
    const a = answer(await decide(post(), [{ command: 'echo "too long" >&2; exit 2' }]));
    expect(a.stderr).toBe('too long\n');
    expect(a.json).toMatchObject({ decision: 'block', reason: 'too long' });
  });
});

describe('asks and defers', () => {
  it('a defer without a reason gets no invented one', async () => {
    const a = answer(await decide(bash('ls'), [{ command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}'` }]));
    expect(a.json.hookSpecificOutput.permissionDecision).toBe('defer');
    expect(a.json.hookSpecificOutput).not.toHaveProperty('permissionDecisionReason');
    expect(a.stdout).not.toContain('asks for confirmation');
  });

  it('an ask without a reason gets none either; one with a reason keeps it', async () => {
    const bare = answer(await decide(bash('ls'), [{ command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}'` }]));
    expect(bare.json.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'ask' });
    const said = answer(await decide(bash('ls'), [{ command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}'` }]));
    expect(said.json.hookSpecificOutput.permissionDecisionReason).toBe('sure?');
  });
});

describe('when the first blocking hook gives no reason', () => {
  it("a later blocking hook of its parallel batch says why (the first hook's block still decides)", async () => {
    const d = await decide(bash('ls'), [
      { id: 'silent', command: 'cat >/dev/null; exit 2', parallel: true },
      { id: 'talks', command: 'cat >/dev/null; echo "rm is not allowed here" >&2; exit 2', parallel: true },
    ]);
    expect(d.decidedBy).toBe('silent');
    expect(d.reason).toBe('rm is not allowed here');
    expect(answer(d).stderr).toBe('rm is not allowed here\n');
  });

  it('the first reason wins when both gave one', async () => {
    const d = await decide(bash('ls'), [
      { command: 'cat >/dev/null; echo first >&2; exit 2', parallel: true },
      { command: 'cat >/dev/null; echo second >&2; exit 2', parallel: true },
    ]);
    expect(d.reason).toBe('first');
  });

  it('on Stop every reason is delivered, the reason-less one in Claude Code words', async () => {
    const a = answer(await decide(stop(), [{ command: 'cat >/dev/null; exit 2' }, { command: 'cat >/dev/null; echo "tests fail" >&2; exit 2' }]));
    expect(a.stderr).toBe('No stderr output\n\ntests fail\n');
  });
});

describe('a top-level additionalContext, which Claude Code ignores', () => {
  const TOP = `cat >/dev/null; echo '{"additionalContext":"top","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"specific"}}'`;
  const ONLY_TOP = `cat >/dev/null; echo '{"additionalContext":"only top"}'`;
  const TOP_BESIDE_EMPTY = `cat >/dev/null; echo '{"additionalContext":"ignored","hookSpecificOutput":{"hookEventName":"UserPromptSubmit"}}'`;
  const prompt = () => event('userPromptSubmit', { prompt: 'hi' });

  it('is not delivered in the claude-code dialect, with a warning naming the hook; hookSpecificOutput.additionalContext is', async () => {
    const d = await decide(prompt(), [{ id: 'both', command: TOP }, { id: 'top', command: TOP_BESIDE_EMPTY }, { id: 'plain', command: 'cat >/dev/null; echo plain text' }]);
    const a = answer(d);
    expect(a.json.hookSpecificOutput.additionalContext).toBe('specific\n\nplain text');
    expect(a.json.systemMessage).toContain('hook "top" gave a top-level additionalContext, which Claude Code ignores');
    expect(a.json.systemMessage).toContain('hook "both" gave a top-level additionalContext');
    // Other dialects deliver it all.
    expect(codex.answer(d).stdout).toContain('ignored');
  });

  it("without a hookSpecificOutput it is agent-hooks' own reply shape (protocol section 3), delivered everywhere", async () => {
    const d = await decide(prompt(), [{ command: ONLY_TOP }]);
    expect(d.additionalContext).toEqual(['only top']);
    expect(answer(d).json.hookSpecificOutput.additionalContext).toBe('only top');
    expect(answer(d).stdout).not.toContain('Claude Code ignores');
  });
});
