// The oracle: what Claude Code 2.1.328 makes of its hooks' replies, event by event. It reads one hook run
// (exit code, stdout, stderr, timed out) the way Claude Code's hook executor does, then combines the runs of one
// event the way Claude Code applies them. Both sides of the fidelity comparison (the scripts run natively, and
// `hooks run --dialect claude-code` standing in for them) are judged by this one module, so a difference between
// the two is a difference in what the user and the model would get.
//
// Sources (cited by function name: the CLI is a minified bundle, names are stable within 2.1.328):
// - the bundle inside @anthropic-ai/claude-code-linux-x64@2.1.328/claude:
//   `XQ` (stdout parsing: `{`-check, JSON.parse, schema, "several JSON documents", text that is not an object),
//   `gSo` + `cO` (the reply schema: `decision` only "approve" | "block"; `hookSpecificOutput` a union keyed by
//   `hookEventName`, one variant per event), `tne` (the reading of a parsed reply: `continue`, `decision`,
//   `systemMessage`, the PreToolUse `permissionDecision`, the per-event `hookSpecificOutput` fields, and the
//   "Hook returned incorrect event name" error), `PUo` (a `decision: "block"` whose hookSpecificOutput names
//   another event keeps the block and drops the hookSpecificOutput), and the per-hook branch after `XQ(ol)` in the
//   executor (exit 2 + JSON: the JSON's blocking reason wins, else stderr; schema-invalid JSON + exit 2 still
//   blocks; other exit codes + a valid object: the JSON decides; exit 0 text: success).
// - Claude Code's hooks reference (docs mirror thevibeworks/claude-code-docs @3f1ef7c, v2.1.240, summarised in
//   the project's reference notes, sections 1.7-1.9): which events an exit 2 / block affects, where plain stdout
//   is context, combining (deny > defer > ask > allow; every additionalContext delivered).
// - Seen with the real 2.1.328 (issue 11, docs/agents.md): `continue: false` is ignored on PreCompact; a halt
//   alone on PreToolUse does not stop the tool.
// - PreSkillShellCommand (2.1.332, before a skill's inline `!`shell`` command; a tool payload): read like
//   PreToolUse (its hookSpecificOutput takes permissionDecision and its reason; no rewrite). Exit 2 stops the
//   command with the reason reaching the model, natively and through agent-hooks alike: proven with the real CLI
//   in test/e2e/claude-skill-shell.e2e.test.ts.

/** One hook process as Claude Code (or the test) saw it finish. */
export interface HookRun {
  /** The command, as Claude Code names the hook in a blocking error (`[command]: stderr`). */
  command: string;
  /** Exit code; null when the process was killed (timeout, signal). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export type PermissionBehavior = 'allow' | 'deny' | 'ask' | 'defer';

/** What Claude Code takes from one hook run. */
export interface HookReading {
  outcome: 'success' | 'blocking' | 'non-blocking-error' | 'cancelled';
  /** The blocking error's text (without Claude's `[command]: ` prefix). */
  blockingError?: string;
  permissionBehavior?: PermissionBehavior;
  permissionDecisionReason?: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  /** Plain (non-JSON) stdout of a successful run. */
  plainText?: string;
  systemMessage?: string;
  preventContinuation?: boolean;
  stopReason?: string;
  updatedToolOutput?: unknown;
  permissionRequestResult?: { behavior: 'allow' | 'deny'; updatedInput?: Record<string, unknown>; updatedPermissions?: unknown; message?: string; interrupt?: boolean };
  retry?: boolean;
  elicitationAction?: string;
  /** Why the run was a non-blocking error (the "hook error" notice the user sees). */
  error?: string;
}

/** What one event ends with, after every matching hook ran. Compared field by field. */
export interface Effect {
  /**
   * The event's action is refused: the tool call (PreToolUse), the prompt (UserPromptSubmit), compaction
   * (PreCompact), ... For Stop / SubagentStop / TeammateIdle: the agent does not stop, it goes on.
   */
  blocked: boolean;
  /** The block reasons Claude Code delivers (every hook's, in order). */
  reasons: string[];
  /** PostToolUse / PostToolUseFailure: a block there is feedback to the model, the tool already ran. */
  feedback: string[];
  /** PreToolUse (and PreModelSwitch): the permission outcome after combining. */
  permission?: PermissionBehavior;
  updatedInput?: Record<string, unknown>;
  /** PermissionRequest: the decision Claude Code applies instead of asking the user. */
  permissionRequest?: { behavior: 'allow' | 'deny'; updatedInput?: Record<string, unknown>; message?: string };
  /** Text added to the model's context (additionalContext, or plain stdout where that is context). */
  context: string[];
  /** Messages shown to the user. */
  systemMessages: string[];
  /** `continue: false` where Claude Code applies it: the session stops. */
  halt: boolean;
  stopReason?: string;
  updatedToolOutput?: unknown;
  retry?: boolean;
  elicitationAction?: string;
  /** Stop / SubagentStop: the turn goes on (a block, or additionalContext). */
  continues?: boolean;
  /** How many runs were non-blocking errors (the "hook error" notice). Shown, not compared. */
  errors: number;
}

/** Claude Code's 34 events (2.1.328, and 2.1.332's PreSkillShellCommand). */
export const CLAUDE_EVENTS = [
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'UserPromptSubmit', 'UserPromptExpansion',
  'SessionStart', 'SessionEnd', 'Stop', 'StopFailure', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact',
  'PermissionRequest', 'PermissionDenied', 'Setup', 'TeammateIdle', 'TaskCreated', 'TaskCompleted', 'Elicitation',
  'ElicitationResult', 'ConfigChange', 'DirectoryAdded', 'WorktreeCreate', 'WorktreeRemove', 'InstructionsLoaded',
  'CwdChanged', 'FileChanged', 'MessageDisplay', 'PreModelSwitch', 'PostModelSwitch', 'PreSkillShellCommand',
] as const;

/** Events where an exit 2 / blocking error refuses the action (reference 1.7, "blocks"). */
const BLOCKING = new Set(['PreToolUse', 'UserPromptSubmit', 'UserPromptExpansion', 'Stop', 'SubagentStop', 'TeammateIdle', 'TaskCreated', 'TaskCompleted', 'ConfigChange', 'PostToolBatch', 'PreCompact', 'Elicitation', 'ElicitationResult', 'WorktreeCreate', 'PreModelSwitch', 'PreSkillShellCommand']);
/** Events where a blocking error is feedback to the model after the fact. */
const FEEDBACK = new Set(['PostToolUse', 'PostToolUseFailure']);
/** Events whose plain stdout (exit 0) becomes context. */
const PLAIN_IS_CONTEXT = new Set(['UserPromptSubmit', 'UserPromptExpansion', 'SessionStart']);
/**
 * Events whose `continue: false` Claude Code does not apply: PreCompact (real CLI, issue 11), TaskCreated (reference
 * 1.8), SessionEnd (output discarded), InstructionsLoaded (karanb192/claude-code-hooks instructions-audit.js: "current
 * Claude Code builds ignore even the universal continue:false on this event", verified live by its author).
 */
const HALT_IGNORED = new Set(['PreCompact', 'TaskCreated', 'SessionEnd', 'InstructionsLoaded']);
/** Events whose output Claude Code discards (reference 1.8: "SessionEnd: no control, output discarded"). */
const OUTPUT_DISCARDED = new Set(['SessionEnd']);

/** The `hookSpecificOutput` variants of the schema `cO`: allowed fields and their checks. */
const isStr = (v: unknown) => typeof v === 'string';
const isBool = (v: unknown) => typeof v === 'boolean';
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrArr = (v: unknown) => Array.isArray(v) && v.every(isStr);
const oneOf = (...vs: string[]) => (v: unknown) => typeof v === 'string' && vs.includes(v);
const permissionDecisionOk = (v: unknown) => isObj(v) && ((v.behavior === 'allow' && (v.updatedInput === undefined || isObj(v.updatedInput))) || (v.behavior === 'deny' && (v.message === undefined || isStr(v.message)) && (v.interrupt === undefined || isBool(v.interrupt))));
const VARIANTS: Record<string, Record<string, (v: unknown) => boolean>> = {
  PreToolUse: { permissionDecision: oneOf('allow', 'deny', 'ask', 'defer'), permissionDecisionReason: isStr, updatedInput: isObj, additionalContext: isStr, permissionDisplay: () => true },
  UserPromptSubmit: { additionalContext: isStr, sessionTitle: isStr, suppressOriginalPrompt: isBool },
  UserPromptExpansion: { additionalContext: isStr, suppressOriginalPrompt: isBool },
  SessionStart: { additionalContext: isStr, initialUserMessage: isStr, sessionTitle: isStr, watchPaths: isStrArr, reloadSkills: isBool },
  Setup: { additionalContext: isStr },
  PreModelSwitch: { permissionDecision: oneOf('allow', 'deny', 'ask'), permissionDecisionReason: isStr },
  PreSkillShellCommand: { permissionDecision: oneOf('allow', 'deny', 'ask', 'defer'), permissionDecisionReason: isStr },
  PostModelSwitch: { additionalContext: isStr },
  SubagentStart: { additionalContext: isStr },
  PostToolUse: { additionalContext: isStr, classifierContext: isStr, updatedToolOutput: () => true, updatedMCPToolOutput: () => true },
  PostToolUseFailure: { additionalContext: isStr },
  PostToolBatch: { additionalContext: isStr },
  Stop: { additionalContext: isStr },
  SubagentStop: { additionalContext: isStr },
  PermissionDenied: { retry: isBool },
  PermissionRequest: { decision: permissionDecisionOk },
  Elicitation: { action: oneOf('accept', 'decline', 'cancel'), content: isObj },
  ElicitationResult: { action: oneOf('accept', 'decline', 'cancel'), content: isObj },
  CwdChanged: { watchPaths: isStrArr },
  FileChanged: { watchPaths: isStrArr },
  WorktreeCreate: { worktreePath: isStr },
  MessageDisplay: { displayContent: isStr },
};

/** `gSo`/`cO`: null when the object fits the reply schema, else why not. Unknown keys are stripped (zod objects). */
export function schemaError(json: unknown): string | null {
  if (!isObj(json)) return 'not an object';
  if (json.async === true) return null;
  const checks: Record<string, (v: unknown) => boolean> = { continue: isBool, suppressOutput: isBool, stopReason: isStr, decision: oneOf('approve', 'block'), reason: isStr, systemMessage: isStr, terminalSequence: isStr };
  for (const [key, ok] of Object.entries(checks)) if (json[key] !== undefined && !ok(json[key])) return `${key}: invalid`;
  const hso = json.hookSpecificOutput;
  if (hso === undefined) return null;
  if (!isObj(hso)) return 'hookSpecificOutput: not an object';
  const variant = typeof hso.hookEventName === 'string' ? VARIANTS[hso.hookEventName] : undefined;
  if (variant === undefined) return 'hookSpecificOutput.hookEventName: no such variant';
  for (const [key, ok] of Object.entries(variant)) if (hso[key] !== undefined && !ok(hso[key])) return `hookSpecificOutput.${key}: invalid`;
  if (hso.hookEventName === 'WorktreeCreate' && !isStr(hso.worktreePath)) return 'hookSpecificOutput.worktreePath: required';
  return null;
}

/** `XQ`: how Claude Code parses a hook's stdout. */
export function parseStdout(stdout: string): { json?: Record<string, unknown>; plainText?: string; validationError?: string } {
  const trimmed = stdout.trim();
  if (!trimmed.startsWith('{')) return { plainText: stdout };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch (error) {
    if (!trimmed.endsWith('}')) return { plainText: stdout };
    const lines = trimmed.split('\n').filter((l) => l.trim() !== '');
    if (lines.length >= 2 && lines.every((l) => { try { JSON.parse(l); return true; } catch { return false; } })) return { plainText: stdout };
    return { plainText: stdout, validationError: `not valid JSON: ${(error as Error).message}` };
  }
  const problem = schemaError(parsed);
  if (problem !== null) return { plainText: stdout, validationError: problem };
  return { json: parsed as Record<string, unknown> };
}

/** One hook run, read as Claude Code's executor reads it for `event`. */
export function readRun(event: string, run: HookRun): HookReading {
  // A timed-out hook is cancelled: output discarded, no decision (reference 1.7 "Timeout").
  if (run.timedOut || run.exitCode === null) return { outcome: 'cancelled' };
  const status = run.exitCode;
  const { json, validationError } = parseStdout(run.stdout);
  if (validationError !== undefined) {
    // Schema-invalid JSON with exit 2 still blocks, with stderr (>= 2.1.214); otherwise a non-blocking error.
    if (status === 2) return { outcome: 'blocking', blockingError: run.stderr || 'No stderr output' };
    return { outcome: 'non-blocking-error', error: validationError };
  }
  if (json !== undefined) {
    if (json.async === true) return { outcome: 'success' };
    let reading: HookReading;
    try {
      reading = readJson(event, json);
    } catch (error) {
      // `tne` throws on a hookSpecificOutput naming another event: the hook's reply is an error, nothing of it applies.
      return { outcome: 'non-blocking-error', error: (error as Error).message };
    }
    if (status === 2 && reading.blockingError === undefined) reading.blockingError = run.stderr || 'No stderr output';
    reading.outcome = reading.blockingError !== undefined ? 'blocking' : 'success';
    return reading;
  }
  if (status === 0) return { outcome: 'success', ...(run.stdout.trim() !== '' && { plainText: run.stdout.trim() }) };
  if (status === 2) return { outcome: 'blocking', blockingError: run.stderr || 'No stderr output' };
  return { outcome: 'non-blocking-error', error: `exit ${status}: ${run.stderr.split('\n')[0] ?? ''}` };
}

/** `tne`: a schema-valid JSON reply. */
function readJson(event: string, parsed: Record<string, unknown>): HookReading {
  const r: HookReading = { outcome: 'success' };
  let json = parsed;
  // `PUo`: a block whose hookSpecificOutput names another event keeps the block, drops the hookSpecificOutput.
  if (event !== 'PermissionRequest' && json.decision === 'block' && isObj(json.hookSpecificOutput) && json.hookSpecificOutput.hookEventName !== event) {
    const { hookSpecificOutput: _dropped, ...rest } = json;
    json = rest;
  }
  if (json.continue === false) {
    r.preventContinuation = true;
    if (isStr(json.stopReason)) r.stopReason = json.stopReason as string;
  }
  const reason = isStr(json.reason) ? (json.reason as string) : undefined;
  if (json.decision === 'approve') r.permissionBehavior = 'allow';
  if (json.decision === 'block') {
    r.permissionBehavior = 'deny';
    r.blockingError = reason || 'Blocked by hook';
  }
  if (isStr(json.systemMessage) && json.systemMessage !== '') r.systemMessage = json.systemMessage as string;
  const hso = isObj(json.hookSpecificOutput) ? json.hookSpecificOutput : undefined;
  if (hso === undefined) return r;
  if (hso.hookEventName !== event) throw new Error(`Hook returned incorrect event name: expected '${event}' but got '${String(hso.hookEventName)}'`);
  const ctx = isStr(hso.additionalContext) && hso.additionalContext !== '' ? (hso.additionalContext as string) : undefined;
  switch (event) {
    case 'PreToolUse': {
      const pd = hso.permissionDecision as PermissionBehavior | undefined;
      if (pd !== undefined) r.permissionBehavior = pd;
      if (pd === 'deny') r.blockingError = (hso.permissionDecisionReason as string) || reason || 'Blocked by hook';
      if (isStr(hso.permissionDecisionReason)) r.permissionDecisionReason = hso.permissionDecisionReason as string;
      if (isObj(hso.updatedInput)) r.updatedInput = hso.updatedInput;
      r.additionalContext = ctx;
      break;
    }
    case 'PreModelSwitch':
    case 'PreSkillShellCommand': {
      const pd = hso.permissionDecision as PermissionBehavior | undefined;
      if (pd !== undefined) r.permissionBehavior = pd;
      if (pd === 'deny') r.blockingError = (hso.permissionDecisionReason as string) || reason || 'Blocked by hook';
      break;
    }
    case 'PostToolUse':
      r.additionalContext = ctx;
      if (hso.updatedToolOutput !== undefined) r.updatedToolOutput = hso.updatedToolOutput;
      break;
    case 'PermissionDenied':
      if (isBool(hso.retry)) r.retry = hso.retry as boolean;
      break;
    case 'PermissionRequest':
      if (isObj(hso.decision)) {
        const d = hso.decision as NonNullable<HookReading['permissionRequestResult']>;
        r.permissionRequestResult = d;
        r.permissionBehavior = d.behavior === 'allow' ? 'allow' : 'deny';
        if (d.behavior === 'allow' && isObj(d.updatedInput)) r.updatedInput = d.updatedInput;
      }
      break;
    case 'Elicitation':
    case 'ElicitationResult':
      if (isStr(hso.action)) {
        r.elicitationAction = hso.action as string;
        if (hso.action === 'decline') r.blockingError = reason || 'Elicitation denied by hook';
      }
      break;
    default:
      r.additionalContext = ctx;
  }
  return r;
}

const PERMISSION_RANK: Record<PermissionBehavior, number> = { deny: 4, defer: 3, ask: 2, allow: 1 };
/** Events whose replies combine into one permission outcome (deny > defer > ask > allow). */
const PERMISSION_EVENTS = new Set(['PreToolUse', 'PreModelSwitch', 'PreSkillShellCommand']);
/** Events where an exit 2 is a deny, and a deny blocks: the tool call, or the skill's shell command. */
const DENY_BLOCKS = new Set(['PreToolUse', 'PreSkillShellCommand']);

/** The event's outcome once every run was read (reference 1.9; runs in the order they were configured). */
export function combine(event: string, runs: HookRun[], payload: Record<string, unknown> = {}): Effect {
  const readings = runs.map((run) => readRun(event, run));
  const effect: Effect = { blocked: false, reasons: [], feedback: [], context: [], systemMessages: [], halt: false, errors: 0 };
  const discarded = OUTPUT_DISCARDED.has(event);
  for (const r of readings) {
    // A timed-out hook is reported to the user too (Claude's `hook_cancelled` message with `timedOut`).
    if (r.outcome === 'non-blocking-error' || r.outcome === 'cancelled') effect.errors += 1;
    if (r.outcome === 'cancelled' || discarded) continue;
    if (r.blockingError !== undefined) {
      // ConfigChange from policy settings cannot be blocked (reference 1.7).
      if (BLOCKING.has(event) && !(event === 'ConfigChange' && payload.source === 'policy_settings')) {
        effect.blocked = true;
        effect.reasons.push(r.blockingError.trim());
      } else if (FEEDBACK.has(event)) {
        effect.feedback.push(r.blockingError.trim());
      } else {
        // Events an exit 2 cannot block: Claude Code shows the stderr to the user (reference 1.7), a notice.
        effect.errors += 1;
      }
    }
    if (PERMISSION_EVENTS.has(event) && r.permissionBehavior !== undefined) {
      if (effect.permission === undefined || PERMISSION_RANK[r.permissionBehavior] > PERMISSION_RANK[effect.permission]) effect.permission = r.permissionBehavior;
    }
    // Several rewrites: Claude Code applies the last to finish; the comparison runs one rewriting hook per event.
    if (event === 'PreToolUse' && r.updatedInput !== undefined) effect.updatedInput = r.updatedInput;
    if (event === 'PermissionRequest' && r.permissionRequestResult !== undefined) {
      const d = r.permissionRequestResult;
      if (effect.permissionRequest === undefined || d.behavior === 'deny') {
        effect.permissionRequest = { behavior: d.behavior, ...(d.behavior === 'allow' && isObj(d.updatedInput) && { updatedInput: d.updatedInput }), ...(d.behavior === 'deny' && isStr(d.message) && { message: d.message }) };
      }
    }
    if (r.additionalContext !== undefined) effect.context.push(r.additionalContext.trim());
    if (r.plainText !== undefined && r.outcome === 'success' && PLAIN_IS_CONTEXT.has(event)) effect.context.push(r.plainText.trim());
    if (r.systemMessage !== undefined) effect.systemMessages.push(r.systemMessage.trim());
    if (r.preventContinuation === true && !HALT_IGNORED.has(event)) {
      effect.halt = true;
      if (r.stopReason !== undefined && effect.stopReason === undefined) effect.stopReason = r.stopReason;
    }
    if (event === 'PostToolUse' && r.updatedToolOutput !== undefined) effect.updatedToolOutput = r.updatedToolOutput;
    if (event === 'PermissionDenied' && r.retry !== undefined) effect.retry = r.retry;
    if ((event === 'Elicitation' || event === 'ElicitationResult') && r.elicitationAction !== undefined) effect.elicitationAction = r.elicitationAction;
  }
  // A deny blocks; the blocked flag on PreToolUse is the deny (exit 2 is a deny too).
  if (DENY_BLOCKS.has(event) && effect.blocked) effect.permission = 'deny';
  if (DENY_BLOCKS.has(event) && effect.permission === 'deny') effect.blocked = true;
  // A rewrite of a call that is refused or deferred changes nothing.
  if (event === 'PreToolUse' && (effect.permission === 'deny' || effect.permission === 'defer')) delete effect.updatedInput;
  if (event === 'Stop' || event === 'SubagentStop') effect.continues = effect.blocked || effect.context.length > 0;
  return effect;
}

/** Claude Code's default timeout for a command hook on `event`, in seconds (reference 1.4). */
export function defaultTimeoutSeconds(event: string): number {
  if (event === 'UserPromptSubmit' || event === 'PreModelSwitch' || event === 'PostModelSwitch') return 30;
  if (event === 'MessageDisplay') return 10;
  return 600;
}

/** The tool name (or other value) an event's matcher is tested against (reference 1.3). */
export function matcherSubject(event: string, payload: Record<string, unknown>): string | undefined {
  switch (event) {
    case 'PreToolUse': case 'PostToolUse': case 'PostToolUseFailure': case 'PermissionRequest': case 'PermissionDenied': case 'PreSkillShellCommand':
      return payload.tool_name as string | undefined;
    case 'SessionStart': case 'ConfigChange': case 'DirectoryAdded': return payload.source as string | undefined;
    case 'Setup': case 'PreCompact': case 'PostCompact': return payload.trigger as string | undefined;
    case 'SessionEnd': return payload.reason as string | undefined;
    case 'Notification': return payload.notification_type as string | undefined;
    case 'SubagentStart': case 'SubagentStop': return payload.agent_type as string | undefined;
    case 'StopFailure': return payload.error as string | undefined;
    case 'InstructionsLoaded': return payload.load_reason as string | undefined;
    case 'UserPromptExpansion': return payload.command_name as string | undefined;
    case 'Elicitation': case 'ElicitationResult': return payload.mcp_server_name as string | undefined;
    case 'FileChanged': return payload.file_path as string | undefined;
    case 'PreModelSwitch': case 'PostModelSwitch': return payload.to_model as string | undefined;
    default: return undefined;
  }
}

/** Events whose matcher Claude Code ignores. */
const NO_MATCHER = new Set(['UserPromptSubmit', 'PostToolBatch', 'Stop', 'TeammateIdle', 'TaskCreated', 'TaskCompleted', 'WorktreeCreate', 'WorktreeRemove', 'MessageDisplay', 'CwdChanged']);

/** Claude Code's matcher test (reference 1.3): empty/`*` all; letters/digits/_/-/space/,/| exact names; else an unanchored RegExp. */
export function matcherMatches(event: string, matcher: string | undefined, payload: Record<string, unknown>): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*' || NO_MATCHER.has(event)) return true;
  const subject = matcherSubject(event, payload);
  if (subject === undefined) return true;
  if (event === 'FileChanged') return matcher.split('|').some((name) => subject.endsWith(`/${name}`) || subject === name);
  if (/^[a-zA-Z0-9_|, -]+$/.test(matcher)) return matcher.split(/[|,]/).map((s) => s.trim()).filter(Boolean).includes(subject);
  try {
    return new RegExp(matcher).test(subject);
  } catch {
    return false;
  }
}

/** A one-line description of an effect, for the summary table. */
export function describe(e: Effect): string {
  const parts: string[] = [];
  if (e.blocked) parts.push(`blocked(${e.reasons.map((r) => JSON.stringify(r.slice(0, 40))).join(',')})`);
  if (e.permission) parts.push(`permission=${e.permission}`);
  if (e.updatedInput) parts.push(`updatedInput=${JSON.stringify(e.updatedInput)}`);
  if (e.permissionRequest) parts.push(`permissionRequest=${JSON.stringify(e.permissionRequest)}`);
  if (e.feedback.length) parts.push(`feedback(${e.feedback.length})`);
  if (e.context.length) parts.push(`context(${e.context.length})`);
  if (e.systemMessages.length) parts.push(`systemMessage(${e.systemMessages.length})`);
  if (e.halt) parts.push('halt');
  if (e.updatedToolOutput !== undefined) parts.push('updatedToolOutput');
  if (e.retry !== undefined) parts.push(`retry=${e.retry}`);
  if (e.elicitationAction) parts.push(`elicitation=${e.elicitationAction}`);
  if (e.continues) parts.push('continues');
  if (e.errors) parts.push(`errors=${e.errors}`);
  return parts.length ? parts.join(' ') : 'nothing';
}
