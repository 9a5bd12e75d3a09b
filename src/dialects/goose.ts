// The goose dialect: goose's plugin hooks (`<plugin>/hooks/hooks.json`, the Open Plugins shape, which is
// Claude Code's). The payload is Claude-like with goose's own keys: `event` (not hook_event_name),
// `working_dir` (not cwd), `message` for the prompt, `tool_call_id`, and tools named `<extension>__<tool>`
// (`developer__shell`). goose reads only a block back, and only on PreToolUse and Stop: exit 2 with the
// reason on stderr. Its stdout is a decision channel: exit 0 with anything on stdout but nothing or
// `{"decision":"allow"}` is "no decision", which `on_failure: block` turns into a block, so this dialect
// never prints on stdout.
// Read from goose's documentation (documentation/docs/guides/context-engineering/hooks.md); goose is a
// Rust binary shipped on GitHub releases, not on npm or Debian, so no e2e test drives it here.
import { canonicalTool } from '../events/tools.js';
import { resolveAgentEvent, type EventTable } from './agent-events.js';
import type { Dialect } from './dialect.js';
import { exitCodeAnswer, type ExitCodeAgent } from './exit-code-answer.js';
import { canonicalEvent } from './event.js';
import { aliasInput, type InputMapping } from './origin.js';
import { argsObject, isRecord, requireRecord, stringField, type Json } from './record.js';

// PreToolUseResult and the file and shell events (BeforeReadFile, AfterFileEdit, BeforeShellExecution,
// AfterShellExecution) have no catalog event: forward path. goose emits no SubagentStart/SubagentStop.
export const GOOSE_EVENTS: EventTable = {
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  Stop: 'stop',
  UserPromptSubmit: 'userPromptSubmit',
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  PostToolUseFailure: 'postToolUseFailure',
  PreToolUseResult: null,
  BeforeReadFile: null,
  AfterFileEdit: null,
  BeforeShellExecution: null,
  AfterShellExecution: null,
};

/** goose's built-in developer tools under the canonical names they share with other agents. */
const TOOLS: Readonly<Record<string, string>> = {
  developer__shell: 'exec',
  developer__write: 'write',
  developer__edit: 'edit',
};

// developer__write and developer__edit name the file `path`, and the edit's text `before`/`after`.
const INPUT_ALIASES = [
  ['path', 'file_path'],
  ['before', 'old_string'],
  ['after', 'new_string'],
] as const;

/**
 * goose's own file tool, `developer__text_editor` (`{command, path, file_text | old_str, new_str |
 * insert_line, new_str}`): one tool name for reads, writes and edits, so its canonical tool is read from
 * `command`. A command not listed here (a newer goose, a missing or non-string one) is judged as a write:
 * "no file guard" must never be the answer to a file tool the dialect does not understand.
 */
const TEXT_EDITOR = 'developer__text_editor';
const TEXT_EDITOR_COMMANDS: Readonly<Record<string, string>> = {
  view: 'read',
  write: 'write',
  create: 'write',
  str_replace: 'edit',
  insert: 'edit',
  undo_edit: 'edit',
};
// Claude's names too, so a Claude-style hook finds the text; secret-write reads both spellings.
const TEXT_EDITOR_ALIASES = [
  ['path', 'file_path'],
  ['file_text', 'content'],
  ['old_str', 'old_string'],
  ['new_str', 'new_string'],
] as const;

function textEditorTool(input: Json): string {
  const command = input.command;
  return typeof command === 'string' && Object.hasOwn(TEXT_EDITOR_COMMANDS, command) ? TEXT_EDITOR_COMMANDS[command]! : 'write';
}

/** Where goose takes a block (exit 2): a PreToolUse denies the call, a Stop keeps the turn going. */
const BLOCKING = new Set(['preToolUse', 'stop']);

export const goose: Dialect = {
  name: 'goose',
  // goose's own envelope: `event` naming one of its events, a session id, and no hook_event_name.
  detect: (raw) =>
    isRecord(raw) && raw.hook_event_name === undefined && typeof raw.event === 'string' && Object.hasOwn(GOOSE_EVENTS, raw.event) && typeof raw.session_id === 'string',
  toEvent(raw, eventName) {
    const payload = requireRecord(raw);
    const { spec, agentEvent } = resolveAgentEvent('goose', GOOSE_EVENTS, eventName, stringField(payload, 'event'), 'event');
    const { event: _event, working_dir, message, tool_call_id, ...rest } = payload;
    const input: Json = { ...rest };
    if (typeof working_dir === 'string') input.cwd = working_dir;
    if (typeof message === 'string') input.prompt = message;
    if (typeof tool_call_id === 'string') input.tool_use_id = tool_call_id;
    let canonical: string | undefined;
    let mapping: InputMapping | undefined;
    if (spec.tool) {
      const tool = stringField(payload, 'tool_name');
      const args = argsObject(payload.tool_input, 'tool_input');
      mapping = aliasInput(args, tool === TEXT_EDITOR ? TEXT_EDITOR_ALIASES : INPUT_ALIASES);
      input.tool_input = mapping.canonical;
      if (tool === TEXT_EDITOR) canonical = textEditorTool(args);
      else if (tool !== undefined) canonical = Object.hasOwn(TOOLS, tool) ? TOOLS[tool]! : canonicalTool(tool);
    }
    return canonicalEvent(spec, input, { dialect: 'goose', agentEvent, ...(mapping === undefined ? {} : { input: mapping }) }, canonical === undefined ? {} : { canonical });
  },
  answer: (decision) => exitCodeAnswer(decision, GOOSE_EVENTS, GOOSE),
};

const GOOSE: ExitCodeAgent = {
  agent: 'goose',
  noun: 'call',
  verb: 'denied',
  blocks: (spec) => BLOCKING.has(spec.name),
  // goose reads no context from a hook; anything on stdout would read as "no decision".
  context: () => false,
  contextNote: 'goose takes no context from hooks',
};

