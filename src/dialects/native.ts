// The native dialect: our own answer, with the whole trace. Exit 0 to proceed, 2 to block.
import { outcomeOf } from '../decide/combine.js';
import type { Dialect } from './dialect.js';
import { eventFromClaudePayload } from './payload.js';
import { warningLines } from './warnings.js';

export const native: Dialect = {
  name: 'native',
  // Native is the fallback: it takes the same Claude-format payload, with or without hook_event_name.
  detect: () => true,
  toEvent: eventFromClaudePayload,
  answer(decision) {
    const blocking = decision.decision === 'block' || decision.decision === 'halt';
    const out: Record<string, unknown> = {
      // "continue" is not in the native vocabulary: nothing objected, so the action is allowed.
      decision: decision.decision === 'continue' ? 'allow' : decision.decision,
    };
    if (decision.reason !== undefined) out.reason = decision.reason;
    if (decision.updatedInput !== undefined) out.updatedInput = decision.updatedInput;
    if (decision.prompt !== undefined) out.prompt = decision.prompt;
    if (decision.updatedOutput !== undefined) out.updatedOutput = decision.updatedOutput.value;
    if (decision.additionalContext.length > 0) out.additionalContext = decision.additionalContext.join('\n\n');
    if ((decision.systemMessages ?? []).length > 0) out.systemMessages = decision.systemMessages;
    out.hooks = decision.results.map((r) => ({
      id: r.id,
      outcome: outcomeOf(r.reply),
      ms: r.ms,
      ...(r.failure === undefined ? {} : { failure: r.failure }),
      ...(r.wouldHave === undefined ? {} : { wouldHave: outcomeOf(r.wouldHave) }),
    }));
    if (decision.warnings.length > 0) out.warnings = decision.warnings;
    return {
      stdout: `${JSON.stringify(out)}\n`,
      stderr: warningLines(decision.warnings),
      exitCode: blocking ? 2 : 0,
    };
  },
};
