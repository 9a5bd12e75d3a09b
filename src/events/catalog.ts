// The event catalog: every event the runner knows, its three spellings and what hooks may do on it.
// Adding an event is adding one entry here. The flags say what Claude Code 2.1.332 itself reads back on
// each event (checked against its bundled code, not only its docs): the reply reader, the combiner and
// the claude-code dialect all take their per-event behaviour from here.
import { closest } from '../suggest.js';
import type { EventName } from '../types.js';

export interface EventSpec {
  /** Config-key spelling, used inside the library. */
  name: EventName;
  /** CLI spelling (`hooks run pre-tool-use`). */
  cli: string;
  /** Claude Code spelling (`hook_event_name`). */
  claude: string;
  /**
   * False for an event the catalog does not list (a newer agent's): its hooks run as an observe event,
   * and a block is answered in the agent's generic blocking form (see `eventFor`).
   */
  known: boolean;
  /**
   * `intercept`: hooks run as a chain, each sees the payload as rewritten before it.
   * `observe`: every matching hook runs concurrently on the same payload.
   */
  mode: 'intercept' | 'observe';
  /** The payload carries `tool_name` and `tool_input`. */
  tool: boolean;
  /** A block has an effect (for stop events: "do not stop yet"). */
  canBlock: boolean;
  /**
   * How Claude Code takes a block on this event: `permissionDecision: "deny"` (PreToolUse,
   * PreModelSwitch), top-level `decision: "block"`, PermissionRequest's `decision.behavior: "deny"`,
   * Elicitation's `action: "decline"`, or exit 2 alone (TeammateIdle, TaskCompleted, WorktreeCreate).
   */
  blockAs: 'permissionDecision' | 'decision' | 'permissionRequest' | 'elicitation' | 'exit2' | 'none';
  /** `ask` is meaningful (a permission prompt). */
  canAsk: boolean;
  /** `hookSpecificOutput.permissionDecision` is read here (Claude Code reads it nowhere else). */
  permissionDecision: boolean;
  /** `permissionDecision: "defer"` is meaningful (PreToolUse in `-p` mode). */
  canDefer: boolean;
  /** `continue: false` stops the agent here; where false, Claude Code ignores it (PreCompact, TaskCreated). */
  canHalt: boolean;
  /** The reply field a `modify` carries on this event, if the event can be rewritten. */
  rewrites?: 'updatedInput' | 'prompt' | 'updatedOutput' | 'updatedRequest' | 'updatedResponse';
  /** `additionalContext` reaches the model (on Stop/SubagentStop it keeps the turn going). */
  context: boolean;
  /** Plain (non-JSON) stdout of a successful hook is added as context, as in Claude Code. */
  plainStdoutIsContext: boolean;
  /** Plain stdout of a successful hook is this `hookSpecificOutput` field (WorktreeCreate's path). */
  plainStdoutField?: string;
  /**
   * `hookSpecificOutput` fields Claude Code reads on this event that agent-hooks does not interpret:
   * kept from every hook's reply (later hooks win, lists are joined) and passed on to the agent.
   */
  passthrough: readonly string[];
}

type Flags = Omit<EventSpec, 'name' | 'cli' | 'claude' | 'mode'>;

const spec = (s: Pick<EventSpec, 'name' | 'cli' | 'claude' | 'mode'> & Partial<Flags>): EventSpec => ({
  known: true,
  tool: false,
  canBlock: false,
  blockAs: s.canBlock === true ? 'decision' : 'none',
  canAsk: false,
  permissionDecision: false,
  canDefer: false,
  canHalt: true,
  context: false,
  plainStdoutIsContext: false,
  passthrough: [],
  ...s,
});

export const EVENTS: readonly EventSpec[] = [
  spec({ name: 'preToolUse', cli: 'pre-tool-use', claude: 'PreToolUse', mode: 'intercept', tool: true, canBlock: true, blockAs: 'permissionDecision', canAsk: true, permissionDecision: true, canDefer: true, rewrites: 'updatedInput', context: true }),
  spec({ name: 'postToolUse', cli: 'post-tool-use', claude: 'PostToolUse', mode: 'intercept', tool: true, canBlock: true, rewrites: 'updatedOutput', context: true, passthrough: ['classifierContext'] }),
  spec({ name: 'userPromptSubmit', cli: 'user-prompt-submit', claude: 'UserPromptSubmit', mode: 'intercept', canBlock: true, rewrites: 'prompt', context: true, plainStdoutIsContext: true, passthrough: ['sessionTitle', 'suppressOriginalPrompt'] }),
  // Stop's context is non-error feedback that keeps the turn going, as a block's reason does.
  spec({ name: 'stop', cli: 'stop', claude: 'Stop', mode: 'observe', canBlock: true, context: true }),
  spec({ name: 'subagentStop', cli: 'subagent-stop', claude: 'SubagentStop', mode: 'observe', canBlock: true, context: true }),
  // Claude Code blocks compaction on exit 2 or `decision: "block"` and ignores `continue: false` here.
  spec({ name: 'preCompact', cli: 'pre-compact', claude: 'PreCompact', mode: 'observe', canBlock: true, canHalt: false }),
  spec({ name: 'sessionStart', cli: 'session-start', claude: 'SessionStart', mode: 'observe', context: true, plainStdoutIsContext: true, passthrough: ['initialUserMessage', 'sessionTitle', 'watchPaths', 'reloadSkills'] }),
  // Claude Code discards SessionEnd's output.
  spec({ name: 'sessionEnd', cli: 'session-end', claude: 'SessionEnd', mode: 'observe', canHalt: false }),
  spec({ name: 'notification', cli: 'notification', claude: 'Notification', mode: 'observe' }),
  // A block here is feedback to the model next to the error, as on PostToolUse.
  spec({ name: 'postToolUseFailure', cli: 'post-tool-use-failure', claude: 'PostToolUseFailure', mode: 'observe', tool: true, canBlock: true, context: true }),
  // --- the rest of Claude Code 2.1.328's events ---
  // Before the permission prompt: `hookSpecificOutput.decision.behavior` allow (with `updatedInput`,
  // `updatedPermissions`) or deny (with `message`, `interrupt`). Exit 2 alone does not deny here.
  spec({ name: 'permissionRequest', cli: 'permission-request', claude: 'PermissionRequest', mode: 'intercept', tool: true, canBlock: true, blockAs: 'permissionRequest', rewrites: 'updatedInput' }),
  // After the auto-mode classifier refused a call: `retry: true` lets the model try again.
  spec({ name: 'permissionDenied', cli: 'permission-denied', claude: 'PermissionDenied', mode: 'observe', tool: true, passthrough: ['retry'] }),
  // After every tool call of one model turn: a block stops the loop before the next model call.
  spec({ name: 'postToolBatch', cli: 'post-tool-batch', claude: 'PostToolBatch', mode: 'observe', canBlock: true, context: true }),
  spec({ name: 'postCompact', cli: 'post-compact', claude: 'PostCompact', mode: 'observe' }),
  spec({ name: 'subagentStart', cli: 'subagent-start', claude: 'SubagentStart', mode: 'observe', context: true }),
  spec({ name: 'setup', cli: 'setup', claude: 'Setup', mode: 'observe', context: true }),
  spec({ name: 'userPromptExpansion', cli: 'user-prompt-expansion', claude: 'UserPromptExpansion', mode: 'observe', canBlock: true, context: true, plainStdoutIsContext: true, passthrough: ['suppressOriginalPrompt'] }),
  // API errors end the turn: output is ignored.
  spec({ name: 'stopFailure', cli: 'stop-failure', claude: 'StopFailure', mode: 'observe', canHalt: false }),
  // Exit 2 keeps the teammate working; `continue: false` stops it.
  spec({ name: 'teammateIdle', cli: 'teammate-idle', claude: 'TeammateIdle', mode: 'observe', canBlock: true, blockAs: 'exit2' }),
  // Exit 2 or `decision: "block"` rolls the task back; `continue: false` is ignored.
  spec({ name: 'taskCreated', cli: 'task-created', claude: 'TaskCreated', mode: 'observe', canBlock: true, canHalt: false }),
  spec({ name: 'taskCompleted', cli: 'task-completed', claude: 'TaskCompleted', mode: 'observe', canBlock: true, blockAs: 'exit2' }),
  // A block keeps the settings change from applying (not for policy settings).
  spec({ name: 'configChange', cli: 'config-change', claude: 'ConfigChange', mode: 'observe', canBlock: true }),
  spec({ name: 'cwdChanged', cli: 'cwd-changed', claude: 'CwdChanged', mode: 'observe', passthrough: ['watchPaths'] }),
  spec({ name: 'fileChanged', cli: 'file-changed', claude: 'FileChanged', mode: 'observe', passthrough: ['watchPaths'] }),
  // Replaces `git worktree add`: the hook prints the new worktree's path; any failure fails the creation.
  spec({ name: 'worktreeCreate', cli: 'worktree-create', claude: 'WorktreeCreate', mode: 'observe', canBlock: true, blockAs: 'exit2', plainStdoutField: 'worktreePath', passthrough: ['worktreePath'] }),
  spec({ name: 'worktreeRemove', cli: 'worktree-remove', claude: 'WorktreeRemove', mode: 'observe' }),
  spec({ name: 'instructionsLoaded', cli: 'instructions-loaded', claude: 'InstructionsLoaded', mode: 'observe' }),
  spec({ name: 'directoryAdded', cli: 'directory-added', claude: 'DirectoryAdded', mode: 'observe' }),
  // `displayContent` changes what the user sees, never what the model saw.
  spec({ name: 'messageDisplay', cli: 'message-display', claude: 'MessageDisplay', mode: 'observe', passthrough: ['displayContent'] }),
  // An MCP server asks the user for input: `action` accept (with `content`), decline or cancel.
  spec({ name: 'elicitation', cli: 'elicitation', claude: 'Elicitation', mode: 'observe', canBlock: true, blockAs: 'elicitation', passthrough: ['action', 'content'] }),
  spec({ name: 'elicitationResult', cli: 'elicitation-result', claude: 'ElicitationResult', mode: 'observe', canBlock: true, blockAs: 'elicitation', passthrough: ['action', 'content'] }),
  // `permissionDecision` allow / deny / ask (no defer, no rewrite); a block cancels the switch.
  spec({ name: 'preModelSwitch', cli: 'pre-model-switch', claude: 'PreModelSwitch', mode: 'observe', canBlock: true, blockAs: 'permissionDecision', canAsk: true, permissionDecision: true }),
  spec({ name: 'postModelSwitch', cli: 'post-model-switch', claude: 'PostModelSwitch', mode: 'observe', context: true }),
  // Before a skill's inline `!`shell`` command runs (Claude Code 2.1.332): a tool payload (tool_name Bash or
  // PowerShell, tool_input.command) plus command_name, command_source, invoked_by. deny, ask and defer all
  // keep the command from running; a rewrite is refused, so none is offered.
  spec({ name: 'preSkillShellCommand', cli: 'pre-skill-shell-command', claude: 'PreSkillShellCommand', mode: 'intercept', tool: true, canBlock: true, blockAs: 'permissionDecision', permissionDecision: true }),
  // Codex's: the user interrupted the turn (Codex 0.171 reads back only systemMessage).
  spec({ name: 'interrupt', cli: 'interrupt', claude: 'Interrupt', mode: 'observe', canHalt: false }),
  // pi's and oh-my-pi's (extension events, no Claude Code equivalent). A block cancels a change of session:
  // a new or resumed session, a fork or branch, a move in the session tree (`reason`). Answered as
  // preModelSwitch is (`permissionDecision` allow / deny / ask; an ask is a confirm in the agent's UI).
  spec({ name: 'preSessionSwitch', cli: 'pre-session-switch', claude: 'PreSessionSwitch', mode: 'observe', canBlock: true, blockAs: 'permissionDecision', canAsk: true, permissionDecision: true, canHalt: false }),
  // oh-my-pi's, as compaction writes its summary: additionalContext (or plain stdout) goes to the summarizer.
  spec({ name: 'preCompactSummary', cli: 'pre-compact-summary', claude: 'PreCompactSummary', mode: 'observe', canHalt: false, context: true, plainStdoutIsContext: true }),
  // An agent run (one prompt) and each model turn in it starting and ending: observe only, as pi reads
  // nothing back there (oh-my-pi's turn-ending gate, session_stop, is `stop`).
  spec({ name: 'agentStart', cli: 'agent-start', claude: 'AgentStart', mode: 'observe', canHalt: false }),
  spec({ name: 'agentEnd', cli: 'agent-end', claude: 'AgentEnd', mode: 'observe', canHalt: false }),
  spec({ name: 'turnStart', cli: 'turn-start', claude: 'TurnStart', mode: 'observe', canHalt: false }),
  spec({ name: 'turnEnd', cli: 'turn-end', claude: 'TurnEnd', mode: 'observe', canHalt: false }),
  // Model-level events (Gemini CLI's BeforeModel, AfterModel, BeforeToolSelection; library callers):
  // the payload's `model_request` / `model_response` are described in events/model-request.ts. A block on
  // beforeToolSelection leaves the call with no tools at all.
  spec({ name: 'beforeModel', cli: 'before-model', claude: 'BeforeModel', mode: 'intercept', canBlock: true, rewrites: 'updatedRequest' }),
  spec({ name: 'afterModel', cli: 'after-model', claude: 'AfterModel', mode: 'intercept', canBlock: true, rewrites: 'updatedResponse' }),
  spec({ name: 'beforeToolSelection', cli: 'before-tool-selection', claude: 'BeforeToolSelection', mode: 'intercept', canBlock: true, rewrites: 'updatedRequest' }),
];

/** Events only other agents send (Codex's; pi's and oh-my-pi's): `install claude-code` registers none of them. */
export const NOT_CLAUDE_CODE: readonly EventName[] = ['interrupt', 'preSessionSwitch', 'preCompactSummary', 'agentStart', 'agentEnd', 'turnStart', 'turnEnd'];

const bySpelling = new Map<string, EventSpec>();
for (const e of EVENTS) for (const n of [e.name, e.cli, e.claude]) bySpelling.set(n, e);

/**
 * Other agents' names for a catalog event, as a config key. One that means the same event is accepted
 * as it (`list` shows the hook under the catalog's name, with a note); one that is the event for one
 * kind of tool only (Cursor's `beforeShellExecution`) is refused with the key and match to use instead:
 * taken as the plain event it would run on every tool, which is not what its author wrote.
 */
export const EVENT_ALIASES: Readonly<Record<string, { event: EventName; agent: string; onlyTool?: string }>> = {
  BeforeTool: { event: 'preToolUse', agent: 'Gemini CLI' },
  AfterTool: { event: 'postToolUse', agent: 'Gemini CLI' },
  BeforeAgent: { event: 'userPromptSubmit', agent: 'Gemini CLI' },
  AfterAgent: { event: 'stop', agent: 'Gemini CLI' },
  PreCompress: { event: 'preCompact', agent: 'Gemini CLI' },
  beforeSubmitPrompt: { event: 'userPromptSubmit', agent: 'Cursor' },
  userPromptSubmitted: { event: 'userPromptSubmit', agent: 'Copilot' },
  agentStop: { event: 'stop', agent: 'Copilot' },
  preToolCall: { event: 'preToolUse', agent: 'another agent' },
  postToolCall: { event: 'postToolUse', agent: 'another agent' },
  beforeShellExecution: { event: 'preToolUse', agent: 'Cursor', onlyTool: 'exec' },
  beforeMCPExecution: { event: 'preToolUse', agent: 'Cursor', onlyTool: 'mcp__*' },
  beforeReadFile: { event: 'preToolUse', agent: 'Cursor', onlyTool: 'read' },
  afterShellExecution: { event: 'postToolUse', agent: 'Cursor', onlyTool: 'exec' },
  afterMCPExecution: { event: 'postToolUse', agent: 'Cursor', onlyTool: 'mcp__*' },
  afterFileEdit: { event: 'postToolUse', agent: 'Cursor', onlyTool: 'edit' },
};

/** The note a hook filed under another agent's name for its event carries (`list`, `explain`). */
export function aliasNote(key: string): string | undefined {
  const alias = Object.hasOwn(EVENT_ALIASES, key) ? EVENT_ALIASES[key] : undefined;
  return alias === undefined || alias.onlyTool !== undefined ? undefined : `filed under "${key}", ${alias.agent}'s name for ${alias.event}: runs on ${alias.event} from every agent`;
}

/** Finds a known event by any of its three spellings. */
export function findEvent(spelling: string): EventSpec | undefined {
  return bySpelling.get(spelling);
}

/** The catalog entry of an event name (an unknown event's plain observe entry). */
export function eventSpec(name: EventName): EventSpec {
  return bySpelling.get(name) ?? unknownEvent(name);
}

/**
 * An agent's event with no equivalent here, by its own spelling: the forward path (its hooks run under
 * that name, a block is passed on in the agent's generic form), without the typo check of `eventFor`,
 * since the agent's own table vouches for the name.
 */
export function forwardEvent(spelling: string): EventSpec {
  return bySpelling.get(spelling) ?? unknownEvent(spelling);
}

/** Every accepted spelling, for error messages. */
export function eventSpellings(): string[] {
  return EVENTS.map((e) => e.cli);
}

/**
 * Any spelling as an event: a known event, an unknown one (run as a plain observe event: an agent
 * newer than this catalog must not turn every hook off), or why the name cannot be an event. A name
 * one or two letters from a known event is taken for a typo of it, never for a new event: a guard
 * filed under `preToolUs` must be an error, not a hook that silently never runs.
 */
export function eventFor(spelling: string): { ok: true; spec: EventSpec } | { ok: false; message: string; suggestion?: string } {
  const known = bySpelling.get(spelling);
  if (known !== undefined) return { ok: true, spec: known };
  const alias = Object.hasOwn(EVENT_ALIASES, spelling) ? EVENT_ALIASES[spelling] : undefined;
  if (alias !== undefined && alias.onlyTool === undefined) return { ok: true, spec: bySpelling.get(alias.event)! };
  if (alias !== undefined) {
    return {
      ok: false,
      message: `"${spelling}" is ${alias.agent}'s ${alias.event} for one kind of tool: file the hook under "${alias.event}" with "match": "${alias.onlyTool}"`,
    };
  }
  const typo = typoOf(spelling);
  if (typo !== undefined) return { ok: false, message: `unknown event "${spelling}" (did you mean "${typo}"?)`, suggestion: typo };
  if (!EVENT_NAME.test(spelling)) {
    return { ok: false, message: `"${spelling.length > 60 ? `${spelling.slice(0, 60)}…` : spelling}" is not an event name (letters and digits, in camelCase, PascalCase or kebab-case)` };
  }
  return { ok: true, spec: unknownEvent(spelling) };
}

/**
 * An event name sent by the agent itself (its payload's `hook_event_name`): a known event, or one newer
 * than this catalog on the forward path. No typo check: the agent is not a user who can mistype, and a
 * new event one letter from a known one (`SubagentStarted`) rejected as a typo would be a runner error,
 * so no hook runs, not even `*`. The typo check stays for names a user writes (config keys, command line).
 */
export function agentSentEvent(spelling: string): { ok: true; spec: EventSpec } | { ok: false; message: string } {
  const known = bySpelling.get(spelling);
  if (known !== undefined) return { ok: true, spec: known };
  const alias = Object.hasOwn(EVENT_ALIASES, spelling) ? EVENT_ALIASES[spelling] : undefined;
  if (alias !== undefined && alias.onlyTool === undefined) return { ok: true, spec: bySpelling.get(alias.event)! };
  if (!EVENT_NAME.test(spelling)) {
    return { ok: false, message: `"${spelling.length > 60 ? `${spelling.slice(0, 60)}…` : spelling}" is not an event name (letters and digits, in camelCase, PascalCase or kebab-case)` };
  }
  return { ok: true, spec: unknownEvent(spelling) };
}

// --- internal ---

/**
 * camelCase, PascalCase or kebab-case words, as agents name their events: 64 characters at most, as the
 * name goes into every record of the run (audit log, live page, span names) and an agent sends it.
 */
const EVENT_NAME = /^(?=.{1,64}$)(?:[A-Za-z][A-Za-z0-9]*|[a-z][a-z0-9]*(?:-[a-z0-9]+){1,15})$/;

const unknown = new Map<string, EventSpec>();

/**
 * An unknown event's entry: its hooks observe, and a block or halt is passed on in the agent's generic
 * blocking form (Claude Code: exit 2, reason on stderr), so the agent applies its own semantics. A newer
 * agent's guard event must not fail open until this catalog catches up.
 */
function unknownEvent(spelling: string): EventSpec {
  const words = spelling.includes('-') ? spelling.split('-') : spelling.split(/(?=[A-Z])/);
  const lower = words.map((w) => w.toLowerCase()).filter((w) => w !== '');
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const claude = lower.map(cap).join('');
  const cached = unknown.get(claude);
  if (cached !== undefined) return cached;
  const entry: EventSpec = {
    ...spec({ name: lower.map((w, i) => (i === 0 ? w : cap(w))).join('') as EventName, cli: lower.join('-'), claude, mode: 'observe' }),
    known: false,
    canBlock: true,
    blockAs: 'exit2',
  };
  // Bounded: an agent sending a fresh name per event must not grow the runner's memory (serve mode).
  if (unknown.size < 256) unknown.set(claude, entry);
  return entry;
}

/** The known spelling a name is most likely a typo of: same letters in another case, or one or two edits away. */
function typoOf(spelling: string): string | undefined {
  const lower = spelling.toLowerCase().replace(/[-_]/g, '');
  for (const e of EVENTS) {
    // Suggested in the spelling the name was written in.
    if (e.claude.toLowerCase() === lower) return inStyleOf(spelling, e);
  }
  // Other agents' names too: a typo of `BeforeTool` is no more a new event than one of `preToolUse`.
  const hit = closest(spelling, [...bySpelling.keys(), ...Object.keys(EVENT_ALIASES)]);
  if (hit === undefined) return undefined;
  const d = editDistance(spelling.toLowerCase(), hit.toLowerCase());
  if (d > (spelling.length >= 8 ? 2 : 1)) return undefined;
  const spec = bySpelling.get(hit);
  return spec === undefined ? hit : inStyleOf(spelling, spec);
}

/** The event's spelling in the style `spelling` is written in (kebab, camel or Pascal case). */
function inStyleOf(spelling: string, e: EventSpec): string {
  return spelling.includes('-') ? e.cli : /^[a-z]/.test(spelling) ? e.name : e.claude;
}

/** Levenshtein distance, for telling a typo of an event name from a new event. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
