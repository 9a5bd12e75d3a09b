// Guard `audit-log`: one JSONL record per event and per hook decision, secrets redacted, appended so that
// concurrent runners (parallel tool calls) never interleave: each run is one write() to an O_APPEND file.
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Guard, GuardContext, ObservedRun } from '../types.js';
import type { AuditLogOptions } from './audit-log/options.js';
import { createRedactor } from './redact-secrets/engine.js';

export type { AuditLogOptions } from './audit-log/options.js';

const RECORD_VERSION = 1;

export const auditLog: Guard<AuditLogOptions> = {
  id: 'audit-log',
  summary: 'Appends one JSONL record per event and per hook decision (secrets redacted) to an audit log.',
  events: ['preToolUse', 'postToolUse', 'userPromptSubmit', 'stop', 'subagentStop', 'preCompact', 'sessionStart', 'sessionEnd', 'notification', 'postToolUseFailure'],
  options: async () => (await import('./audit-log/options.js')).auditLogOptions,
  // In the chain it answers nothing: it records the whole run once the decision is made.
  create: () => () => undefined,
  observe(options, context) {
    const file = auditLogPath(options, context);
    const redactor = createRedactor();
    const limit = options.maxReasonLength ?? 2000;
    const clean = (text: string | undefined) => {
      if (text === undefined) return undefined;
      const redacted = redactor.text(text).text;
      return redacted.length > limit ? `${redacted.slice(0, limit)}…[${redacted.length - limit} more]` : redacted;
    };
    return (run) => {
      const lines = auditRecords(run, { now: new Date(), runId: randomUUID(), pid: process.pid, clean }).map((r) => JSON.stringify(r));
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const fd = openSync(file, 'a', 0o600);
      try {
        writeSync(fd, `${lines.join('\n')}\n`);
      } finally {
        closeSync(fd);
      }
    };
  },
};

/** `options.path`, else `$XDG_STATE_HOME/agent-hooks/audit.jsonl` (`~/.local/state/...`). */
export function auditLogPath(options: AuditLogOptions, context: GuardContext): string {
  const home = context.env.HOME || os.homedir();
  if (options.path !== undefined) {
    const expanded = options.path === '~' || options.path.startsWith('~/') ? path.join(home, options.path.slice(1)) : options.path;
    return path.resolve(context.projectDir, expanded);
  }
  const state = context.env.XDG_STATE_HOME || path.join(home, '.local', 'state');
  return path.join(state, 'agent-hooks', 'audit.jsonl');
}

/** The records of one run: one per hook that ran, then one for the event's decision. */
export function auditRecords(
  run: ObservedRun,
  at: { now: Date; runId: string; pid: number; clean: (text: string | undefined) => string | undefined },
): Record<string, unknown>[] {
  const payload = run.event.payload;
  const base = {
    v: RECORD_VERSION,
    ts: at.now.toISOString(),
    runId: at.runId,
    pid: at.pid,
    event: run.event.name,
    ...(run.event.tool === undefined ? {} : { tool: run.event.tool.canonical, toolName: run.event.tool.name }),
    ...(typeof payload.session_id === 'string' ? { sessionId: payload.session_id } : {}),
    // A hash, not the payload: tool input and output may hold secrets.
    payloadHash: `sha256:${createHash('sha256').update(JSON.stringify(payload)).digest('hex')}`,
  };
  const hookRecords = run.hooks.map((h) => ({
    ...base,
    kind: 'hook',
    hook: h.id,
    source: h.source,
    outcome: h.outcome,
    ms: h.ms,
    ...(h.reason === undefined ? {} : { reason: at.clean(h.reason) }),
    ...(h.failure === undefined ? {} : { failure: h.failure.kind, failureMessage: at.clean(h.failure.message) }),
  }));
  const eventRecord = {
    ...base,
    kind: 'event',
    decision: run.decision,
    ...(run.reason === undefined ? {} : { reason: at.clean(run.reason) }),
    ...(run.decidedBy === undefined ? {} : { decidedBy: run.decidedBy }),
    hooks: run.hooks.length,
    ms: run.ms,
  };
  return [...hookRecords, eventRecord];
}
