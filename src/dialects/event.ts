// The canonical event a dialect hands to the engine: a Claude-format payload plus the tool's names.
import { HooksError } from '../errors.js';
import type { EventSpec } from '../events/catalog.js';
import { canonicalTool } from '../events/tools.js';
import type { HookEvent, HookInput } from '../types.js';
import { withOrigin, type Origin } from './origin.js';

export interface CanonicalOptions {
  /** The tool's canonical name, when the agent spells an MCP tool its own way. */
  canonical?: string;
  /** The agent's key for the tool name, for the error when it is missing (default `tool_name`). */
  toolKey?: string;
}

/** `payload` must already be in Claude Code's format; `hook_event_name` is set here. */
export function canonicalEvent(spec: EventSpec, payload: Omit<HookInput, 'hook_event_name'>, origin: Origin, options: CanonicalOptions = {}): HookEvent {
  const input: HookInput = { ...payload, hook_event_name: spec.claude };
  if (!spec.tool) return withOrigin({ name: spec.name, payload: input }, origin);
  const toolName = input.tool_name;
  if (typeof toolName !== 'string' || toolName === '') {
    throw new HooksError('EVENT_INVALID', `stdin: ${origin.agentEvent} needs a "${options.toolKey ?? 'tool_name'}" (the tool's name, a non-empty string)`);
  }
  return withOrigin({ name: spec.name, payload: input, tool: { name: toolName, canonical: options.canonical ?? canonicalTool(toolName) } }, origin);
}

/** `mcp__<server>__<tool>`, the canonical spelling of an MCP tool, when the server is known. */
export function mcpName(server: string | undefined, tool: string): string {
  return server === undefined || server === '' ? tool : `mcp__${server}__${tool}`;
}
