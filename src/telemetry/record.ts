// One run's outcome as the spans and metric points to export: plain values, no SDK, so what is sent (and
// what is redacted) is tested without a collector. Attribute names: docs/observability.md.
import type { Decision } from '../decide/combine.js';
import { createRedactor, type Redactor } from '../guards/redact-secrets/engine.js';
import { recordedId } from '../events/ids.js';

/** What the runner decided, as `hooks run` and `hooks serve` have it once the answer is made. */
export interface RunOutcome {
  decision: Decision;
  /** The dialect that read the event (claude-code, codex, gemini, ...). */
  dialect: string;
  projectDir: string;
  /** Epoch ms when the run started and ended. */
  startedAt: number;
  endedAt: number;
  /** Each hook's kind (command, builtin, http, prompt, agent, mcp_tool, function), by id. */
  kinds: ReadonlyMap<string, string>;
}

export type Attributes = Record<string, string | number | boolean>;

export interface SpanRecord {
  name: string;
  start: number;
  end: number;
  attributes: Attributes;
  /** A hook failure: the span's status is ERROR with this message. */
  error?: string;
}

export interface RunRecord {
  event: SpanRecord;
  hooks: SpanRecord[];
}

/** Longest reason or message sent, as the audit log's default (maxReasonLength). */
export const TEXT_LIMIT = 2000;
/** Longest payload sent (`payloads: true`). */
export const PAYLOAD_LIMIT = 8192;

let redactor: Redactor | undefined;

/** Redacted by the audit log's rules (the redact-secrets engine), then cut. */
export function clean(text: string, limit = TEXT_LIMIT): string {
  redactor ??= createRedactor();
  const redacted = redactor.text(text).text;
  return redacted.length > limit ? `${redacted.slice(0, limit)}…[${redacted.length - limit} more]` : redacted;
}

export function runRecord(outcome: RunOutcome, options: { payloads: boolean }): RunRecord {
  const { decision } = outcome;
  const event = decision.event;
  const payload = event.payload;
  const common: Attributes = {
    'agent_hooks.event': event.name,
    'agent_hooks.dialect': outcome.dialect,
    'agent_hooks.agent': agentOf(outcome.dialect),
    'agent_hooks.project': outcome.projectDir,
    ...(event.tool === undefined ? {} : { 'gen_ai.tool.name': recordedId(event.tool.name), 'agent_hooks.tool': recordedId(event.tool.canonical) }),
    ...(typeof payload.session_id === 'string' ? { 'session.id': recordedId(payload.session_id) } : {}),
  };
  const eventAttributes: Attributes = {
    ...common,
    'agent_hooks.decision': decision.decision,
    'agent_hooks.hooks.ran': decision.results.length,
    ...(decision.decidedBy === undefined ? {} : { 'agent_hooks.decided_by': decision.decidedBy }),
    ...(decision.reason === undefined ? {} : { 'agent_hooks.reason': clean(decision.reason) }),
  };
  if (options.payloads) {
    let json: string;
    try {
      json = JSON.stringify(payload);
    } catch {
      json = '"unavailable: the payload cannot be serialized"';
    }
    eventAttributes['agent_hooks.payload'] = clean(json, PAYLOAD_LIMIT);
  }
  // Hooks of one parallel batch start together; batches follow one another. The runner keeps each hook's
  // time, not its start: the starts are laid out from the batches, in run order.
  const hooks: SpanRecord[] = [];
  let cursor = outcome.startedAt;
  let batch = -1;
  let batchEnd = cursor;
  for (const step of decision.steps) {
    const result = step.result;
    if (step.status !== 'ran' && step.status !== 'observer') continue;
    if (result === undefined) continue;
    if (step.batch !== batch) {
      cursor = batchEnd;
      batch = step.batch;
    }
    const start = Math.min(cursor, outcome.endedAt);
    const end = Math.min(start + result.ms, outcome.endedAt);
    batchEnd = Math.max(batchEnd, end);
    const kind = outcome.kinds.get(result.id) ?? 'unknown';
    const attributes: Attributes = {
      ...common,
      'agent_hooks.hook.id': result.id,
      'agent_hooks.hook.layer': result.source.layer,
      'agent_hooks.hook.key': result.source.key,
      'agent_hooks.hook.kind': kind,
      'agent_hooks.hook.decision': result.reply.decision,
      'agent_hooks.hook.duration_ms': result.ms,
      ...(result.source.file === undefined ? {} : { 'agent_hooks.hook.file': result.source.file }),
      ...(result.reply.reason === undefined ? {} : { 'agent_hooks.hook.reason': clean(result.reply.reason) }),
      ...(result.failure === undefined ? {} : { 'error.type': result.failure.kind, 'agent_hooks.hook.failure': clean(result.failure.message) }),
      ...(result.wouldHave === undefined ? {} : { 'agent_hooks.hook.audit': true, 'agent_hooks.hook.would_have': result.wouldHave.decision, ...(result.wouldHave.reason === undefined ? {} : { 'agent_hooks.hook.would_have_reason': clean(result.wouldHave.reason) }) }),
    };
    hooks.push({
      name: `agent-hooks hook ${result.id}`,
      start,
      end,
      attributes,
      ...(result.failure === undefined ? {} : { error: `${result.failure.kind}: ${clean(result.failure.message)}` }),
    });
  }
  const failed = hooks.find((h) => h.error !== undefined);
  return {
    event: { name: `agent-hooks ${event.name}`, start: outcome.startedAt, end: Math.max(outcome.endedAt, outcome.startedAt), attributes: eventAttributes, ...(failed === undefined ? {} : { error: `hook ${failed.attributes['agent_hooks.hook.id']} failed: ${failed.error}` }) },
    hooks,
  };
}

/** The agent a dialect is spoken by (gemini is also Qwen Code's: the dialect cannot tell them apart). */
function agentOf(dialect: string): string {
  return { 'claude-code': 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI', cursor: 'Cursor', copilot: 'GitHub Copilot', 'docker-mcp': 'Docker MCP Gateway', native: 'native' }[dialect] ?? dialect;
}
