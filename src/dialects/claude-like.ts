// Agents that copied Claude Code's hook protocol with small differences: their own tool names, a few
// events renamed or missing, their own marks in the payload. One dialect per agent, built from a table
// row, so a difference is a line here and not a copy of the claude-code dialect.
import { claudeEventNames, resolveAgentEvent, type EventTable } from './agent-events.js';
import { claudeStyleAnswer, type ClaudeProfile } from './claude-answer.js';
import type { Decision } from '../decide/combine.js';
import type { Answer, Dialect } from './dialect.js';
import { outputText } from './output.js';
import { canonicalEvent } from './event.js';
import { canonicalTool } from '../events/tools.js';
import { argsObject, isRecord, requireRecord, stringField, type Json } from './record.js';

export interface ClaudeLikeAgent {
  /** The dialect's name (`--dialect`). */
  name: string;
  profile: ClaudeProfile;
  /** The agent's event names; an event it adds later and this table lacks runs on the forward path. */
  events: EventTable;
  /** The agent's tool names that have a canonical equivalent under another spelling. */
  tools: Readonly<Record<string, string>>;
  /** True when a payload carries this agent's own marks (checked before claude-code's catch-all). */
  detect(raw: Json): boolean;
  /** PreToolUse `updatedInput` is applied (Qwen Code 0.24 reads it only on PermissionRequest). */
  takesRewrite: boolean;
  /**
   * How a rewritten tool output reaches the model: the profile's way, or (Qwen Code) PostToolUse
   * `continue: false` + `stopReason`, which replaces that call's result with the reason as an error.
   */
  outputByStop?: boolean;
}

/** A transcript under the agent's own folder (`~/.qwen/...`): its surest mark in a Claude-shaped payload. */
function transcriptUnder(raw: Json, folder: string): boolean {
  return new RegExp(`[\\\\/]${folder.replace('.', '\\.')}[\\\\/]`).test(stringField(raw, 'transcript_path') ?? '');
}

// PermissionRequest extras (interrupt, updatedInput, updatedPermissions, continue:false) are Claude Code's; none of
// these agents is known to take them, so a halt there is a plain deny and a rewrite a refusal (never dropped).
/** Claude Code's reply format minus what these agents were not seen to honour. */
const CLAUDE_LIKE = { canAsk: false, canDefer: false, canHaltPreToolUse: false, haltByExit2: true, outputRewrite: 'block-reason', rewriteNeedsAllow: true, permissionRequestExtras: false } as const;

/**
 * Qwen Code (`@qwen-code/qwen-code`): Claude's names and replies, Gemini's tool names, settings in
 * `.qwen/settings.json`, `$QWEN_PROJECT_DIR`, timeouts in seconds (0.24; earlier builds took milliseconds).
 */
export const QWEN_CODE: ClaudeLikeAgent = {
  name: 'qwen-code',
  profile: { ...CLAUDE_LIKE, agent: 'Qwen Code', canAsk: true, outputRewrite: 'updatedToolOutput', rewriteNeedsAllow: false, haltByExit2: false, canHaltPreToolUse: true },
  // MessageDisplay, SessionDelete, TodoCreated, TodoCompleted have no catalog event: forward path.
  events: {
    ...claudeEventNames(),
    PostToolBatch: 'postToolBatch',
    PostCompact: 'postCompact',
    SubagentStart: 'subagentStart',
    UserPromptExpansion: 'userPromptExpansion',
    PermissionRequest: 'permissionRequest',
    PermissionDenied: 'permissionDenied',
    StopFailure: 'stopFailure',
    InstructionsLoaded: 'instructionsLoaded',
  },
  tools: { grep_search: 'Grep', glob: 'Glob', list_directory: 'LS', todo_write: 'TodoWrite', agent: 'Task', skill: 'Skill', web_fetch: 'web_fetch', web_search: 'web_search', notebook_edit: 'edit', edit: 'edit' },
  detect: (raw) => transcriptUnder(raw, '.qwen'),
  takesRewrite: false,
  outputByStop: true,
};

/**
 * Factory Droid (`@factory/cli`, `droid`): Claude's names and replies, its own tool names (`Execute`,
 * `Create`, `FetchUrl`), settings in `.factory/settings.json`, `$FACTORY_PROJECT_DIR`, timeouts in seconds.
 */
export const FACTORY: ClaudeLikeAgent = {
  name: 'factory',
  profile: { ...CLAUDE_LIKE, agent: 'Factory Droid', canAsk: true, haltByExit2: false, canHaltPreToolUse: true, rewriteNeedsAllow: false, outputRewrite: 'updatedToolOutput' },
  events: claudeEventNames(['postToolUseFailure']),
  tools: { Execute: 'exec', Create: 'write', FetchUrl: 'web_fetch', ApplyPatch: 'apply_patch' },
  detect: (raw) => transcriptUnder(raw, '.factory'),
  takesRewrite: true,
};

/**
 * Augment (`@augmentcode/auggie`, its IDE plugins): Claude's tool events under Cursor-like payload keys
 * (`conversation_id`, `workspace_roots`, `is_mcp_tool`), `PromptSubmit` for UserPromptSubmit, its own
 * tool names (`launch-process`, `save-file`), `$AUGMENT_PROJECT_DIR`, timeouts in milliseconds.
 */
export const AUGMENT: ClaudeLikeAgent = {
  name: 'augment',
  profile: { ...CLAUDE_LIKE, agent: 'Augment' },
  events: {
    PreToolUse: 'preToolUse',
    PostToolUse: 'postToolUse',
    PromptSubmit: 'userPromptSubmit',
    UserPromptSubmit: 'userPromptSubmit',
    Stop: 'stop',
    SessionStart: 'sessionStart',
    SessionEnd: 'sessionEnd',
    Notification: 'notification',
  },
  tools: { 'launch-process': 'exec', view: 'read', 'save-file': 'write', 'str-replace-editor': 'edit', 'web-fetch': 'web_fetch', 'web-search': 'web_search', 'grep-search': 'Grep' },
  detect: (raw) => typeof raw.conversation_id === 'string' && Array.isArray(raw.workspace_roots) && raw.cursor_version === undefined && raw.generation_id === undefined,
  takesRewrite: true,
};

export const CLAUDE_LIKE_AGENTS: readonly ClaudeLikeAgent[] = [QWEN_CODE, FACTORY, AUGMENT];

export function claudeLikeDialect(agent: ClaudeLikeAgent): Dialect {
  return {
    name: agent.name,
    detect: (raw) => isRecord(raw) && typeof raw.hook_event_name === 'string' && agent.detect(raw),
    toEvent(raw, eventName) {
      const payload = requireRecord(raw);
      const { spec, agentEvent } = resolveAgentEvent(agent.name, agent.events, eventName, stringField(payload, 'hook_event_name'));
      const input: Json = { ...payload };
      if (input.session_id === undefined && typeof payload.conversation_id === 'string') input.session_id = payload.conversation_id;
      const roots = Array.isArray(payload.workspace_roots) ? payload.workspace_roots : [];
      if (input.cwd === undefined && typeof roots[0] === 'string') input.cwd = roots[0];
      let canonical: string | undefined;
      if (spec.tool) {
        input.tool_input = argsObject(payload.tool_input, 'tool_input');
        const tool = stringField(payload, 'tool_name');
        if (tool !== undefined) canonical = canonicalTool(Object.hasOwn(agent.tools, tool) ? agent.tools[tool]! : tool);
      }
      return canonicalEvent(spec, input, { dialect: agent.name, agentEvent }, canonical === undefined ? {} : { canonical });
    },
    answer: (decision) => answer(agent, decision),
  };
}

function answer(agent: ClaudeLikeAgent, decision: Decision): Answer {
  const { agent: who } = agent.profile;
  if (decision.decision === 'modify' && decision.updatedInput !== undefined && !agent.takesRewrite) {
    // Running the original would undo the rewrite (often a safety fix): the call is denied, and the model told why.
    const why = `a hook rewrote this call, and ${who} cannot take a rewritten tool input; it was denied${decision.reason ? ` (${decision.reason})` : ''}`;
    const { updatedInput: _dropped, ...rest } = decision;
    return claudeStyleAnswer({ ...rest, decision: 'block', reason: why, warnings: [...decision.warnings, why] }, agent.profile);
  }
  if (decision.updatedOutput !== undefined && agent.outputByStop === true && decision.event.name === 'postToolUse' && decision.decision === 'modify') {
    const { updatedOutput, ...rest } = decision;
    const base = claudeStyleAnswer({ ...rest, decision: 'continue' }, agent.profile);
    const out = base.stdout === '' ? {} : (JSON.parse(base.stdout) as Json);
    Object.assign(out, { continue: false, stopReason: outputText(updatedOutput.value) });
    return { ...base, stdout: `${JSON.stringify(out)}\n` };
  }
  return claudeStyleAnswer(decision, agent.profile);
}

export const qwenCode = claudeLikeDialect(QWEN_CODE);
export const factory = claudeLikeDialect(FACTORY);
export const augment = claudeLikeDialect(AUGMENT);
