// An event the runner cannot judge (it nests past the documented limit) never reaches a hook: no guard, copy or
// serialization of it may overflow the stack. On an intercepting event it is held back: preToolUse and
// userPromptSubmit are blocked, postToolUse has its output replaced; on an observe event a loud warning.
import type { ResolvedHook } from '../config/resolve.js';
import type { Decision, Step } from '../decide/combine.js';
import { eventSpec } from '../events/catalog.js';
import { EVENT_LIMITS, nestsDeeperThan } from '../json.js';
import type { HookEvent } from '../types.js';

/** Why the event cannot be judged, or undefined when it can. */
export function unjudgeable(event: HookEvent): string | undefined {
  if (nestsDeeperThan(event.payload, EVENT_LIMITS.maxDepth)) return `the event nests deeper than ${EVENT_LIMITS.maxDepth} levels`;
  return undefined;
}

/** The decision for an event that cannot be judged: no hook runs. */
export function cannotJudge(event: HookEvent, why: string, hooks: ResolvedHook[]): Decision {
  const spec = eventSpec(event.name);
  const steps = hooks.map((h, i): Step => ({ id: h.id, source: h.source, batch: spec.mode === 'observe' ? 1 : i + 1, status: 'not-reached', why: 'the event cannot be judged' }));
  const base = { event, additionalContext: [], results: [], skipped: [], steps };
  if (spec.rewrites === 'updatedOutput') {
    // postToolUse: the output is replaced, the way a redaction is (for Claude Code a block there is feedback
    // only: the output would still reach the model).
    const withheld = `[withheld by agent-hooks: the tool output cannot be judged: ${why}]`;
    return { ...base, decision: 'modify', updatedOutput: { value: withheld }, reason: `agent-hooks: cannot be judged: ${why}`, decidedBy: 'agent-hooks', warnings: [`cannot be judged: ${why}; the tool output was withheld`] };
  }
  if (spec.mode === 'intercept') {
    return { ...base, decision: 'block', reason: `agent-hooks: cannot be judged: ${why}`, decidedBy: 'agent-hooks', warnings: [] };
  }
  return { ...base, decision: 'continue', warnings: [`cannot be judged: ${why}; no hooks ran on ${spec.name}`] };
}
