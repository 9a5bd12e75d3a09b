// Claude Code's reply format, shared by the dialects of agents that read it (Claude Code, Codex CLI).
// What each of those agents cannot take is a profile flag, so the format lives in one place.
import type { Decision } from '../decide/combine.js';
import { eventSpec } from '../events/catalog.js';
import type { Answer } from './dialect.js';
import { outputText } from './output.js';
import { systemMessage, warningLines } from './warnings.js';

export interface ClaudeProfile {
  /** The agent's name, for warnings. */
  agent: string;
  /** `permissionDecision: "ask"` is honoured (Codex marks the hook failed and runs the tool). */
  canAsk: boolean;
  /** `continue: false` on PreToolUse is honoured (Codex marks the hook failed and runs the tool). */
  canHaltPreToolUse: boolean;
  /** How a rewritten tool output is sent: Claude's `updatedToolOutput`, or Codex's block, whose reason replaces the result. */
  outputRewrite: 'updatedToolOutput' | 'block-reason';
  /**
   * `updatedInput` is applied only together with `permissionDecision: "allow"` (Codex: without it the hook
   * is marked failed and the original runs). Such an agent's rewrite also approves the call. Claude Code
   * applies `updatedInput` alone and still runs its permission check on the rewritten call.
   */
  rewriteNeedsAllow: boolean;
}

export function claudeStyleAnswer(decision: Decision, profile: ClaudeProfile): Answer {
  const spec = eventSpec(decision.event.name);
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  const reason = decision.reason ?? '';
  const warnings = [...decision.warnings];
  let exitCode = 0;

  switch (decision.decision) {
    case 'halt':
      if (spec.name === 'preToolUse') {
        // Claude Code runs the tool when it gets `continue: false` alone: deny it too.
        Object.assign(specific, deny(reason));
        if (profile.canHaltPreToolUse) Object.assign(out, { continue: false, stopReason: reason });
        else warnings.push(`a hook halted the run, which ${profile.agent} cannot do from PreToolUse; the tool was denied instead`);
      } else {
        Object.assign(out, { continue: false, stopReason: reason });
      }
      // On Stop, exit 2 means "do not stop, go on" and the JSON (continue: false) is not read on exit 2:
      // a halt there is the JSON on exit 0, so the agent stops as asked.
      if (spec.canBlock && spec.name !== 'stop' && spec.name !== 'subagentStop') exitCode = 2;
      break;
    case 'block':
      if (spec.name === 'preToolUse') Object.assign(specific, deny(reason));
      else Object.assign(out, { decision: 'block', reason });
      exitCode = 2;
      break;
    case 'ask':
      if (profile.canAsk) {
        specific.permissionDecision = 'ask';
        specific.permissionDecisionReason = reason;
        if (decision.updatedInput !== undefined) specific.updatedInput = decision.updatedInput;
      } else {
        // Unanswerable asks fail closed: the user cannot be asked, so the tool does not run.
        Object.assign(specific, deny(`${reason} (a hook asked for confirmation, which ${profile.agent} cannot ask for)`));
        warnings.push(`a hook asked for confirmation, which ${profile.agent} cannot ask for; the tool was denied`);
        exitCode = 2;
      }
      break;
    case 'modify':
      if (decision.updatedInput !== undefined) {
        // A rewrite is not an approval: Claude Code applies updatedInput alone and asks for permission
        // for the rewritten call as usual. `allow` goes with it only when a hook said allow, or when the
        // agent takes no rewrite without it (Codex), where the rewrite then approves the call.
        if (profile.rewriteNeedsAllow || explicitlyAllowed(decision)) {
          specific.permissionDecision = 'allow';
          if (decision.reason !== undefined) specific.permissionDecisionReason = decision.reason;
        }
        specific.updatedInput = decision.updatedInput;
      }
      if (decision.updatedOutput !== undefined) {
        if (profile.outputRewrite === 'updatedToolOutput') specific.updatedToolOutput = decision.updatedOutput.value;
        else Object.assign(out, { decision: 'block', reason: outputText(decision.updatedOutput.value) });
      }
      if (decision.prompt !== undefined) {
        // Neither agent can take a rewritten prompt. Sending the original on would defeat the rewrite
        // (often a redaction), so the prompt is blocked and the user told why.
        out.decision = 'block';
        out.reason = `a hook rewrote this prompt, and ${profile.agent} cannot take a rewritten prompt; it was not sent${decision.reason ? ` (${decision.reason})` : ''}`;
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
  if (Object.keys(specific).length > 0) out.hookSpecificOutput = { hookEventName: spec.claude, ...specific };
  if (warnings.length > 0) out.systemMessage = systemMessage(warnings);

  const stdout = Object.keys(out).length > 0 ? `${JSON.stringify(out)}\n` : '';
  const blockReason = exitCode === 2 ? blockText(out, specific) ?? reason : undefined;
  // On exit 2 the agent shows stderr as the reason, so it carries the reason alone.
  const stderr = blockReason !== undefined ? `${blockReason}\n` : warningLines(warnings);
  return { stdout, stderr, exitCode };
}

/** A hook of the chain answered allow itself (an allow that also rewrote makes the decision `modify`). */
function explicitlyAllowed(decision: Decision): boolean {
  return decision.results.some((r) => r.failure === undefined && r.reply.decision === 'allow');
}

function deny(reason: string): Record<string, unknown> {
  return { permissionDecision: 'deny', permissionDecisionReason: reason };
}

function blockText(out: Record<string, unknown>, specific: Record<string, unknown>): string | undefined {
  const text = out.reason ?? specific.permissionDecisionReason;
  return typeof text === 'string' ? text : undefined;
}
