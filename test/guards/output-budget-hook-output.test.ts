// Claude Code's 10,000-character cap on a hook's output: warned about in the claude-code dialect (one
// line naming the hook), and cut by output-budget's `hookOutput` option. Real bash hooks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeCode } from '../../src/dialects/claude-code.js';
import { capHookOutput, overCap } from '../../src/guards/output-budget/hook-output.js';
import { event, runnerWith } from '../helpers.js';

const prompt = () => event('userPromptSubmit', { prompt: 'hi' });
// 12,079 characters of context, as in the issue.
const BIG = `python3 -c 'import json; print(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "x" * 12079}}))'`;
const SMALL = `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"short"}}'`;

describe("Claude Code's cap on a hook's output", () => {
  it('a hook over 10,000 characters is named in one warning line; the text still goes through', async () => {
    const runner = await runnerWith({ hooks: { userPromptSubmit: [{ id: 'big-context', command: BIG }, { id: 'small', command: SMALL }] } } as never);
    const a = claudeCode.answer(await runner.run(prompt()));
    const json = JSON.parse(a.stdout) as { systemMessage: string; hookSpecificOutput: { additionalContext: string } };
    const lines = json.systemMessage.split('\n').filter((l) => l.includes('cap'));
    expect(lines).toEqual([expect.stringMatching(/^agent-hooks: hook "big-context" gave additionalContext \(12079 characters\), over Claude Code's 10000-character cap/)]);
    expect(json.hookSpecificOutput.additionalContext.length).toBeGreaterThan(12079);
  });

  it("output-budget's hookOutput cuts it to the cap, with a marker and a note instead of the warning", async () => {
    const runner = await runnerWith({ hooks: { postToolUse: [{ builtin: 'output-budget', options: { hookOutput: 10000 } }], userPromptSubmit: [{ id: 'big-context', command: BIG }] } } as never);
    const d = await runner.run(prompt());
    expect(d.additionalContext[0]!.length).toBeLessThanOrEqual(10000);
    expect(d.additionalContext[0]).toMatch(/^x+\n\[… \d+ chars cut by agent-hooks output-budget \(hookOutput: 10000\) …\]$/);
    const json = JSON.parse(claudeCode.answer(d).stdout) as { systemMessage: string };
    expect(json.systemMessage).toContain('hook "big-context" gave 12079 characters of additionalContext; output-budget (hookOutput: 10000) cut it to 10000');
    expect(json.systemMessage).not.toContain("over Claude Code's");
  });

  it('hookOutput below 100 is refused with the key path', async () => {
    await expect(runnerWith({ hooks: { postToolUse: [{ builtin: 'output-budget', options: { hookOutput: 5 } }] } } as never)).rejects.toThrow(/hookOutput/);
  });

  it('property: a capped reply is never over the cap, and under the cap it is untouched', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 100, max: 300 }), (text, cap) => {
        const out = capHookOutput({ additionalContext: text, reason: text }, cap);
        expect(overCap(out, cap)).toEqual([]);
        if ([...text].length <= cap) expect(out.additionalContext).toBe(text);
      }),
      { seed: 24, numRuns: 300, interruptAfterTimeLimit: 4000 },
    );
  });
});
