// The claude-code dialect: exactly what Claude Code reads from a command hook (also Codex CLI, and
// Copilot CLI's PascalCase mode). A block is exit 2 with the reason on stderr *and* the JSON form on
// stdout, so both older releases (stderr only) and newer ones (JSON on exit 2) see the same reason.
import type { Decision } from '../decide/combine.js';
import { eventSpec } from '../events/catalog.js';
import type { Answer, Dialect } from './dialect.js';
import { eventFromClaudePayload } from './payload.js';

export const claudeCode: Dialect = {
  name: 'claude-code',
  detect: (raw) => typeof raw === 'object' && raw !== null && typeof (raw as Record<string, unknown>).hook_event_name === 'string',
  toEvent: eventFromClaudePayload,
  answer(decision) {
    const spec = eventSpec(decision.event.name);
    const hookEventName = spec.claude;
    const out: Record<string, unknown> = {};
    const specific: Record<string, unknown> = {};
    const reason = decision.reason ?? '';
    const warnings = [...decision.warnings];
    let exitCode = 0;

    switch (decision.decision) {
      case 'halt':
        out.continue = false;
        out.stopReason = reason;
        // Claude Code runs the tool when it gets `continue: false` alone: deny it too.
        if (spec.name === 'preToolUse') Object.assign(specific, deny(reason));
        if (spec.canBlock) exitCode = 2;
        break;
      case 'block':
        if (spec.name === 'preToolUse') Object.assign(specific, deny(reason));
        else {
          out.decision = 'block';
          out.reason = reason;
        }
        exitCode = 2;
        break;
      case 'ask':
        specific.permissionDecision = 'ask';
        specific.permissionDecisionReason = reason;
        if (decision.updatedInput !== undefined) specific.updatedInput = decision.updatedInput;
        break;
      case 'modify':
        if (decision.updatedInput !== undefined) {
          // Claude Code applies updatedInput only together with a permission decision.
          specific.permissionDecision = 'allow';
          if (decision.reason !== undefined) specific.permissionDecisionReason = decision.reason;
          specific.updatedInput = decision.updatedInput;
        }
        if (decision.updatedOutput !== undefined) specific.updatedToolOutput = decision.updatedOutput.value;
        if (decision.prompt !== undefined) {
          // Claude Code cannot rewrite a prompt. Sending the original on would defeat the rewrite
          // (often a redaction), so the prompt is blocked and the user told why.
          out.decision = 'block';
          out.reason = `a hook rewrote this prompt, and Claude Code cannot take a rewritten prompt; it was not sent${decision.reason ? ` (${decision.reason})` : ''}`;
          exitCode = 2;
        }
        break;
      case 'allow':
        if (spec.name === 'preToolUse') {
          specific.permissionDecision = 'allow';
          if (decision.reason !== undefined) specific.permissionDecisionReason = decision.reason;
        }
        break;
      case 'continue':
        break;
    }
    if (decision.additionalContext.length > 0) specific.additionalContext = decision.additionalContext.join('\n\n');
    if (Object.keys(specific).length > 0) out.hookSpecificOutput = { hookEventName, ...specific };
    if (warnings.length > 0) out.systemMessage = warnings.map((w) => `agent-hooks: ${w}`).join('\n');

    const stdout = Object.keys(out).length > 0 ? `${JSON.stringify(out)}\n` : '';
    const blockReason = exitCode === 2 ? (out.reason as string | undefined) ?? reason : undefined;
    // On exit 2 Claude Code shows stderr as the reason, so it carries the reason alone.
    const stderr = blockReason !== undefined ? `${blockReason}\n` : warnings.map((w) => `agent-hooks: ${w}\n`).join('');
    return { stdout, stderr, exitCode } satisfies Answer;
  },
};

function deny(reason: string): Record<string, unknown> {
  return { permissionDecision: 'deny', permissionDecisionReason: reason };
}
