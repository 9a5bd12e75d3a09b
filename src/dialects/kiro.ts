// The kiro dialect: Kiro CLI's hooks. Agent files (`.kiro/agents/*.json`) name camelCase events
// (`agentSpawn`, `preToolUse`, ...); standalone v3 hook files (`.kiro/hooks/*.json`) name PascalCase
// triggers (`SessionStart`, `PreToolUse`, ...). Both send a Claude-like payload (`hook_event_name`,
// `cwd`, `tool_name`, `tool_input`, `tool_response`) with Kiro's tool names (`execute_bash`, `fs_write`).
// Kiro reads no JSON back: exit 2 blocks (PreToolUse, and v3's UserPromptSubmit) with stderr going to the
// model; stdout on exit 0 is added to the context on agentSpawn and userPromptSubmit.
import { canonicalTool } from '../events/tools.js';
import { resolveAgentEvent, type EventTable } from './agent-events.js';
import type { Dialect } from './dialect.js';
import { exitCodeAnswer, type ExitCodeAgent } from './exit-code-answer.js';
import { canonicalEvent } from './event.js';
import { aliasInput, type InputMapping } from './origin.js';
import { argsObject, isRecord, requireRecord, stringField, type Json } from './record.js';

// v3's PreTaskExec, PostTaskExec, PostFileCreate/Save/Delete and Manual have no catalog event: forward path.
export const KIRO_EVENTS: EventTable = {
  agentSpawn: 'sessionStart',
  userPromptSubmit: 'userPromptSubmit',
  preToolUse: 'preToolUse',
  postToolUse: 'postToolUse',
  stop: 'stop',
  SessionStart: 'sessionStart',
  UserPromptSubmit: 'userPromptSubmit',
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  Stop: 'stop',
};

/** Kiro's built-in tools under the canonical names they share with other agents. */
const TOOLS: Readonly<Record<string, string>> = {
  execute_bash: 'exec',
  execute_cmd: 'exec',
  shell: 'exec',
  fs_read: 'read',
  read: 'read',
  fs_write: 'write',
  write: 'write',
  web_fetch: 'web_fetch',
  web_search: 'web_search',
};

const INPUT_ALIASES = [['path', 'file_path']] as const;

/** The camelCase events no other agent sends without its own marks (Cursor's carry conversation ids). */
const OWN = new Set(['agentSpawn', 'userPromptSubmit', 'preToolUse', 'postToolUse', 'stop']);

/** Where Kiro takes a block: exit 2 on these, in either spelling. */
const BLOCKING = new Set(['preToolUse', 'userPromptSubmit']);

/** Where Kiro adds a hook's stdout (exit 0) to the context. */
const CONTEXT = new Set(['sessionStart', 'userPromptSubmit']);

export const kiro: Dialect = {
  name: 'kiro',
  // Checked after cursor and copilot: a camelCase hook_event_name with neither's marks.
  detect: (raw) =>
    isRecord(raw) && typeof raw.hook_event_name === 'string' && OWN.has(raw.hook_event_name) && raw.conversation_id === undefined && raw.session_id === undefined,
  toEvent(raw, eventName) {
    const payload = requireRecord(raw);
    const { spec, agentEvent } = resolveAgentEvent('kiro', KIRO_EVENTS, eventName, stringField(payload, 'hook_event_name'));
    const input: Json = { ...payload };
    let canonical: string | undefined;
    let mapping: InputMapping | undefined;
    if (spec.tool) {
      // fs_read and fs_write name the file `path`: guards look for Claude's `file_path`.
      mapping = aliasInput(argsObject(payload.tool_input, 'tool_input'), INPUT_ALIASES);
      withBatchPaths(mapping.canonical);
      input.tool_input = mapping.canonical;
      const tool = stringField(payload, 'tool_name');
      if (tool !== undefined) canonical = Object.hasOwn(TOOLS, tool) ? TOOLS[tool]! : canonicalTool(tool);
    }
    return canonicalEvent(spec, input, { dialect: 'kiro', agentEvent, ...(mapping === undefined ? {} : { input: mapping }) }, canonical === undefined ? {} : { canonical });
  },
  answer: (decision) => exitCodeAnswer(decision, KIRO_EVENTS, KIRO),
};

/**
 * fs_read's batch form names its files in `operations[].path` (`{operations: [{mode: 'Line', path}]}`):
 * listed as `paths` too, where a guard looks for every file a call touches, so no read in a batch goes
 * unjudged. Kiro answers by exit code only (no rewritten input goes back), so the extra field never reaches it.
 */
function withBatchPaths(input: Json): void {
  const ops = input.operations;
  if (!Array.isArray(ops) || input.paths !== undefined) return;
  const paths = ops.flatMap((op) => (isRecord(op) && typeof op.path === 'string' ? [op.path] : []));
  if (paths.length > 0) input.paths = paths;
}

const KIRO: ExitCodeAgent = {
  agent: 'Kiro',
  noun: 'call',
  verb: 'denied',
  blocks: (spec) => BLOCKING.has(spec.name),
  context: (spec) => CONTEXT.has(spec.name),
  contextNote: 'Kiro takes context only on agentSpawn and userPromptSubmit',
};

