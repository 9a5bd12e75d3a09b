// The windsurf dialect: Windsurf's Cascade hooks. A payload names its event in `agent_action_name` and
// carries the action in `tool_info` (`command_line`, `file_path`, the MCP server and tool, the prompt).
// Cascade reads no JSON back: exit 2 from a pre_* hook blocks, with stderr as the reason; everything else
// is observed only.
import { resolveAgentEvent, type EventTable } from './agent-events.js';
import type { Dialect } from './dialect.js';
import { exitCodeAnswer, type ExitCodeAgent } from './exit-code-answer.js';
import { canonicalEvent, mcpName } from './event.js';
import { argsObject, isRecord, requireRecord, stringField, type Json } from './record.js';

// post_setup_worktree and any later event have no catalog event: they run on the forward path.
export const WINDSURF_EVENTS: EventTable = {
  pre_run_command: 'preToolUse',
  pre_read_code: 'preToolUse',
  pre_write_code: 'preToolUse',
  pre_mcp_tool_use: 'preToolUse',
  post_run_command: 'postToolUse',
  post_read_code: 'postToolUse',
  post_write_code: 'postToolUse',
  post_mcp_tool_use: 'postToolUse',
  pre_user_prompt: 'userPromptSubmit',
  post_cascade_response: 'stop',
  post_cascade_response_with_transcript: 'stop',
};

/** The events whose exit 2 Cascade honours. */
const BLOCKING = new Set(['pre_run_command', 'pre_read_code', 'pre_write_code', 'pre_mcp_tool_use', 'pre_user_prompt']);

export const windsurf: Dialect = {
  name: 'windsurf',
  detect: (raw) => isRecord(raw) && typeof raw.agent_action_name === 'string' && typeof raw.trajectory_id === 'string',
  toEvent(raw, eventName) {
    const payload = requireRecord(raw);
    const said = stringField(payload, 'agent_action_name');
    const resolved = resolveAgentEvent('windsurf', WINDSURF_EVENTS, eventName, said === undefined ? undefined : forwardSpelling(said), 'agent_action_name');
    const { spec } = resolved;
    const agentEvent = said ?? resolved.agentEvent;
    const info = payload.tool_info === undefined ? {} : argsObject(payload.tool_info, 'tool_info');
    const input: Json = { ...payload, session_id: payload.trajectory_id };
    if (typeof info.cwd === 'string') input.cwd = info.cwd;
    let canonical: string | undefined;
    if (spec.tool) {
      const tool = toolOf(agentEvent, info);
      Object.assign(input, { tool_name: tool.name, tool_input: tool.input });
      canonical = tool.canonical;
    } else if (spec.name === 'userPromptSubmit') {
      input.prompt = info.user_prompt;
    } else if (spec.name === 'stop' && typeof info.response === 'string') {
      input.last_assistant_message = info.response;
    }
    return canonicalEvent(spec, input, { dialect: 'windsurf', agentEvent }, canonical === undefined ? {} : { canonical });
  },
  answer: (decision) => exitCodeAnswer(decision, WINDSURF_EVENTS, WINDSURF),
};

/**
 * Cascade's events are snake_case, which the catalog does not take as an event name: one newer than
 * this table (`post_setup_worktree`) is looked up in kebab-case, so it runs its hooks on the forward path.
 */
function forwardSpelling(name: string): string {
  return Object.hasOwn(WINDSURF_EVENTS, name) || !/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(name) ? name : name.replace(/_/g, '-');
}

/** The tool a Cascade event is about, in Claude's names (the agent's fields kept beside them). */
function toolOf(agentEvent: string, info: Json): { name: string; input: Json; canonical?: string } {
  switch (agentEvent) {
    case 'pre_run_command':
    case 'post_run_command':
      return { name: 'Bash', input: { ...info, command: info.command_line } };
    case 'pre_read_code':
    case 'post_read_code':
      return { name: 'Read', input: { ...info } };
    case 'pre_write_code':
    case 'post_write_code':
      return { name: 'Edit', input: { ...info } };
    default: {
      const server = stringField(info, 'mcp_server_name');
      const tool = stringField(info, 'mcp_tool_name') ?? 'mcp';
      const args = info.mcp_tool_arguments === undefined ? {} : argsObject(info.mcp_tool_arguments, 'tool_info.mcp_tool_arguments');
      return { name: mcpName(server, tool), input: args, canonical: mcpName(server, tool) };
    }
  }
}

const WINDSURF: ExitCodeAgent = {
  agent: 'Windsurf',
  noun: 'action',
  verb: 'blocked',
  blocks: (_spec, agentEvent) => BLOCKING.has(agentEvent),
  context: () => false,
  contextNote: 'Windsurf takes no context from hooks',
};

