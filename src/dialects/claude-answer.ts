// Claude Code's reply format, shared by the dialects of agents that read it (Claude Code, Codex CLI).
// What each of those agents cannot take is a profile flag, so the format lives in one place. What each
// event can carry comes from the catalog (`EventSpec`), which says what Claude Code reads back there.
import type { Decision } from '../decide/combine.js';
import { eventSpec, type EventSpec } from '../events/catalog.js';
import type { Answer } from './dialect.js';
import { CLAUDE_HOOK_OUTPUT_CAP, overCap } from '../guards/output-budget/hook-output.js';
import { outputText } from './output.js';
import { warningLines } from './warnings.js';

export interface ClaudeProfile {
  /** The agent's name, for warnings. */
  agent: string;
  /** `permissionDecision: "ask"` is honoured (Codex marks the hook failed and runs the tool). */
  canAsk: boolean;
  /** `permissionDecision: "defer"` is honoured (Claude Code in `-p` mode); else a defer is sent as ask. */
  canDefer: boolean;
  /** `continue: false` on PreToolUse is honoured (Codex marks the hook failed and runs the tool). */
  canHaltPreToolUse: boolean;
  /**
   * A halt is also exit 2 on the events that can block (Codex). Claude Code reads `continue: false` on
   * exit 0 and records it as a stop, where exit 2 would be recorded as a block first.
   */
  haltByExit2: boolean;
  /** How a rewritten tool output is sent: Claude's `updatedToolOutput`, or Codex's block, whose reason replaces the result. */
  outputRewrite: 'updatedToolOutput' | 'block-reason';
  /**
   * `updatedInput` is applied only together with `permissionDecision: "allow"` (Codex: without it the hook
   * is marked failed and the original runs). Such an agent's rewrite also approves the call. Claude Code
   * applies `updatedInput` alone and still runs its permission check on the rewritten call.
   */
  rewriteNeedsAllow: boolean;
  /** Reason-less blocks and asks read as the agent itself words them (`Decision.claudeReason`), not naming the hook. */
  claudeWording?: true;
  /**
   * PermissionRequest's deny may carry `interrupt`, its allow `updatedInput` and `updatedPermissions`,
   * with `continue: false` beside (Claude Code). Codex 0.171 fails the hook closed on any of them.
   */
  permissionRequestExtras: boolean;
}

export function claudeStyleAnswer(given: Decision, profile: ClaudeProfile): Answer {
  // Claude Code takes only hookSpecificOutput.additionalContext: a top-level one is not delivered.
  const decision = profile.claudeWording === true && given.claudeContext !== undefined ? { ...given, additionalContext: given.claudeContext } : given;
  const spec = eventSpec(decision.event.name);
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  const reason = profile.claudeWording === true && decision.claudeReason !== undefined ? decision.claudeReason : (decision.reason ?? '');
  const warnings = [...decision.warnings];
  if (profile.claudeWording === true) {
    warnings.push(...overClaudeCap(decision));
    for (const r of decision.results) {
      if (r.reply.claudeContext !== undefined) warnings.push(`hook "${r.id}" gave a top-level additionalContext, which Claude Code ignores (it reads hookSpecificOutput.additionalContext); not delivered`);
    }
  }
  let exitCode = 0;

  if (!spec.known) return forwardAnswer(decision, warnings);

  switch (decision.decision) {
    case 'halt':
      if (spec.blockAs === 'permissionDecision' && spec.tool) {
        // Claude Code runs the tool when it gets `continue: false` alone: deny it too.
        Object.assign(specific, deny(decision.denyReason ?? reason));
        if (profile.canHaltPreToolUse) Object.assign(out, { continue: false, stopReason: reason });
        else warnings.push(`a hook halted the run, which ${profile.agent} cannot do from PreToolUse; the tool was denied instead`);
      } else if (spec.blockAs === 'permissionRequest' && !profile.permissionRequestExtras) {
        specific.decision = { behavior: 'deny', message: reason };
        warnings.push(`a hook halted the run, which ${profile.agent} cannot do from PermissionRequest; the request was denied instead`);
        break;
      } else if (spec.blockAs === 'permissionRequest') {
        // `interrupt` with a deny is PermissionRequest's own way to stop the agent.
        specific.decision = { behavior: 'deny', message: reason, interrupt: true };
        Object.assign(out, { continue: false, stopReason: reason });
      } else {
        Object.assign(out, { continue: false, stopReason: reason });
      }
      // On Stop, exit 2 means "do not stop, go on" and the JSON (continue: false) is not read on exit 2.
      if (profile.haltByExit2 && spec.canBlock && spec.name !== 'stop' && spec.name !== 'subagentStop') exitCode = 2;
      break;
    case 'block':
      exitCode = 2;
      switch (spec.blockAs) {
        case 'permissionDecision':
          Object.assign(specific, deny(reason));
          break;
        case 'permissionRequest':
          // Claude Code reads PermissionRequest's answer from the JSON only: exit 2 alone does not deny there.
          specific.decision = { behavior: 'deny', message: reason };
          exitCode = 0;
          break;
        case 'elicitation':
          specific.action = 'decline';
          out.reason = reason;
          break;
        case 'exit2':
          // TeammateIdle, TaskCompleted, WorktreeCreate: exit 2 with the reason on stderr is the whole block.
          break;
        default:
          Object.assign(out, { decision: 'block', reason });
      }
      break;
    case 'ask':
      if (profile.canAsk && spec.canAsk) {
        specific.permissionDecision = decision.deferred === true && spec.canDefer && profile.canDefer ? 'defer' : 'ask';
        if (reason !== '') specific.permissionDecisionReason = reason;
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
        if (spec.blockAs === 'permissionRequest') {
          if (explicitlyAllowed(decision) && profile.permissionRequestExtras) {
            specific.decision = { behavior: 'allow', updatedInput: decision.updatedInput, ...permissionsOf(decision) };
          } else {
            // Claude Code takes a PermissionRequest rewrite only with an allow; the prompt would show (and a
            // yes would run) the original the hook meant to replace, so the call is refused instead.
            const why = profile.permissionRequestExtras
              ? `a hook rewrote this call's input without allowing it, which ${profile.agent} cannot take on PermissionRequest; it was refused`
              : `a hook rewrote this call's input, which ${profile.agent} cannot take on PermissionRequest; it was refused`;
            specific.decision = { behavior: 'deny', message: decision.reason === undefined ? why : `${why} (${decision.reason})` };
            warnings.push(why);
          }
        } else {
          // A rewrite is not an approval: Claude Code applies updatedInput alone and asks for permission
          // for the rewritten call as usual. `allow` goes with it only when a hook said allow, or when the
          // agent takes no rewrite without it (Codex), where the rewrite then approves the call.
          if (profile.rewriteNeedsAllow || explicitlyAllowed(decision)) {
            specific.permissionDecision = 'allow';
            if (decision.reason !== undefined) specific.permissionDecisionReason = decision.reason;
          }
          specific.updatedInput = decision.updatedInput;
        }
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
      if (spec.blockAs === 'permissionDecision') {
        specific.permissionDecision = 'allow';
        if (decision.reason !== undefined) specific.permissionDecisionReason = decision.reason;
      } else if (spec.blockAs === 'permissionRequest') {
        const permissions = permissionsOf(decision);
        if (permissions.updatedPermissions !== undefined && !profile.permissionRequestExtras) {
          warnings.push(`a hook asked for permission rules, which ${profile.agent} cannot take on PermissionRequest; the call was allowed once, without them`);
        }
        specific.decision = { behavior: 'allow', ...(profile.permissionRequestExtras ? permissions : {}) };
      }
      break;
    case 'continue':
      break;
  }
  return finish(out, specific, spec, decision, warnings, exitCode, reason);
}

// --- internal ---

/**
 * An event this catalog does not know (a newer agent's): only the generic forms every Claude-style event
 * reads are sent. A block is exit 2 with the reason on stderr, which the agent applies with its own
 * semantics for that event (a guard event denies); a halt is also `continue: false`. (An ask or a rewrite
 * never gets here: on an event it does not know, the combiner and the reply reader turn them into blocks.)
 */
function forwardAnswer(decision: Decision, warnings: string[]): Answer {
  const out: Record<string, unknown> = {};
  const reason = decision.reason ?? '';
  let blockReason: string | undefined;
  switch (decision.decision) {
    case 'halt':
      Object.assign(out, { continue: false, stopReason: reason });
      blockReason = reason;
      break;
    case 'block':
      blockReason = reason;
      break;
    default:
      break;
  }
  const messages = [...(decision.systemMessages ?? []), ...warnings.map((w) => `agent-hooks: ${w}`)];
  if (messages.length > 0) out.systemMessage = messages.join('\n');
  const stdout = Object.keys(out).length > 0 ? `${JSON.stringify(out)}\n` : '';
  if (blockReason === undefined) return { stdout, stderr: warningLines(warnings), exitCode: 0 };
  // On exit 2 the agent shows stderr as the reason, so it carries the reason alone.
  return { stdout, stderr: `${blockReason}\n`, exitCode: 2 };
}

/** Context, pass-through fields, systemMessage; then the JSON on stdout, and on exit 2 the reason on stderr. */
function finish(
  out: Record<string, unknown>,
  specific: Record<string, unknown>,
  spec: EventSpec,
  decision: Decision,
  warnings: string[],
  exitCode: number,
  reason: string | undefined,
): Answer {
  if (spec.known) {
    if (decision.additionalContext.length > 0 && spec.context) specific.additionalContext = decision.additionalContext.join('\n\n');
    for (const [key, value] of Object.entries(decision.passthrough ?? {})) {
      // A block's `action: "decline"` stands; PermissionRequest's permissions ride inside its decision.
      if (key === 'updatedPermissions' || Object.hasOwn(specific, key)) continue;
      if (spec.blockAs === 'elicitation' && decision.decision === 'block' && key === 'content') continue;
      specific[key] = value;
    }
  }
  const worktreePath = spec.plainStdoutField !== undefined ? specific[spec.plainStdoutField] : undefined;
  if (typeof worktreePath === 'string' && decision.decision !== 'block' && decision.decision !== 'halt') {
    // WorktreeCreate reads the path from plain stdout: no JSON around it, warnings on stderr.
    const messages = [...(decision.systemMessages ?? [])].map((m) => `${m}\n`).join('');
    return { stdout: `${worktreePath}\n`, stderr: messages + warningLines(warnings), exitCode: 0 };
  }
  if (spec.plainStdoutField !== undefined) delete specific[spec.plainStdoutField];
  if (Object.keys(specific).length > 0) out.hookSpecificOutput = { hookEventName: spec.claude, ...specific };
  // The hooks' own messages first, in order, then what the runner has to say.
  const messages = [...(decision.systemMessages ?? []), ...warnings.map((w) => `agent-hooks: ${w}`)];
  if (messages.length > 0) out.systemMessage = messages.join('\n');

  const stdout = Object.keys(out).length > 0 ? `${JSON.stringify(out)}\n` : '';
  const blockReason = exitCode === 2 ? blockText(out, specific) ?? reason ?? '' : undefined;
  // On exit 2 the agent shows stderr as the reason, so it carries the reason alone.
  const stderr = blockReason !== undefined ? `${blockReason}\n` : warningLines(warnings);
  return { stdout, stderr, exitCode };
}

/** One line per hook whose text for the model is over Claude Code's 10,000-character cap on hook output. */
function overClaudeCap(decision: Decision): string[] {
  return decision.results.flatMap((r) => {
    const over = overCap(r.reply);
    if (over.length === 0) return [];
    const what = over.map((o) => `${o.field} (${o.size} characters)`).join(', ');
    return [`hook "${r.id}" gave ${what}, over Claude Code's ${CLAUDE_HOOK_OUTPUT_CAP}-character cap on a hook's output, which the model will not read whole; output-budget's hookOutput option can cut it`];
  });
}

/** A hook of the chain answered allow itself (an allow that also rewrote makes the decision `modify`). */
function explicitlyAllowed(decision: Decision): boolean {
  return decision.results.some((r) => r.failure === undefined && r.reply.decision === 'allow');
}

/** PermissionRequest's `updatedPermissions` ("always allow" rules the hooks asked for), when any. */
function permissionsOf(decision: Decision): { updatedPermissions?: unknown } {
  const permissions = decision.passthrough?.updatedPermissions;
  return Array.isArray(permissions) && permissions.length > 0 ? { updatedPermissions: permissions } : {};
}

function deny(reason: string): Record<string, unknown> {
  return { permissionDecision: 'deny', permissionDecisionReason: reason };
}

function blockText(out: Record<string, unknown>, specific: Record<string, unknown>): string | undefined {
  const text = out.reason ?? specific.permissionDecisionReason;
  return typeof text === 'string' ? text : undefined;
}
