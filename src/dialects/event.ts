// The canonical event a dialect hands to the engine: a Claude-format payload plus the tool's names.
import { HooksError } from '../errors.js';
import type { EventSpec } from '../events/catalog.js';
import { canonicalTool } from '../events/tools.js';
import type { HookEvent, HookInput } from '../types.js';
import { withOrigin, type Origin } from './origin.js';

/**
 * `payload` must already be in Claude Code's format; `hook_event_name` is set here. `canonical`
 * overrides the tool's canonical name (MCP tools whose agent spells them its own way).
 */
export function canonicalEvent(spec: EventSpec, payload: Omit<HookInput, 'hook_event_name'>, origin: Origin, canonical?: string): HookEvent {
  const input: HookInput = { ...payload, hook_event_name: spec.claude };
  if (!spec.tool) return withOrigin({ name: spec.name, payload: input }, origin);
  const toolName = input.tool_name;
  if (typeof toolName !== 'string' || toolName === '') {
    throw new HooksError('EVENT_INVALID', `stdin: ${origin.agentEvent} needs a tool name`);
  }
  return withOrigin({ name: spec.name, payload: input, tool: { name: toolName, canonical: canonical ?? canonicalTool(toolName) } }, origin);
}

/** `mcp__<server>__<tool>`, the canonical spelling of an MCP tool, when the server is known. */
export function mcpName(server: string | undefined, tool: string): string {
  return server === undefined || server === '' ? tool : `mcp__${server}__${tool}`;
}
