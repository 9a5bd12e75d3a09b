// Combines hook results into one decision, as section 4 of the contract says. Pure: a fold over results.
import type { JudgeNote } from '../judge/judge.js';
import type { HookSource } from '../config/resolve.js';
import { eventSpec } from '../events/catalog.js';
import { canonicalTool } from '../events/tools.js';
import { applyRequestRewrite, applyResponseRewrite, MODEL_REQUEST_KEY, MODEL_RESPONSE_KEY } from '../events/model-request.js';
import { rewrites, type Failure, type Reply } from '../reply/interpret.js';
import { refreshMirror } from '../dialects/mirror.js';
import type { HookEvent, HookInput } from '../types.js';

/** What one hook did. */
export interface HookResult {
  id: string;
  source: HookSource;
  /** The reply that counts: after `onFailure` and audit mode. */
  reply: Reply;
  failure?: Failure;
  /** Audit mode: what the guard would have answered. */
  wouldHave?: Reply;
  ms: number;
  /** A prompt hook's judge: verdict, model, latency, tokens (never the key). */
  judge?: JudgeNote;
}

export type Outcome = 'continue' | 'allow' | 'ask' | 'block' | 'modify' | 'halt';

/** The combined answer for one event. */
export interface Decision {
  decision: Outcome;
  reason?: string;
  /**
   * The reason in Claude Code's own words where no hook gave one: "Blocked by hook", "No stderr output"
   * (exit 2 with empty stderr), or "" for an ask or defer (Claude Code invents none). `reason` then names
   * the hook, for the other dialects and traces. Absent when the reason is a hook's own.
   */
  claudeReason?: string;
  /** The hook whose answer decided a halt, block or ask. */
  decidedBy?: string;
  event: HookEvent;
  /** The rewritten parts, when hooks rewrote them. */
  updatedInput?: Record<string, unknown>;
  prompt?: string;
  /** The new tool output; on a preToolUse block, the result a hook answered the call with. */
  updatedOutput?: { value: unknown };
  /** The model request as hooks left it (beforeModel, beforeToolSelection), when they changed it. */
  updatedRequest?: Record<string, unknown>;
  /** The model response as hooks left it (afterModel), when they changed it. */
  updatedResponse?: Record<string, unknown>;
  /** Context from every hook, in order. */
  additionalContext: string[];
  /** The context Claude Code would deliver, where a hook gave a top-level `additionalContext` (which Claude Code ignores). */
  claudeContext?: string[];
  /** Every hook's `systemMessage` (for the user), in order. */
  systemMessages?: string[];
  /** The event's pass-through fields (see `EventSpec.passthrough`), merged in order: later hooks win, lists are joined. */
  passthrough?: Record<string, unknown>;
  /** On a halt that also denied the call: the deny's own reason, for the model (`reason` is the stopReason). */
  denyReason?: string;
  /** An `ask` that came from `permissionDecision: "defer"` (PreToolUse): agents that can defer do. */
  deferred?: boolean;
  /** Every hook that ran, in run order. */
  results: HookResult[];
  /** Things the caller must hear about: failures, answers the event cannot carry. */
  warnings: string[];
  /** Hooks of this event that did not run, and why. */
  skipped: { id: string; why: string }[];
  /** Every hook of the event in run order, with its batch and what became of it: the explain trace. */
  steps: Step[];
  /** The session's metadata bag after the run (hooks' `metadata` replies merged), when not empty. */
  metadata?: Record<string, unknown>;
}

export interface Step {
  id: string;
  source: HookSource;
  /** 1-based; hooks in one parallel batch share it. Observers have batch 0. */
  batch: number;
  status: 'ran' | 'skipped' | 'not-reached' | 'observer';
  why?: string;
  /** The local-layer entry that changed this hook (e.g. `enabled: false`). */
  overriddenBy?: { layer: string; file: string; key: string; fields: readonly string[] };
  result?: HookResult;
}

export interface ChainState {
  event: HookEvent;
  results: HookResult[];
  halted?: HookResult;
  blocked?: HookResult;
  /**
   * Every block, in order: an observe event delivers all their reasons (Claude Code's Stop does). On an
   * intercepting event, the blocks of the blocking hook's parallel batch, whose reasons stand in for a
   * first block that gave none.
   */
  blocks: HookResult[];
  asked: HookResult[];
  allowed: boolean;
  rewritten: boolean;
  context: string[];
  /** The context as Claude Code would take it (no top-level `additionalContext`), once a reply had one. */
  claudeContext?: string[];
  systemMessages: string[];
  passthrough?: Record<string, unknown>;
  warnings: string[];
}

/** The state before any hook ran. */
export function startChain(event: HookEvent): ChainState {
  return { event, results: [], blocks: [], asked: [], allowed: false, rewritten: false, context: [], systemMessages: [], warnings: [] };
}

/** True once a halt or block has ended the chain. */
export function chainEnded(state: ChainState): boolean {
  return state.halted !== undefined || state.blocked !== undefined;
}

/**
 * Folds one result in. After a block only a halt still counts (halt beats everything), except on an observe
 * event, where every hook has already run: there each later block's reason and each context still count.
 */
export function applyResult(state: ChainState, result: HookResult): ChainState {
  const spec = eventSpec(state.event.name);
  const next: ChainState = {
    ...state,
    results: [...state.results, result],
    context: [...state.context],
    systemMessages: [...state.systemMessages],
    warnings: [...state.warnings],
  };
  if (result.failure !== undefined) {
    const policy = result.reply.decision !== 'block' ? 'continuing' : spec.canBlock ? 'blocking (onFailure: block)' : `onFailure is block, but ${spec.name} cannot block; continuing`;
    next.warnings.push(`hook "${result.id}" failed (${result.failure.kind}: ${result.failure.message}); ${policy}`);
  }
  if (result.wouldHave !== undefined) {
    next.warnings.push(`hook "${result.id}" (audit mode) would have answered ${describe(result.wouldHave)}`);
  }
  let reply = result.reply;
  const renamed = renamedTo(state.event, reply);
  if (renamed !== undefined) {
    // Running the original tool with input meant for another would be neither the hook's wish nor the
    // call the agent made: the call is blocked, naming the rename.
    const why = `hook "${result.id}" renames the tool (${state.event.tool!.name} → ${renamed}), which no agent's answer can carry; the call is blocked instead`;
    if (spec.canBlock) {
      reply = { ...reply, decision: 'block', reason: reply.reason === undefined ? why : `${reply.reason} — ${why}` };
      delete reply.updatedInput;
      result = { ...result, reply };
    } else next.warnings.push(`${why.replace(/; the call is blocked instead$/, '')}; ignored`);
  }
  for (const what of reply.ignored ?? []) next.warnings.push(`hook "${result.id}" answered ${what}; ignored`);
  for (const note of reply.notes ?? []) next.warnings.push(`hook "${result.id}" ${note}`);
  // The user hears every hook that spoke, whatever the chain did after it.
  if (reply.systemMessage !== undefined) next.systemMessages.push(reply.systemMessage);
  if (reply.decision === 'halt' && next.halted === undefined) {
    next.halted = result;
    return next;
  }
  if (next.halted !== undefined) return next;
  const observing = spec.mode === 'observe';
  if (state.blocked !== undefined && !observing) {
    // A hook of the blocking hook's parallel batch: its block changes nothing, but its reason is kept.
    if (reply.decision === 'block' && spec.canBlock) next.blocks = [...next.blocks, result];
    return next;
  }

  if (reply.additionalContext !== undefined) {
    if (spec.context) {
      if (reply.claudeContext !== undefined || next.claudeContext !== undefined) {
        next.claudeContext = [...(next.claudeContext ?? state.context)];
        const claude = reply.claudeContext ?? reply.additionalContext;
        if (claude !== '') next.claudeContext.push(claude);
      }
      next.context.push(reply.additionalContext);
    }
    else next.warnings.push(`hook "${result.id}" added context, which ${spec.known ? `${spec.name} cannot carry` : `${spec.name}, an event agent-hooks does not know, cannot carry`}; dropped`);
  }
  if (reply.passthrough !== undefined) next.passthrough = mergePassthrough(next.passthrough, reply.passthrough);
  switch (reply.decision) {
    case 'block':
      if (spec.canBlock) {
        next.blocked ??= result;
        next.blocks = [...next.blocks, result];
      } else if (result.failure === undefined) next.warnings.push(`hook "${result.id}" answered block, which ${cannot(spec)}; ignored`);
      return next;
    case 'ask':
      if (spec.canAsk) next.asked = [...next.asked, result];
      else if (!spec.known && spec.canBlock) {
        // A newer agent's event cannot carry an ask; letting the call through unconfirmed would fail open.
        const why = `${result.reply.reason === undefined ? `hook "${result.id}" asks for confirmation` : result.reply.reason} (agent-hooks cannot ask on ${spec.name}, an event it does not know yet, so it blocks instead)`;
        const asBlock: HookResult = { ...result, reply: { ...result.reply, decision: 'block', reason: why } };
        next.blocked ??= asBlock;
        next.blocks = [...next.blocks, asBlock];
        return next;
      } else next.warnings.push(`hook "${result.id}" answered ask, which ${cannot(spec)}; ignored`);
      break;
    case 'allow':
      next.allowed = true;
      break;
    default:
      break;
  }
  if (rewrites(reply) && next.blocked === undefined) {
    next.event = rewrite(next.event, reply);
    next.rewritten = true;
  }
  return next;
}

/** The final decision: halt, then block, then ask, then modify, then allow, then continue. */
export function finishChain(state: ChainState, original: HookEvent): Decision {
  const spec = eventSpec(original.name);
  const base = {
    event: state.event,
    additionalContext: state.context,
    ...(state.claudeContext === undefined ? {} : { claudeContext: state.claudeContext }),
    systemMessages: state.systemMessages,
    ...(state.passthrough === undefined ? {} : { passthrough: state.passthrough }),
    results: state.results,
    warnings: state.warnings,
    skipped: [],
    steps: [],
  };
  const decided = (decision: Outcome, by: HookResult, fallback: string): Decision => ({
    ...base,
    decision,
    decidedBy: by.id,
    reason: by.reply.reason ?? fallback,
  });
  if (state.halted !== undefined) {
    const halted = decided('halt', state.halted, `halted by hook "${state.halted.id}"`);
    return state.halted.reply.denyReason === undefined ? halted : { ...halted, denyReason: state.halted.reply.denyReason };
  }
  if (state.blocked !== undefined) {
    const blocked = decided('block', state.blocked, `blocked by hook "${state.blocked.id}"`);
    if (spec.mode === 'observe' && state.blocks.length > 1) {
      // Several blocks of an observe event (Stop): every reason is delivered, in order.
      blocked.reason = [...new Set(state.blocks.map((r) => r.reply.reason ?? `blocked by hook "${r.id}"`))].join('\n\n');
      const claude = [...new Set(state.blocks.map((r) => r.reply.reason ?? standIn(r)))].join('\n\n');
      if (claude !== blocked.reason) blocked.claudeReason = claude;
    } else if (state.blocked.reply.reason === undefined) {
      // The first block gave no reason: a later block of its batch that gave one says why.
      const later = state.blocks.find((r) => r.reply.reason !== undefined)?.reply.reason;
      if (later !== undefined) blocked.reason = later;
      else blocked.claudeReason = standIn(state.blocked);
    }
    // A hook that answered the call itself (an MCP result before the tool ran): dialects that can pass a result on do.
    const answer = state.blocked.reply.updatedOutput;
    if (spec.name === 'preToolUse' && answer !== undefined && state.blocked.failure === undefined) return { ...blocked, updatedOutput: answer };
    // A response in place of the model's (beforeModel): dialects that can hand it to the agent do.
    const synthetic = state.blocked.reply.updatedResponse;
    return spec.name === 'beforeModel' && synthetic !== undefined && state.blocked.failure === undefined ? { ...blocked, updatedResponse: synthetic } : blocked;
  }

  const decision: Decision = { ...base, decision: 'continue' };
  if (state.rewritten) Object.assign(decision, rewrittenParts(state.event.payload, original.payload, spec.rewrites));
  if (state.asked.length > 0) {
    // Claude Code's order: deny, then defer, then ask.
    const deferred = state.asked.filter((r) => r.reply.defer === true);
    const first = deferred[0] ?? state.asked[0]!;
    decision.decision = 'ask';
    if (deferred.length > 0) decision.deferred = true;
    decision.decidedBy = first.id;
    const given = state.asked.map((r) => r.reply.reason).filter(Boolean).join('; ');
    decision.reason = given || `hook "${first.id}" asks for confirmation`;
    if (given === '') decision.claudeReason = '';
  } else if (state.rewritten) {
    decision.decision = 'modify';
  } else if (state.allowed) {
    decision.decision = 'allow';
  }
  if (decision.decision === 'modify' || decision.decision === 'allow') {
    const reasons = state.results.map((r) => r.reply.reason).filter(Boolean);
    if (reasons.length > 0) decision.reason = reasons.join('; ');
  }
  return decision;
}

/** A reply in a few words, for warnings: `block: reason`. */
export function describe(reply: Reply): string {
  const what = outcomeOf(reply);
  return reply.reason === undefined ? what : `${what}: ${reply.reason}`;
}

/** The outcome word of one hook's reply, as traces and the native dialect show it. */
export function outcomeOf(reply: Reply): Outcome {
  if ((reply.decision === 'continue' || reply.decision === 'allow') && rewrites(reply)) return 'modify';
  return reply.decision;
}

// --- internal ---

/** Claude Code's words for a block without a reason. */
function standIn(result: HookResult): string {
  return result.reply.noStderr === true ? 'No stderr output' : 'Blocked by hook';
}

/** The other tool a reply names, or undefined when it names none or the call's own (any spelling). */
function renamedTo(event: HookEvent, reply: Reply): string | undefined {
  const to = reply.toolName;
  if (to === undefined || event.tool === undefined || reply.decision === 'block' || reply.decision === 'halt') return undefined;
  if (to === event.tool.name || canonicalTool(to) === event.tool.canonical) return undefined;
  return to;
}

function cannot(spec: ReturnType<typeof eventSpec>): string {
  return spec.known ? `${spec.name} cannot do` : `${spec.name}, an event agent-hooks does not know, cannot do`;
}

/** Later values win; lists (watchPaths, updatedPermissions) are joined. */
function mergePassthrough(into: Record<string, unknown> | undefined, from: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const before = out[key];
    out[key] = Array.isArray(before) && Array.isArray(value) ? [...before, ...value.filter((v) => !before.some((b) => JSON.stringify(b) === JSON.stringify(v)))] : value;
  }
  return out;
}

function rewrite(event: HookEvent, reply: Reply): HookEvent {
  const payload: HookInput = { ...event.payload };
  if (reply.updatedInput !== undefined) payload.tool_input = reply.updatedInput;
  if (reply.prompt !== undefined) payload.prompt = reply.prompt;
  if (reply.updatedOutput !== undefined) payload.tool_response = reply.updatedOutput.value;
  if (reply.updatedRequest !== undefined) payload[MODEL_REQUEST_KEY] = applyRequestRewrite(payload[MODEL_REQUEST_KEY], reply.updatedRequest);
  if (reply.updatedResponse !== undefined) payload[MODEL_RESPONSE_KEY] = applyResponseRewrite(payload[MODEL_RESPONSE_KEY], reply.updatedResponse);
  return refreshMirror({ ...event, payload });
}

function rewrittenParts(
  payload: HookInput,
  original: HookInput,
  field: 'updatedInput' | 'prompt' | 'updatedOutput' | 'updatedRequest' | 'updatedResponse' | undefined,
): Partial<Decision> {
  switch (field) {
    case 'updatedInput':
      return payload.tool_input === original.tool_input ? {} : { updatedInput: payload.tool_input ?? {} };
    case 'prompt':
      return payload.prompt === original.prompt ? {} : { prompt: payload.prompt ?? '' };
    case 'updatedOutput':
      return payload.tool_response === original.tool_response ? {} : { updatedOutput: { value: payload.tool_response } };
    case 'updatedRequest':
      return payload[MODEL_REQUEST_KEY] === original[MODEL_REQUEST_KEY] ? {} : { updatedRequest: payload[MODEL_REQUEST_KEY] as Record<string, unknown> };
    case 'updatedResponse':
      return payload[MODEL_RESPONSE_KEY] === original[MODEL_RESPONSE_KEY] ? {} : { updatedResponse: payload[MODEL_RESPONSE_KEY] as Record<string, unknown> };
    default:
      return {};
  }
}
