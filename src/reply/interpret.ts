// Reads one hook's answer (exit code + stdout + stderr, or a handler's return value) as a reply or a failure.
// Pure: the same input always gives the same reading.
import { constants } from 'node:os';
import type { EventSpec } from '../events/catalog.js';
import { isRecord } from '../json.js';

/** One hook's answer, normalized. A rewrite rides along any non-blocking decision. */
export interface Reply {
  decision: 'continue' | 'allow' | 'ask' | 'block' | 'halt';
  reason?: string;
  updatedInput?: Record<string, unknown>;
  prompt?: string;
  /** Present (even when the new output is `null`) when the hook replaced the tool output. */
  updatedOutput?: { value: unknown };
  additionalContext?: string;
}

export type FailureKind =
  | 'not-found'
  | 'timeout'
  | 'signal'
  | `exit-${number}`
  | 'invalid-json'
  | 'output-too-large'
  | 'error';

export interface Failure {
  kind: FailureKind;
  /** One line: what went wrong, for traces, warnings and block reasons. */
  message: string;
}

export type Reading = { ok: true; reply: Reply } | { ok: false; failure: Failure };

/** How a process hook ended, as the process runner saw it. */
export type ProcessEnd =
  | { kind: 'exited'; exitCode: number; stdout: string; stderr: string }
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
      return failed('output-too-large', `${end.stream} exceeded ${end.limit} characters`);
    case 'cancelled':
      return failed('signal', 'cancelled: the runner itself was interrupted');
    case 'exited':
      return readExit(end, event);
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

/** What a failure becomes under the hook's `onFailure` policy. */
export function failureReply(failure: Failure, hookId: string, onFailure: 'block' | 'continue'): Reply {
  return onFailure === 'block'
    ? { decision: 'block', reason: `hook "${hookId}" failed (${failure.kind}: ${failure.message}) and its onFailure is "block"` }
    : { decision: 'continue' };
}

/** True when the reply carries a rewrite. */
export function rewrites(reply: Reply): boolean {
  return reply.updatedInput !== undefined || reply.prompt !== undefined || reply.updatedOutput !== undefined;
}

// --- internal ---

function readExit(end: { exitCode: number; stdout: string; stderr: string }, event: EventSpec): Reading {
  const stdout = end.stdout.replace(/^\uFEFF/, '').trim();
  const stderr = end.stderr.trim();
  const json = stdout.startsWith('{') ? parseJson(stdout) : undefined;

  if (end.exitCode === 2) {
    // Exit 2 blocks whatever stdout says; a JSON reason is the fallback when stderr is silent.
    const jsonReason = json?.ok ? reasonOf(json.value) : undefined;
    const reason = stderr || jsonReason;
    return { ok: true, reply: reason ? { decision: 'block', reason } : { decision: 'block' } };
  }
  if (json !== undefined) {
    if (!json.ok) return failed('invalid-json', `stdout starts with "{" but is not JSON: ${json.error}`);
    return readObject(json.value, event);
  }
  if (end.exitCode === 126 || end.exitCode === 127) {
    return failed('not-found', `exit ${end.exitCode}${tail(stderr) || ': command not found or not executable'}`);
  }
  const signal = signalOfExitCode(end.exitCode);
  // A shell reports a child killed by signal N as exit 128+N.
  if (signal !== undefined) return failed('signal', `killed by ${signal} (exit ${end.exitCode})${tail(stderr)}`);
  if (end.exitCode !== 0) return failed(`exit-${end.exitCode}`, `exited with ${end.exitCode}${tail(stderr)}`);
  if (stdout !== '' && event.plainStdoutIsContext) return { ok: true, reply: { decision: 'continue', additionalContext: stdout } };
  return { ok: true, reply: { decision: 'continue' } };
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

/** Our reply shape, Claude Code's, Gemini's `decision: "deny"` and Cursor's `permission`. */
function readObject(o: Record<string, unknown>, event: EventSpec): Reading {
  const specific = isRecord(o.hookSpecificOutput) ? o.hookSpecificOutput : {};
  const problems: string[] = [];
  const text = (value: unknown, name: string): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    problems.push(`"${name}" must be a string`);
    return undefined;
  };

  const reason = reasonOf(o);
  const context = [text(o.additionalContext, 'additionalContext'), text(specific.additionalContext, 'hookSpecificOutput.additionalContext')]
    .filter((c): c is string => c !== undefined && c !== '')
    .join('\n');

  if (o.continue === false) {
    const why = text(o.stopReason, 'stopReason') ?? reason;
    if (problems.length > 0) return failed('invalid-json', problems.join('; '));
    return { ok: true, reply: withText({ decision: 'halt' }, why, context) };
  }

  const said = text(o.decision, 'decision') ?? text(specific.permissionDecision, 'hookSpecificOutput.permissionDecision') ?? text(o.permission, 'permission');
  let decision: Reply['decision'] | 'modify' = 'continue';
  if (said !== undefined && said !== '') {
    const known = Object.hasOwn(DECISIONS, said) ? DECISIONS[said] : undefined;
    if (known === undefined) problems.push(`unknown decision "${said}"`);
    else decision = known;
  }

  const reply: Reply = { decision: decision === 'modify' ? 'continue' : decision };
  const updatedInput = o.updatedInput ?? specific.updatedInput;
  if (updatedInput !== undefined && event.rewrites === 'updatedInput') {
    if (isRecord(updatedInput)) reply.updatedInput = updatedInput;
    else problems.push('"updatedInput" must be an object (the whole new tool input)');
  }
  if (o.prompt !== undefined && event.rewrites === 'prompt') {
    const prompt = text(o.prompt, 'prompt');
    if (prompt !== undefined) reply.prompt = prompt;
  }
  if (event.rewrites === 'updatedOutput') {
    if ('updatedOutput' in o) reply.updatedOutput = { value: o.updatedOutput };
    else if ('updatedToolOutput' in specific) reply.updatedOutput = { value: specific.updatedToolOutput };
  }
  if (decision === 'modify' && !rewrites(reply) && problems.length === 0) {
    problems.push(
      event.rewrites === undefined
        ? `"modify" is not possible on ${event.name}`
        : `"modify" needs "${event.rewrites}" on ${event.name}`,
    );
  }
  if (problems.length > 0) return failed('invalid-json', problems.join('; '));
  return { ok: true, reply: withText(reply, reason, context) };
}

function reasonOf(o: Record<string, unknown>): string | undefined {
  const specific = isRecord(o.hookSpecificOutput) ? o.hookSpecificOutput : {};
  for (const candidate of [o.reason, specific.permissionDecisionReason, o.agentMessage, o.agent_message, o.userMessage, o.user_message]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
  }
  return undefined;
}

function withText(reply: Reply, reason: string | undefined, context: string): Reply {
  if (reason !== undefined && reason !== '') reply.reason = reason;
  if (context !== '') reply.additionalContext = context;
  return reply;
}

function failed(kind: FailureKind, message: string): Reading {
  return { ok: false, failure: { kind, message } };
}

/** `: <first line of stderr>` or nothing. */
function tail(stderr: string): string {
  const line = stderr.trim().split('\n')[0]?.trim() ?? '';
  return line === '' ? '' : `: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`;
}

function signalOfExitCode(code: number): string | undefined {
  if (code <= 128 || code > 128 + 64) return undefined;
  return Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}
