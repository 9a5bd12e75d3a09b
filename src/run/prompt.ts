// `type: "prompt"` hooks: a model judges the event (src/judge) and its verdict is read as Claude Code
// 2.1.332 reads a prompt hook's (checked in its bundle): `ok: true` lets the event go on; `ok: false` is a
// blocking answer with the model's reason, which also ends the turn (Claude Code's preventContinuation)
// unless the hook says `continueOnBlock: true`, and on Stop/SubagentStop keeps the agent going with the
// reason instead; `impossible: true` on a Stop ends the loop (the stop goes through). What the block
// means on each event is the event's own: the verdict is read as the equivalent JSON reply. `type: "agent"`
// hooks come here too: a verifier with read-only tools answers instead of one request (src/judge/agent).
import type { EventSpec } from '../events/catalog.js';
import { sessionBudget, DEFAULT_JUDGE_BUDGET } from '../judge/budget.js';
import { verdictCache } from '../judge/cache.js';
import { judge, type JudgeDeps, type JudgeNote, type JudgeRequest } from '../judge/judge.js';
export { judgeSettings } from '../judge/target.js';
import { readReturnValue, type Reading } from '../reply/interpret.js';

export interface PromptSpec extends Omit<JudgeRequest, 'budget'> {
  /** Requests one session may make; default DEFAULT_JUDGE_BUDGET. */
  budget?: number;
  /** Claude Code's `continueOnBlock`: an `ok: false` blocks without ending the turn. */
  continueOnBlock: boolean;
}

export async function runPrompt(spec: PromptSpec, event: EventSpec, deps: JudgeDeps): Promise<{ reading: Reading; judge?: JudgeNote }> {
  const end = await judge({ ...spec, budget: spec.budget ?? DEFAULT_JUDGE_BUDGET }, deps);
  if (!end.ok) return { reading: { ok: false, failure: end.failure }, ...(end.note === undefined ? {} : { judge: end.note }) };
  const { verdict, note } = end;
  const stop = event.claude === 'Stop' || event.claude === 'SubagentStop';
  if (verdict.ok) return { reading: { ok: true, reply: { decision: 'continue' } }, judge: note };
  const reason = verdict.reason ?? 'the judge model answered ok: false without a reason';
  // Claude Code's agent hook blocks without ending the turn, and reads no `impossible`.
  if (spec.agent !== undefined) return { reading: readReturnValue({ decision: 'block', reason }, event), judge: note };
  if (stop && verdict.impossible === true) {
    return { reading: { ok: true, reply: { decision: 'continue', notes: [`the judge says the stop condition can never hold (${reason}); the stop goes through`] } }, judge: note };
  }
  // Claude Code 2.1.332 says whose block it is: the block reason (what the model reads) is `[<prompt>]: <reason>`,
  // the turn's stop reason the model's reason alone (checked in its bundle). It shortens a prompt past 500
  // characters only once the transcript already holds the prefix; the runner has no transcript: it keeps it whole.
  const answer: Record<string, unknown> = { decision: 'block', reason: `${blockPrefix(spec.prompt)}${reason}` };
  if (!stop && !spec.continueOnBlock) {
    Object.assign(answer, { continue: false, stopReason: reason });
    // The call is denied too: the model is told the prefixed reason, the turn's end says the bare one.
    if (event.permissionDecision) answer.hookSpecificOutput = { hookEventName: event.claude, permissionDecision: 'deny', permissionDecisionReason: answer.reason };
  }
  return { reading: readReturnValue(answer, event), judge: note };
}

/** What Claude Code puts before a prompt hook's block reason. */
export function blockPrefix(prompt: string): string {
  return `[${prompt}]: `;
}

/**
 * The verdict cache and request budget. A locked runner (files false) reads and writes neither's files:
 * the agent can write them. The cache files are also skipped under HOOKS_NO_CACHE.
 */
export function judgeDeps(env: NodeJS.ProcessEnv, files: boolean): JudgeDeps {
  return { cache: verdictCache(env, files && !env.HOOKS_NO_CACHE), budget: sessionBudget(env, files) };
}
