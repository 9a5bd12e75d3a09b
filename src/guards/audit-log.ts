// Guard `audit-log`: one JSONL record per event and per hook decision, secrets redacted, appended so that
// concurrent runners (parallel tool calls) never interleave: each run is one write() to an O_APPEND file.
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EVENTS } from '../events/catalog.js';
import { isInside, stateDir } from '../paths.js';
import type { Guard, GuardContext, ObservedRun } from '../types.js';
import type { AuditLogOptions } from './audit-log/options.js';
import { createRedactor } from './redact-secrets/engine.js';
import { exists } from '../fs/exists.js';
import { recordedId } from '../events/ids.js';

export type { AuditLogOptions } from './audit-log/options.js';

const RECORD_VERSION = 1;

export const auditLog: Guard<AuditLogOptions> = {
  id: 'audit-log',
  summary: 'Appends one JSONL record per event and per hook decision (secrets redacted) to an audit log.',
  // Every event the catalog knows: an audit trail with gaps is not one.
  events: EVENTS.map((e) => e.name),
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
      const lines = auditRecords(run, { now: new Date(), runId: randomUUID(), pid: process.pid, clean, project: context.projectDir }).map((r) => JSON.stringify(r));
      appendRecords(file, `${lines.join('\n')}\n`, context.projectDir);
    };
  },
};

/** `options.path`, else `stateDir(env)/audit.jsonl` (`~/.local/state/agent-hooks/audit.jsonl`). */
export function auditLogPath(options: AuditLogOptions, context: GuardContext): string {
  if (options.path !== undefined) {
    const home = context.env.HOME || os.homedir();
    const expanded = options.path === '~' || options.path.startsWith('~/') ? path.join(home, options.path.slice(1)) : options.path;
    return path.resolve(context.projectDir, expanded);
  }
  return path.join(stateDir(context.env), 'audit.jsonl');
}

/** The file calls `appendRecords` makes; a test swaps `write` for one that stops short, as a full disk does. */
export interface AuditIo {
  write(fd: number, data: Buffer, offset: number, length: number): number;
}
const realIo: AuditIo = { write: (fd, data, offset, length) => writeSync(fd, data, offset, length) };

/**
 * Appends one run's records with one `write()` to an O_APPEND file, safely:
 * - never through a symlink (O_NOFOLLOW on the file; inside the project, no folder on the way may be one either:
 *   a repository planting `.hooks/audit.jsonl -> ~/.bashrc` must not get records appended to the shell profile),
 * - only to a regular file owned by the user (O_NONBLOCK, so a planted FIFO cannot hang the runner),
 * - created 0600 in folders created 0700,
 * - a short write (disk full, file size limit) is an error naming what was lost, and leaves a mark beside the
 *   log so that the next run starts its records on a fresh line.
 */
export function appendRecords(file: string, text: string, projectDir: string, io: AuditIo = realIo): void {
  const refuse = (why: string): never => {
    throw new Error(`refusing to write the audit log ${file}: ${why}`);
  };
  // Each folder between the project and the file, as a repository could have planted it: checked before
  // mkdir (which would follow a planted link to create folders elsewhere) and after it.
  const noLinkedFolder = () => {
    if (!isInside(projectDir, file)) return;
    for (let dir = path.dirname(file); dir !== projectDir && isInside(projectDir, dir); dir = path.dirname(dir)) {
      let linked = false;
      try {
        linked = lstatSync(dir).isSymbolicLink();
      } catch {
        // Not there yet: mkdir makes it a real folder.
      }
      if (linked) refuse(`${dir} is a symbolic link`);
    }
  };
  noLinkedFolder();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  noLinkedFolder();
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Linux says ELOOP for a symlink under O_NOFOLLOW; some BSDs say EMLINK or EFTYPE.
    if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE') return refuse('it is a symbolic link');
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) refuse('it is not a regular file');
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) refuse(`it is owned by uid ${stat.uid}, not by you (uid ${uid})`);
    // A run that tore its records left a mark beside the log: start on a fresh line. (Not "does the file end in
    // a newline": another runner's append may be half-copied at that moment, and that is no tear.)
    const torn = tornMark(file);
    const afterTear = stat.size > 0 && exists(torn);
    let data = Buffer.from(text, 'utf8');
    if (afterTear) data = Buffer.concat([Buffer.from('\n'), data]);
    const written = io.write(fd, data, 0, data.length);
    if (written < data.length) {
      markTorn(torn);
      throw new Error(`short write to the audit log ${file}: ${written} of ${data.length} bytes (disk full or file size limit?); this run's records are torn, the next run starts on a fresh line`);
    }
    if (afterTear) rmSync(torn, { force: true });
  } finally {
    closeSync(fd);
  }
}

/** The mark a torn write leaves beside the log. */
export function tornMark(file: string): string {
  return `${file}.torn`;
}


/** An empty file (it costs an inode, no data block: it can still be made on a full disk), never through a link. */
function markTorn(file: string): void {
  try {
    closeSync(openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600));
  } catch {
    // Nothing more can be done; the warning about the tear still reaches the user.
  }
}

/** A SHA-256 of the payload's JSON; an event too deep to serialize (it was not judged either) says so instead. */
function hashPayload(payload: unknown): string {
  try {
    return `sha256:${createHash('sha256').update(JSON.stringify(payload)).digest('hex')}`;
  } catch {
    return 'unavailable: the payload cannot be serialized';
  }
}

/** The records of one run: one per hook that ran, then one for the event's decision. */
export function auditRecords(
  run: ObservedRun,
  at: { now: Date; runId: string; pid: number; clean: (text: string | undefined) => string | undefined; project?: string },
): Record<string, unknown>[] {
  const payload = run.event.payload;
  const base = {
    v: RECORD_VERSION,
    ts: at.now.toISOString(),
    runId: at.runId,
    pid: at.pid,
    event: run.event.name,
    ...(run.event.tool === undefined ? {} : { tool: recordedId(run.event.tool.canonical), toolName: recordedId(run.event.tool.name) }),
    ...(typeof payload.session_id === 'string' ? { sessionId: recordedId(payload.session_id) } : {}),
    // The project folder the run's config was resolved for: what `hooks report` groups by.
    ...(at.project === undefined ? {} : { project: at.project }),
    // A hash, not the payload: tool input and output may hold secrets.
    payloadHash: hashPayload(payload),
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
    // Shadow mode: the answer that was reported and not applied.
    ...(h.wouldHave === undefined ? {} : { audit: true, wouldHave: h.wouldHave.outcome, ...(h.wouldHave.reason === undefined ? {} : { wouldHaveReason: at.clean(h.wouldHave.reason) }) }),
    // A prompt hook's judge: model, verdict, latency, tokens (the key is never in it).
    ...(h.judge === undefined ? {} : { judge: h.judge }),
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
