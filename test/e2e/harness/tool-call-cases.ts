// The four tool-call cases in one agent run: the fake model makes the calls in turn (one per turn), and each
// case is checked on the turn after its call. Tool outputs accumulate with the conversation: turn k+1
// carries exactly k+1 of them, the last being call k's. One agent start instead of four, and every call of
// the run is shown guarded, not only the first. For agents on the chat wire API (pi, omp, Cline).
import { expect, it } from 'vitest';
import { REWRITE_HOOK } from './agents.js';
import { DANGER_REASON, DANGEROUS, REDACTED, TOKEN } from './fixtures.js';
import type { RecordedRequest, Step } from './model-server.js';
import { everything, toolOutputs } from './requests.js';

const BLOCK = 0;
const ALLOW = 1;
const REWRITE = 2;
const REDACT = 3;

/** The run's options: the four calls, in the agent's own shell tool, and the rewrite hook. */
export function toolCallRun(shell: (command: string) => Step) {
  return {
    script: [shell(DANGEROUS), shell('echo fine > fine.txt'), shell('echo original > out.txt'), shell(`echo OUTPUT-MARKER-3141; echo ${TOKEN}`)],
    hooks: { preToolUse: [REWRITE_HOOK.entry] },
    files: REWRITE_HOOK.files,
  };
}

export interface ToolCallResult {
  ws: { read(name: string): string | undefined; exists(name: string): boolean };
  model: { turns(): RecordedRequest[] };
  describeRun(): string;
}

/** One `it` per case, on the run `result()` gives (made in a `beforeAll` from `toolCallRun`). */
export function toolCallCases(result: () => ToolCallResult): void {
  /** What went back to the model for call `k`, on the turn after it (which carries k+1 outputs). */
  const outputOf = (k: number, what: string) => {
    const r = result();
    const outputs = toolOutputs('chat', r.model.turns()[k + 1] ?? r.model.turns()[0]!);
    expect(r.model.turns().length, `${what}: a turn after call ${k}\n${r.describeRun()}`).toBeGreaterThan(k + 1);
    expect(outputs, `${what}: turn ${k + 1} carries the outputs of calls 0..${k}\n${r.describeRun()}`).toHaveLength(k + 1);
    return outputs[k]!;
  };

  it("blocks a dangerous command: it never runs, and the reason reaches the model as the call's result", () => {
    const r = result();
    expect(r.ws.exists('ran.marker'), r.describeRun()).toBe(false);
    expect(everything(r.model.turns()[BLOCK]!)).not.toContain(DANGER_REASON);
    expect(outputOf(BLOCK, 'block').text).toContain(DANGER_REASON);
  });

  it('a harmless command runs untouched', () => {
    expect(result().ws.read('fine.txt'), result().describeRun()).toBe('fine\n');
    expect(outputOf(ALLOW, 'allow').text).not.toContain('Blocked');
  });

  it('a rewrite changes the command that actually runs', () => {
    expect(result().ws.read('out.txt'), result().describeRun()).toBe('rewritten\n');
    expect(outputOf(REWRITE, 'rewrite').text).not.toContain('Blocked');
  });

  it('redact-secrets: a token in the command output does not reach the model', () => {
    const r = result();
    const output = outputOf(REDACT, 'redact');
    expect(output.text).not.toContain(TOKEN);
    expect(output.text).toContain(REDACTED);
    expect(output.text).toContain('OUTPUT-MARKER-3141');
    // Nor in any later request's copy of the conversation.
    for (const turn of r.model.turns().slice(REDACT + 1)) for (const o of toolOutputs('chat', turn)) expect(o.text, r.describeRun()).not.toContain(TOKEN);
  });
}
