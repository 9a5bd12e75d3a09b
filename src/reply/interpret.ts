// Reads one hook's answer (exit code + stdout + stderr, or a handler's return value) as a reply or a failure.
// Pure: the same input always gives the same reading.
import { constants } from 'node:os';
import { findEvent, type EventSpec } from '../events/catalog.js';
import { resultReply, resultText } from '../dialects/mcp-result.js';
import { readRequestRewrite, readResponseRewrite } from '../events/model-request.js';
import { EVENT_LIMITS, isRecord, nestsDeeperThan } from '../json.js';

/** One hook's answer, normalized. A rewrite rides along any non-blocking decision. */
export interface Reply {
  decision: 'continue' | 'allow' | 'ask' | 'block' | 'halt';
  reason?: string;
  updatedInput?: Record<string, unknown>;
  prompt?: string;
  /**
   * Present (even when the new output is `null`) when the hook replaced the tool output. On a preToolUse
   * block it is the result the hook answered the call with (an MCP `CallToolResult` reply).
   */
  updatedOutput?: { value: unknown };
  /** The model-request fields a hook changed (beforeModel, beforeToolSelection). */
  updatedRequest?: Record<string, unknown>;
  /** The model-response fields a hook changed (afterModel). */
  updatedResponse?: Record<string, unknown>;
  additionalContext?: string;
  /** On a halt that also denied the call: the deny's own reason (the halt's `reason` is its stopReason). */
  denyReason?: string;
  /** `permissionDecision: "defer"` (PreToolUse): with decision `ask`, so an agent that cannot defer asks. */
  defer?: true;
  /** Shown to the user (Claude Code's `systemMessage`); every hook's is kept, in order. */
  systemMessage?: string;
  /** `hookSpecificOutput` fields the event passes on unread (see `EventSpec.passthrough`), and PermissionRequest's `updatedPermissions`. */
  passthrough?: Record<string, unknown>;
  /** Parts of the reply the event ignores, as Claude Code does: said in warnings, never acted on. */
  ignored?: string[];
  /**
   * Present when the reply had a top-level `additionalContext`: the context Claude Code would deliver,
   * which reads only `hookSpecificOutput.additionalContext` ("" for none). `additionalContext` has both.
   */
  claudeContext?: string;
  /** Exit 2 with nothing on stderr and no blocking reason in a JSON reply: Claude Code's reason is then "No stderr output". */
  noStderr?: true;
  /** Other things the user must hear about this reply (one line each). */
  notes?: string[];
  /** Keys for the session's metadata bag (a `null` value removes the key); see src/metadata. */
  metadata?: Record<string, unknown>;
  /** What a hook that exited 0 wrote to stderr (trimmed, capped as a reason is): a log, not an answer. */
  stderr?: string;
  /** A `tool_name` in a preToolUse reply (ai4j's rename); the chain compares it with the call's tool. */
  toolName?: string;
}

export type FailureKind =
  | 'not-found'
  | 'timeout'
  | 'signal'
  | `exit-${number}`
  | 'invalid-json'
  | 'invalid-encoding'
  | 'text-before-json'
  | 'output-too-large'
  /** A judge model's answer that is not a verdict (src/judge/verdict.ts). */
  | 'bad-reply'
  /** The session's judge requests are spent (src/judge/budget.ts). */
  | 'over-budget'
  /** An agent hook's verifier used its turns without answering (src/judge/agent/loop.ts). */
  | 'max-turns'
  | 'error';

export interface Failure {
  kind: FailureKind;
  /** One line: what went wrong, for traces, warnings and block reasons. */
  message: string;
}

export type Reading = { ok: true; reply: Reply } | { ok: false; failure: Failure };

/** How a process hook ended, as the process runner saw it. */
export type ProcessEnd =
  | {
      kind: 'exited';
      exitCode: number;
      /** Raw bytes as the hook wrote them (a string is taken as already decoded). */
      stdout: string | Uint8Array;
      stderr: string | Uint8Array;
      /** Bytes of stderr read past the limit and dropped. */
      stderrDropped?: number;
      /** Bytes of stdout past the limit (only with exit 2: any other exit is `too-large`). */
      stdoutDropped?: number;
    }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'signal'; signal: string; stderr: string }
  | { kind: 'not-found'; message: string }
  | { kind: 'too-large'; stream: 'stdout' | 'stderr'; limit: number }
  | { kind: 'cancelled' };

/** Reads a process hook's end as section 3 of the contract says. */
export function readProcessEnd(end: ProcessEnd, event: EventSpec): Reading {
  switch (end.kind) {
    case 'timeout':
      return failed('timeout', `timed out after ${formatSeconds(end.timeoutMs)}`);
    case 'signal':
      return failed('signal', `killed by ${end.signal}${tail(end.stderr)}`);
    case 'not-found':
      return failed('not-found', end.message);
    case 'too-large':
      return failed('output-too-large', `${end.stream} exceeded ${end.limit} bytes`);
    case 'cancelled':
      return failed('signal', 'cancelled: the runner itself was interrupted');
    case 'exited': {
      const read = readExit(end, event);
      // Claude Code shows it only in its transcript view; an agent that logs its hooks' stderr
      // (the Docker MCP gateway) gets it from its dialect.
      const log = end.exitCode === 0 && read.ok && read.reply.decision !== 'block' && read.reply.decision !== 'halt' ? reasonText(end.stderr, end.stderrDropped ?? 0) : '';
      return log === '' || !read.ok ? read : { ok: true, reply: { ...read.reply, stderr: log } };
    }
  }
}

/** Reads what an in-process handler returned (nothing means continue). */
export function readReturnValue(value: unknown, event: EventSpec): Reading {
  if (value === undefined || value === null) return { ok: true, reply: { decision: 'continue' } };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return failed('invalid-json', `handler returned ${Array.isArray(value) ? 'an array' : typeof value}, expected a reply object`);
  }
  return readObject(value as Record<string, unknown>, event);
}

/** What a failure becomes under the hook's `onFailure` policy; `because` says why a block is one, when that is not the policy. */
export function failureReply(failure: Failure, hookId: string, onFailure: 'block' | 'continue', because = 'its onFailure is "block"'): Reply {
  return onFailure === 'block'
    ? { decision: 'block', reason: `hook "${hookId}" failed (${failure.kind}: ${failure.message}) and ${because}` }
    : { decision: 'continue' };
}

/** True when the reply carries a rewrite. */
export function rewrites(reply: Reply): boolean {
  return reply.updatedInput !== undefined || reply.prompt !== undefined || reply.updatedOutput !== undefined || reply.updatedRequest !== undefined || reply.updatedResponse !== undefined;
}

// --- internal ---

/** How much of stderr becomes a block's reason; the rest is cut with a marker saying how much. */
export const REASON_LIMIT = 16 * 1024;

function readExit(end: Extract<ProcessEnd, { kind: 'exited' }>, event: EventSpec): Reading {
  const stderr = reasonText(end.stderr, end.stderrDropped ?? 0);
  if (end.exitCode === 2) {
    // Exit 2 blocks whatever else the hook wrote: its size, its encoding or its JSON never undo that.
    // As in Claude Code, a JSON reply beside it is still read (context, systemMessage, continue: false),
    // and the block's reason is the JSON's own blocking reason, else stderr.
    const out = decodeStdout(end.stdout);
    const json = out.ok && out.text.startsWith('{') && end.stdoutDropped === undefined ? parseJson(out.text) : undefined;
    const read = json?.ok ? readObject(json.value, event) : undefined;
    const reply: Reply = read?.ok ? { ...read.reply } : { decision: 'block' };
    const jsonReason = read?.ok && (read.reply.decision === 'block' || read.reply.decision === 'halt') ? read.reply.reason : undefined;
    const reason = jsonReason ?? (stderr || (json?.ok ? reasonOf(json.value) : undefined));
    if (reply.decision !== 'halt') reply.decision = 'block';
    delete reply.reason;
    delete reply.defer;
    if (reason) reply.reason = reason;
    else if (!(read?.ok && read.reply.decision === 'block')) reply.noStderr = true;
    return { ok: true, reply };
  }
  const out = decodeStdout(end.stdout);
  if (!out.ok) return failed('invalid-encoding', out.error);
  const stdout = out.text;
  const json = stdout.startsWith('{') ? parseJson(stdout) : undefined;
  if (json !== undefined) {
    if (json.ok) return readObject(json.value, event);
    // Claude Code takes text that only looks like JSON as plain text: context where plain text is context.
    if (event.plainStdoutIsContext && end.exitCode === 0) {
      // Said, though: a guard whose JSON broke has not decided anything.
      const note = `printed text that starts with "{" but is not JSON (${json.error}); it was added as plain-text context, as Claude Code adds it`;
      return { ok: true, reply: { decision: 'continue', additionalContext: stdout, notes: [oneLine(note)] } };
    }
    return failed('invalid-json', `stdout starts with "{" but is not JSON: ${json.error}`);
  }
  if (end.exitCode === 126 || end.exitCode === 127) {
    return failed('not-found', `exit ${end.exitCode}${tail(stderr) || ': command not found or not executable'}`);
  }
  const signal = signalOfExitCode(end.exitCode);
  // A shell reports a child killed by signal N as exit 128+N.
  if (signal !== undefined) return failed('signal', `killed by ${signal} (exit ${end.exitCode})${tail(stderr)}`);
  // A log line (or stray bytes) before a JSON reply: Claude Code reads the whole stdout as plain text and the
  // JSON's decision is lost without a word. We read it the same way, as a named failure: reported always, and a
  // block under `onFailure: "block"`.
  const late = jsonAfterText(stdout);
  if (late !== undefined) {
    return failed('text-before-json', `stdout has text before its JSON reply (${late}); print only the JSON object to stdout`);
  }
  if (end.exitCode !== 0) return failed(`exit-${end.exitCode}`, `exited with ${end.exitCode}${tail(stderr)}`);
  if (stdout !== '' && event.plainStdoutIsContext) return { ok: true, reply: { decision: 'continue', additionalContext: stdout } };
  if (stdout !== '' && event.plainStdoutField !== undefined) {
    // WorktreeCreate: the last non-empty line is the new worktree's path.
    const last = stdout.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '').at(-1)!;
    return { ok: true, reply: { decision: 'continue', passthrough: { [event.plainStdoutField]: last } } };
  }
  return { ok: true, reply: { decision: 'continue' } };
}

/** stdout as UTF-8 (a UTF-8 byte order mark is dropped), trimmed; anything else is a reason why not. */
export function decodeStdout(bytes: string | Uint8Array): { ok: true; text: string } | { ok: false; error: string } {
  if (typeof bytes === 'string') return { ok: true, text: bytes.replace(/^\uFEFF/, '').trim() };
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { ok: false, error: 'stdout is UTF-16 (it starts with a UTF-16 byte order mark); replies must be UTF-8' };
  }
  try {
    return { ok: true, text: UTF8.decode(bytes).replace(/^\uFEFF/, '').trim() };
  } catch {
    return { ok: false, error: `stdout is not valid UTF-8 (${bytes.length} bytes); replies must be UTF-8` };
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** stderr as a reason: lenient UTF-8, trimmed, cut at REASON_LIMIT with a marker naming what was left out. */
function reasonText(bytes: string | Uint8Array, dropped: number): string {
  let text = (typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')).trim();
  let cut = dropped;
  if (text.length > REASON_LIMIT) {
    cut += Buffer.byteLength(text.slice(REASON_LIMIT));
    text = text.slice(0, REASON_LIMIT);
  }
  return cut > 0 ? `${text} …[stderr truncated: ${cut} more bytes]` : text;
}

/** A description of the text before a JSON object that ends stdout, when there is one. */
function jsonAfterText(stdout: string): string | undefined {
  if (stdout.startsWith('{')) return undefined;
  // The JSON reply starts at a line's start (a log line before it) or right after stray bytes.
  const starts = new Set<number>();
  const line = stdout.search(/\n\s*\{/);
  if (line >= 0) starts.add(stdout.indexOf('{', line));
  const first = stdout.indexOf('{');
  if (first >= 0) starts.add(first);
  for (const at of starts) {
    const json = parseJson(stdout.slice(at));
    if (json.ok) {
      const before = stdout.slice(0, at).trim().split('\n')[0] ?? '';
      return `${JSON.stringify(before.length > 60 ? `${before.slice(0, 60)}…` : before)} comes first`;
    }
  }
  return undefined;
}

function parseJson(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'not an object' };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

const DECISIONS: Record<string, Reply['decision'] | 'modify'> = {
  allow: 'allow',
  approve: 'allow',
  continue: 'continue',
  block: 'block',
  deny: 'block',
  ask: 'ask',
  modify: 'modify',
};

/**
 * Our reply shape, Claude Code's (read per event, as Claude Code reads it), Gemini's `decision: "deny"` and
 * Cursor's `permission`.
 */
function readObject(o: Record<string, unknown>, event: EventSpec): Reading {
  // A rewrite nested deeper than an event may be could not be judged by the hooks after it, nor
  // serialized for the agent: it is a failure, like any reply that cannot be read.
  if (nestsDeeperThan(o, EVENT_LIMITS.maxDepth)) return failed('invalid-json', `the reply nests deeper than ${EVENT_LIMITS.maxDepth} levels`);
  // A bare MCP CallToolResult (the Docker MCP gateway's interceptor contract): after the call it is the
  // rewritten result; before it, the answer to the call, given instead of running the tool.
  const result = event.tool ? resultReply(o) : undefined;
  if (result !== undefined && event.rewrites === 'updatedOutput') return { ok: true, reply: { decision: 'continue', updatedOutput: { value: result } } };
  if (result !== undefined && event.rewrites === 'updatedInput') return { ok: true, reply: { decision: 'block', reason: resultText(result), updatedOutput: { value: result } } };
  const problems: string[] = [];
  const ignored: string[] = [];
  const text = (value: unknown, name: string): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    problems.push(`"${name}" must be a string`);
    return undefined;
  };

  let specific = isRecord(o.hookSpecificOutput) ? o.hookSpecificOutput : {};
  // Claude Code rejects a hookSpecificOutput written for another event, and with it the whole reply;
  // beside a top-level block it drops only the hookSpecificOutput. A name in another agent's spelling
  // (Gemini's `BeforeTool`) is not a known event and is let through.
  const named = specific.hookEventName;
  const other = typeof named === 'string' ? findEvent(named) : undefined;
  if (other !== undefined && other.claude !== event.claude) {
    if (o.decision !== 'block') {
      return failed('invalid-json', `hookSpecificOutput.hookEventName is "${named}", but the event is ${event.claude}; Claude Code rejects such a reply, so it was not read`);
    }
    ignored.push(`hookSpecificOutput (it names ${String(named)}, not ${event.claude})`);
    specific = {};
  }

  const reason = reasonOf(o, specific);
  const topLevel = text(o.additionalContext, 'additionalContext');
  const specificContext = text(specific.additionalContext, 'hookSpecificOutput.additionalContext');
  const context = [topLevel, specificContext].filter((c): c is string => c !== undefined && c !== '').join('\n');
  // A reply in Claude Code's shape (it has a hookSpecificOutput) is read as Claude Code reads it, which
  // ignores a top-level additionalContext; without one, a top-level additionalContext is our own shape.
  const claudeShaped = isRecord(o.hookSpecificOutput);
  const claudeView = (reply: Reply): Reply => (!claudeShaped || topLevel === undefined || topLevel === '' ? reply : { ...reply, claudeContext: specificContext ?? '' });
  const systemMessage = text(o.systemMessage, 'systemMessage');
  const passthrough = readPassthrough(specific, event, problems);

  let halt = o.continue === false;
  if (halt && !event.canHalt) {
    ignored.push(`continue: false (${event.known ? `Claude Code ignores it on ${event.claude}` : 'an event agent-hooks does not know cannot be halted from'})`);
    halt = false;
  }
  if (halt) {
    const why = text(o.stopReason, 'stopReason') ?? reason;
    if (problems.length > 0) return failed('invalid-json', problems.join('; '));
    const reply: Reply = { decision: 'halt' };
    // A halt that also denies the call (PreToolUse): Claude Code gives the model the deny's own reason.
    const denied = specific.permissionDecision === 'deny' && typeof specific.permissionDecisionReason === 'string' ? specific.permissionDecisionReason.trim() : '';
    if (event.permissionDecision && denied !== '') reply.denyReason = denied;
    return { ok: true, reply: claudeView(finish(reply, why, context, systemMessage, passthrough, ignored)) };
  }

  const top = text(o.decision, 'decision') ?? text(o.permission, 'permission');
  let permission: string | undefined;
  if (specific.permissionDecision !== undefined) {
    // An event agent-hooks does not know may be a newer agent's guard event, answered as Claude Code
    // answers PreToolUse: its deny must block, and its ask (which the combiner cannot carry there) too.
    if (event.permissionDecision || !event.known) permission = text(specific.permissionDecision, 'hookSpecificOutput.permissionDecision');
    else ignored.push(`hookSpecificOutput.permissionDecision (Claude Code reads it only on PreToolUse and PreModelSwitch)`);
  }
  let decision: Reply['decision'] | 'modify' = 'continue';
  let defer = false;
  const said = [top, permission].filter((d): d is string => d !== undefined && d !== '');
  for (const word of said) {
    if (word === 'defer' && word === permission) {
      if (event.canDefer) defer = true;
      else ignored.push(`permissionDecision "defer" (only PreToolUse can defer)`);
      continue;
    }
    if (!Object.hasOwn(DECISIONS, word)) problems.push(`unknown decision "${word}"`);
  }
  const words = said.flatMap((w) => (Object.hasOwn(DECISIONS, w) ? [DECISIONS[w]!] : []));
  // Any word for block wins; else hookSpecificOutput.permissionDecision over the top-level word, as Claude Code reads them.
  if (words.includes('block')) decision = 'block';
  else if (defer) decision = 'ask';
  else if (permission !== undefined && Object.hasOwn(DECISIONS, permission)) decision = DECISIONS[permission]!;
  else if (words.length > 0) decision = words[0]!;

  const reply: Reply = { decision: decision === 'modify' ? 'continue' : decision };
  if (defer && decision === 'ask') reply.defer = true;
  let why = reason;

  if (event.blockAs === 'permissionRequest' && specific.decision !== undefined) {
    // PermissionRequest: hookSpecificOutput.decision.behavior is the answer to the permission prompt.
    const d = specific.decision;
    if (!isRecord(d)) problems.push('"hookSpecificOutput.decision" must be an object ({"behavior": "allow" | "deny", ...})');
    else if (d.behavior === 'allow') {
      if (reply.decision !== 'block') reply.decision = 'allow';
      if (d.updatedInput !== undefined) {
        if (isRecord(d.updatedInput)) reply.updatedInput = d.updatedInput;
        else problems.push('"hookSpecificOutput.decision.updatedInput" must be an object (the whole new tool input)');
      }
      if (d.updatedPermissions !== undefined) {
        if (Array.isArray(d.updatedPermissions)) (passthroughOf(reply, passthrough)).updatedPermissions = d.updatedPermissions;
        else problems.push('"hookSpecificOutput.decision.updatedPermissions" must be a list');
      }
    } else if (d.behavior === 'deny') {
      const message = text(d.message, 'hookSpecificOutput.decision.message');
      if (message !== undefined && message.trim() !== '') why = message.trim();
      if (d.interrupt === true) {
        if (problems.length > 0) return failed('invalid-json', problems.join('; '));
        return { ok: true, reply: claudeView(finish({ decision: 'halt' }, why, context, systemMessage, passthrough, ignored)) };
      }
      reply.decision = 'block';
    } else problems.push(`unknown PermissionRequest behavior ${JSON.stringify(d.behavior)} (allow or deny)`);
  }
  if (!event.known && isRecord(specific.decision) && specific.decision.behavior === 'deny') {
    // A newer agent's permission-style event: a deny must not be dropped because the event is not in
    // the catalog (an interrupt cannot be carried there, so it is a block like the rest).
    const message = text(specific.decision.message, 'hookSpecificOutput.decision.message');
    if (message !== undefined && message.trim() !== '') why = message.trim();
    reply.decision = 'block';
  }
  if (event.blockAs === 'elicitation' && passthrough?.action === 'decline') {
    // Declining an elicitation is Claude Code's block there.
    reply.decision = 'block';
    delete passthrough.action;
    delete passthrough.content;
  }

  const updatedInput = o.updatedInput ?? (event.permissionDecision ? specific.updatedInput : undefined);
  if (updatedInput !== undefined && event.rewrites === 'updatedInput' && reply.updatedInput === undefined) {
    if (isRecord(updatedInput)) reply.updatedInput = updatedInput;
    else problems.push('"updatedInput" must be an object (the whole new tool input)');
  }
  if (event.rewrites === 'updatedInput') {
    // No agent's answer can rename a call; read so that a rename is refused by name, never dropped.
    const renamed = o.tool_name ?? o.toolName ?? specific.tool_name;
    if (renamed !== undefined && renamed !== null) {
      if (typeof renamed === 'string' && renamed !== '') reply.toolName = renamed;
      else problems.push('"tool_name" must be a tool name');
    }
  }
  if (o.prompt !== undefined && event.rewrites === 'prompt') {
    const prompt = text(o.prompt, 'prompt');
    if (prompt !== undefined) reply.prompt = prompt;
  }
  if (event.rewrites === 'updatedOutput') {
    if ('updatedOutput' in o) reply.updatedOutput = { value: o.updatedOutput };
    else if ('updatedToolOutput' in specific) reply.updatedOutput = { value: specific.updatedToolOutput };
    // The legacy MCP-only form is a rewrite too: passed on unread it would reach the model unjudged by
    // the hooks after it (redact-secrets among them).
    else if (specific.updatedMCPToolOutput !== undefined && specific.updatedMCPToolOutput !== null) reply.updatedOutput = { value: specific.updatedMCPToolOutput };
    if (passthrough !== undefined) delete passthrough.updatedMCPToolOutput;
  }
  if (o.metadata !== undefined && o.metadata !== null) {
    if (isRecord(o.metadata)) reply.metadata = o.metadata;
    else problems.push('"metadata" must be an object (keys for the session\'s metadata bag)');
  }
  if (event.rewrites === 'updatedRequest' || event.rewrites === 'updatedResponse') {
    const read = event.rewrites === 'updatedRequest' ? readRequestRewrite(o) : readResponseRewrite(o);
    if (!read.ok) problems.push(read.problem);
    else if (read.value !== undefined) reply[event.rewrites] = read.value;
  }
  if (event.name === 'beforeModel') {
    // A response of the hook's own (Gemini's BeforeModel `llm_response`): the model is not called, and
    // that response is the model's answer; like an MCP result before a tool call, it ends the chain as a block.
    const synthetic = readResponseRewrite(o);
    if (!synthetic.ok) problems.push(synthetic.problem);
    else if (synthetic.value !== undefined) {
      reply.updatedResponse = synthetic.value;
      if (reply.decision !== 'halt') reply.decision = 'block';
      why ??= 'answered by a hook instead of the model';
    }
  }
  if (decision === 'modify' && !event.known && problems.length === 0) {
    // A newer agent's event: no rewrite can be passed on, and dropping it would let the original through
    // (a sandboxing rewrite would run the command bare), so it blocks, saying why.
    reply.decision = 'block';
    why = `${why === undefined || why === '' ? '' : `${why} — `}a rewrite agent-hooks cannot pass on (${event.name} is an event it does not know yet), so the call is blocked instead`;
    delete reply.updatedInput;
    delete reply.updatedOutput;
  } else if (decision === 'modify' && !rewrites(reply) && problems.length === 0) {
    problems.push(
      event.rewrites === undefined
        ? `"modify" is not possible on ${event.name}`
        : `"modify" needs "${event.rewrites}" on ${event.name}`,
    );
  }
  if (problems.length > 0) return failed('invalid-json', problems.join('; '));
  return { ok: true, reply: claudeView(finish(reply, why, context, systemMessage, passthrough, ignored)) };
}

/** The event's pass-through fields of a hookSpecificOutput, checked as Claude Code's schema checks them. */
function readPassthrough(specific: Record<string, unknown>, event: EventSpec, problems: string[]): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const key of event.passthrough) {
    const value = specific[key];
    if (value === undefined) continue;
    const check = PASSTHROUGH_CHECKS[key];
    if (check !== undefined && !check.ok(value)) {
      problems.push(`"hookSpecificOutput.${key}" must be ${check.what}`);
      continue;
    }
    (out ??= {})[key] = value;
  }
  return out;
}

const isString = (v: unknown) => typeof v === 'string';
const PASSTHROUGH_CHECKS: Record<string, { ok: (v: unknown) => boolean; what: string }> = {
  sessionTitle: { ok: isString, what: 'a string' },
  initialUserMessage: { ok: isString, what: 'a string' },
  displayContent: { ok: isString, what: 'a string' },
  worktreePath: { ok: isString, what: 'a string' },
  suppressOriginalPrompt: { ok: (v) => typeof v === 'boolean', what: 'true or false' },
  reloadSkills: { ok: (v) => typeof v === 'boolean', what: 'true or false' },
  retry: { ok: (v) => typeof v === 'boolean', what: 'true or false' },
  watchPaths: { ok: (v) => Array.isArray(v) && v.every(isString), what: 'a list of paths' },
  action: { ok: (v) => v === 'accept' || v === 'decline' || v === 'cancel', what: '"accept", "decline" or "cancel"' },
};

function passthroughOf(reply: Reply, existing: Record<string, unknown> | undefined): Record<string, unknown> {
  reply.passthrough ??= existing ?? {};
  return reply.passthrough;
}

function reasonOf(o: Record<string, unknown>, specific: Record<string, unknown> = isRecord(o.hookSpecificOutput) ? o.hookSpecificOutput : {}): string | undefined {
  for (const candidate of [o.reason, specific.permissionDecisionReason, o.agentMessage, o.agent_message, o.userMessage, o.user_message]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
  }
  return undefined;
}

function finish(
  reply: Reply,
  reason: string | undefined,
  context: string,
  systemMessage: string | undefined,
  passthrough: Record<string, unknown> | undefined,
  ignored: string[],
): Reply {
  if (reason !== undefined && reason !== '') reply.reason = reason;
  if (context !== '') reply.additionalContext = context;
  if (systemMessage !== undefined && systemMessage.trim() !== '') reply.systemMessage = systemMessage;
  if (passthrough !== undefined && Object.keys(passthrough).length > 0) reply.passthrough = { ...passthrough, ...reply.passthrough };
  else if (reply.passthrough !== undefined && Object.keys(reply.passthrough).length === 0) delete reply.passthrough;
  if (ignored.length > 0) reply.ignored = ignored;
  return reply;
}

function failed(kind: FailureKind, message: string): Reading {
  return { ok: false, failure: { kind, message: oneLine(message) } };
}

/** A failure message is one line of plain text: a hook's stderr may hold CRs or terminal escapes. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '\uFFFD');
}

/** `: <first line of stderr>` or nothing. */
function tail(stderr: string | Uint8Array): string {
  const line = (typeof stderr === 'string' ? stderr : Buffer.from(stderr).toString('utf8')).trim().split(/[\r\n]/)[0]?.trim() ?? '';
  return line === '' ? '' : `: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`;
}

function signalOfExitCode(code: number): string | undefined {
  if (code <= 128 || code > 128 + 64) return undefined;
  return Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}
