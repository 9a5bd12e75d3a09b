// An agent whose hooks live in a JSON file with a `hooks` table (everything but opencode): the shared
// read → merge → write of our entries, configured per agent by its events and its handler shape.
import { eventSpec } from '../events/catalog.js';
import type { EventName } from '../types.js';
import { countOurs, installTable, uninstallTable, type EntryFormat } from './event-table.js';
import { formatSettings, hooksTable, parseSettings, sameDoc, type JsonObject } from './json-doc.js';
import { hookCommand, launcherWord } from './shell.js';
import { clientCommand, clientWord, httpHandler } from './serve.js';
import { FAIL_CLOSED_EVENTS, type AgentTarget, type Scope, type Where } from './target.js';

export interface JsonAgentSpec {
  name: string;
  /** The `--dialect` our command passes to `hooks run`. */
  dialect: string;
  file(scope: Scope, where: Where): string;
  projectDir: AgentTarget['projectDir'];
  failure: AgentTarget['failure'];
  /** The agent's event name → the event it runs, in the order they are written. */
  events: Readonly<Record<string, EventName>>;
  entries: EntryFormat;
  /** One list entry running `command`; `failClosed`: the agent should block when it fails (if it can say so). */
  entry(command: string, timeoutSeconds: number, event: EventName, failClosed: boolean, matcher?: string): JsonObject;
  /** With --serve --http, the agent calls the server over HTTP (Claude Code's `type: "http"`) instead of the client. */
  http?: boolean;
  /** Registers only the events of `InstallOptions.plan`, with its matchers and timeouts. */
  usesPlan?: boolean;
  /** Top-level keys a new file starts with (e.g. `version: 1`). */
  skeleton?: JsonObject;
  /** The file is ours alone (named after us): uninstall deletes it when nothing of the user's is left. */
  ownFile?: boolean;
  note?: string;
}

export function jsonAgent(spec: JsonAgentSpec): AgentTarget {
  return {
    name: spec.name,
    file: spec.file,
    projectDir: spec.projectDir,
    failure: spec.failure,
    ...(spec.note === undefined ? {} : { note: spec.note }),
    install(before, file, { launcher, timeoutSeconds, failClosed, plan, serve }) {
      const doc = parseSettings(before, file);
      const word = launcherWord(launcher, spec.projectDir.shell);
      const usePlan = spec.usesPlan === true && plan !== undefined;
      const desired = new Map(
        Object.entries(spec.events).flatMap(([agentEvent, event]) => {
          const planned = usePlan ? plan.get(event) : undefined;
          if (usePlan && planned === undefined) return [];
          const closed = failClosed && FAIL_CLOSED_EVENTS.has(event);
          const command = hookCommand(word, eventSpec(event).cli, spec.dialect, closed);
          const timeout = planned?.timeoutSeconds ?? timeoutSeconds;
          if (serve === undefined) return [[agentEvent, spec.entry(command, timeout, event, closed, planned?.matcher)] as const];
          // SessionStart stays a command (through the client), so a session starts the server when it is down.
          if (spec.http === true && serve.http !== undefined && event !== 'sessionStart') {
            return [[agentEvent, { ...(planned?.matcher === undefined ? {} : { matcher: planned.matcher }), hooks: [httpHandler(event, spec.dialect, { ...serve, http: serve.http }, timeout, closed)] }] as const];
          }
          return [[agentEvent, spec.entry(clientCommand(clientWord(launcher, spec.projectDir.shell), command, event, serve.whenDown), timeout, event, closed, planned?.matcher)] as const];
        }),
      );
      const table = installTable(hooksTable(doc, file) ?? {}, file, spec.entries, desired);
      const withHooks = { ...doc, hooks: table };
      // Keys the agent needs go in front when missing, and are never moved when the user has them.
      const updated = { ...missing(spec.skeleton, withHooks), ...withHooks };
      const entries = countOurs(table, spec.entries);
      // Unchanged: the file stays byte for byte as it was, formatting included.
      if (before !== undefined && sameDoc(doc, updated)) return { text: before, entries };
      return { text: formatSettings(updated, before), entries };
    },
    uninstall(before, file) {
      const doc = parseSettings(before, file);
      const table = hooksTable(doc, file);
      if (table === undefined) return { text: before, removed: 0 };
      const { table: kept, removed } = uninstallTable(table, file, spec.entries);
      if (removed === 0) return { text: before, removed };
      const updated: JsonObject = { ...doc, hooks: kept };
      // A `hooks` table only we filled goes with our entries.
      if (Object.keys(kept).length === 0) delete updated.hooks;
      if (spec.ownFile === true && isOnly(updated, spec.skeleton)) return { text: undefined, removed };
      // Nothing at all left: no `{}` stays behind (an empty settings file and none mean the same).
      if (Object.keys(updated).length === 0) return { text: undefined, removed };
      return { text: formatSettings(updated, before), removed };
    },
  };
}

/** The skeleton keys the document lacks, to be spread in front of it. */
function missing(skeleton: JsonObject | undefined, doc: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(skeleton ?? {}).filter(([key]) => !(key in doc)));
}

/** True when nothing but the skeleton is left. */
function isOnly(doc: JsonObject, skeleton: JsonObject | undefined): boolean {
  return Object.keys(doc).every((key) => skeleton !== undefined && key in skeleton && JSON.stringify(doc[key]) === JSON.stringify(skeleton[key]));
}
