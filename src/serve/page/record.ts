// What the live page keeps of one answered event: who sent it, what was decided and by which hook, each
// hook's time and outcome. Never the payload (tool input and output may hold secrets); reasons and
// failure messages go through the same redaction as the audit log (redact-secrets' engine).
import type { Decision } from '../../decide/combine.js';
import { outcomeOf } from '../../decide/combine.js';
import { createRedactor } from '../../guards/redact-secrets/engine.js';
import { recordedId } from '../../events/ids.js';

export interface PageHook {
  id: string;
  layer: string;
  outcome: string;
  ms: number;
  failure?: string;
}

export interface PageEvent {
  /** Assigned by the store; 0 until stored. */
  id: number;
  /** Milliseconds since the epoch. */
  ts: number;
  event: string;
  /** The dialect the event came in (claude, codex, gemini, ...): the agent. */
  agent: string;
  project: string;
  session: string;
  tool?: string;
  decision: string;
  decidedBy?: string;
  reason?: string;
  ms: number;
  hooks: PageHook[];
}

const MAX_TEXT = 2000;

export type Clean = (text: string | undefined) => string | undefined;

/** Redacts as the audit log does, and caps the length. */
export function redactor(): Clean {
  const engine = createRedactor();
  return (text) => {
    if (text === undefined) return undefined;
    const redacted = engine.text(text).text;
    return redacted.length > MAX_TEXT ? `${redacted.slice(0, MAX_TEXT)}...[${redacted.length - MAX_TEXT} more]` : redacted;
  };
}

export function pageEvent(decision: Decision, at: { agent: string; project: string; ms: number; now: number; clean: Clean }): PageEvent {
  const payload = decision.event.payload;
  const reason = at.clean(decision.reason);
  return {
    id: 0,
    ts: at.now,
    event: decision.event.name,
    agent: at.agent,
    project: at.project,
    session: recordedId(payload.session_id) ?? '',
    ...(decision.event.tool === undefined ? {} : { tool: recordedId(decision.event.tool.canonical) }),
    decision: decision.decision,
    ...(decision.decidedBy === undefined ? {} : { decidedBy: decision.decidedBy }),
    ...(reason === undefined ? {} : { reason }),
    ms: Math.round(at.ms),
    hooks: decision.results.map((r) => {
      const failure = r.failure === undefined ? undefined : at.clean(`${r.failure.kind}: ${r.failure.message}`);
      return { id: r.id, layer: r.source.layer, outcome: outcomeOf(r.reply), ms: Math.round(r.ms), ...(failure === undefined ? {} : { failure }) };
    }),
  };
}
