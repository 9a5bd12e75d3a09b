// The tests every agent with command hooks must pass: a dangerous shell command is blocked (it never
// runs, and the reason reaches the model), a rewrite changes the command that really runs, and
// redact-secrets keeps a token in a command's output from reaching the model.
import { beforeAll, describe, expect, it } from 'vitest';
import { DANGER_REASON, DANGEROUS, REDACTED, TOKEN } from './fixtures.js';
import { AGENT_SPECS, REWRITE_HOOK, runAgent, type AgentRun } from './agents.js';
import { installAgent } from './install-agent.js';
import type { Step } from './model-server.js';
import { everything, toolOutputs } from './requests.js';
import { cleanUpAfterAll } from './workspace.js';

export interface ShellAgentOptions {
  title: string;
  dialect: string;
  /** The agent's own shell tool call for this command. */
  shell: (command: string) => Step;
  /** Checks on the redacted tool output beyond "token gone, marker there" (e.g. how the agent flags it). */
  redacted?: (output: { text: string; error: boolean }, run: AgentRun) => void;
  /**
   * What a userPromptSubmit block does in this agent: `blocks` (the prompt never reaches the model)
   * or `cannot-block` (the agent has no way to stop a prompt from a hook: it goes on to the model).
   */
  promptBlock: 'blocks' | 'cannot-block';
  /** What a PreToolUse rewrite does: `applies` (default), or `denied` for an agent that takes no rewritten input. */
  rewrite?: 'applies' | 'denied';
  /** More tests inside the same describe. */
  extra?: () => void;
}

export function shellAgentSuite(agent: keyof typeof AGENT_SPECS, options: ShellAgentOptions): void {
  describe(options.title, () => {
    beforeAll(async () => {
      await installAgent(agent);
    });
    cleanUpAfterAll();

    // One agent start for the three tool-call cases: the fake model makes the calls in turn (one per
    // turn), and each case is checked on the turn after its call. Tool outputs accumulate with the
    // conversation: turn k+1 carries exactly k+1 of them, the last being call k's.
    describe('block, rewrite and redact-secrets, one call each in one run', () => {
      const BLOCK = 0;
      const REWRITE = 1;
      const REDACT = 2;
      let r: AgentRun;
      beforeAll(async () => {
        r = await runAgent(agent, {
          label: 'tool-calls',
          dialect: options.dialect,
          script: [
            options.shell(DANGEROUS),
            options.shell('echo original > out.txt'),
            // The output also carries a marker line, so "the output was replaced by something else
            // entirely" is told apart from "the token in it was redacted".
            options.shell(`echo OUTPUT-MARKER-3141; echo ${TOKEN}`),
          ],
          hooks: { preToolUse: [REWRITE_HOOK.entry] },
          files: REWRITE_HOOK.files,
        });
      });
      /** What went back to the model for call `k`, on the turn after it (which carries k+1 outputs). */
      const outputOf = (k: number, what: string) => {
        const outputs = r.outputs(k + 1);
        expect(outputs, `${what}: turn ${k + 1} carries the outputs of calls 0..${k}\n${r.describe()}`).toHaveLength(k + 1);
        return outputs[k]!;
      };

      it('the run ends by itself, having asked the model once per call and once more', () => {
        expect(r.result.timedOut, r.describe()).toBe(false);
        expect(r.model.turns().length, r.describe()).toBeGreaterThanOrEqual(REDACT + 2);
      });

      it('blocks a dangerous shell command: it never runs, and the reason reaches the model', () => {
        expect(r.ws.exists('ran.marker'), r.describe()).toBe(false);
        expect(everything(r.model.turns()[BLOCK]!)).not.toContain(DANGER_REASON);
        expect(outputOf(BLOCK, 'block').text, r.describe()).toContain(DANGER_REASON);
      });

      const rewriteTitle = options.rewrite === 'denied' ? 'a rewrite the agent cannot take denies the call: neither command runs, and the model is told why' : 'a rewrite changes the command that actually runs';
      it(rewriteTitle, () => {
        if (options.rewrite === 'denied') {
          expect(r.ws.exists('out.txt'), r.describe()).toBe(false);
          expect(outputOf(REWRITE, 'rewrite').text, r.describe()).toContain('cannot take a rewritten tool input');
          return;
        }
        expect(r.ws.read('out.txt'), r.describe()).toBe('rewritten\n');
        expect(r.model.turns().length, r.describe()).toBeGreaterThanOrEqual(REWRITE + 2);
      });

      it('redact-secrets: a token in the command output does not reach the model', () => {
        const output = outputOf(REDACT, 'redact');
        expect(output.text, r.describe()).not.toContain(TOKEN);
        expect(output.text).toContain(REDACTED);
        expect(output.text).toContain('OUTPUT-MARKER-3141');
        // Nor in any later request's copy of the conversation.
        for (const turn of r.model.turns().slice(REDACT + 1)) for (const o of toolOutputs(AGENT_SPECS[agent].api, turn)) expect(o.text, r.describe()).not.toContain(TOKEN);
        options.redacted?.(output, r);
      });
    });

    const promptTitle =
      options.promptBlock === 'blocks'
        ? 'a userPromptSubmit block stops the prompt: the model never sees it'
        : 'a userPromptSubmit block cannot stop the prompt here (the agent has no such reply): the model gets it';
    it(promptTitle, async () => {
      const r = await runAgent(agent, {
        label: 'prompt',
        dialect: options.dialect,
        prompt: 'please deploy PROMPT-SECRET-5150 to production',
        script: [{ text: 'Not deploying.' }],
        hooks: { userPromptSubmit: [{ id: 'no-deploy', command: `grep -q 'deploy' && { echo 'deploys are not done by the agent' >&2; exit 2; }; exit 0` }] },
      });
      expect(r.result.timedOut, r.describe()).toBe(false);
      const sent = r.model.requests().filter((q) => everything(q).includes('PROMPT-SECRET-5150'));
      if (options.promptBlock === 'blocks') {
        expect(sent, r.describe()).toEqual([]);
        expect(r.model.turns(), r.describe()).toEqual([]);
      } else {
        expect(sent.length, r.describe()).toBeGreaterThanOrEqual(1);
      }
    });

    options.extra?.();
  });
}
