// What a dialect remembers about the agent's own payload, carried on the event to its answer.
// A symbol key: object spread (the engine's rewrites) keeps it, JSON (what hooks get) never shows it.
import type { HookEvent } from '../types.js';
import { sameJson, type Json } from './record.js';

const ORIGIN = Symbol.for('agent-hooks.dialect-origin');

export interface Origin {
  dialect: string;
  /** The event in the agent's own spelling (`BeforeTool`, `beforeShellExecution`, `before:exec`). */
  agentEvent: string;
  /** The dialect's own notes (payload mode, MCP server, ...). */
  mode?: string;
  /** The tool input as the agent sent it, and how its fields were renamed for hooks. */
  input?: InputMapping;
  /** The part of the agent's payload the answer is built from (a model request, a tool list), as sent. */
  sent?: Json;
}

export interface InputMapping {
  /** The agent's input, untouched. */
  original: Json;
  /** What hooks saw: the agent's fields plus the Claude-named copies. */
  canonical: Json;
  /** Claude field name → the agent field it was copied from. */
  aliases: Record<string, string>;
}

export function withOrigin(event: HookEvent, origin: Origin): HookEvent {
  Object.defineProperty(event, ORIGIN, { value: origin, enumerable: true, configurable: true, writable: false });
  return event;
}

export function originOf(event: HookEvent): Origin | undefined {
  return (event as unknown as Record<symbol, Origin | undefined>)[ORIGIN];
}

/**
 * The agent's input with Claude-named copies of its fields (`path` → `file_path`), so a guard written for
 * Claude Code finds them; a field the agent already sends under the Claude name is left alone.
 */
export function aliasInput(original: Json, pairs: readonly (readonly [agentField: string, claudeField: string])[]): InputMapping {
  const canonical: Json = { ...original };
  const aliases: Record<string, string> = {};
  for (const [agentField, claudeField] of pairs) {
    if (original[agentField] === undefined || original[claudeField] !== undefined || claudeField in aliases) continue;
    canonical[claudeField] = original[agentField];
    aliases[claudeField] = agentField;
  }
  return { original, canonical, aliases };
}

/**
 * A rewritten input back in the agent's field names. The copies are dropped; a hook that changed a copy
 * (a Claude-style hook rewriting `file_path`) has its change moved onto the agent's field, and so has a
 * copy the hook kept while leaving out the agent's field (a Claude-style hook that answers a fresh
 * `{file_path, content}` object, with no `path`).
 */
export function unaliasInput(updated: Json, mapping: InputMapping | undefined): Json {
  if (mapping === undefined) return updated;
  const out: Json = { ...updated };
  for (const [claudeField, agentField] of Object.entries(mapping.aliases)) {
    const value = out[claudeField];
    delete out[claudeField];
    if (value === undefined) continue;
    if (out[agentField] === undefined || !sameJson(value, mapping.canonical[claudeField])) out[agentField] = value;
  }
  return out;
}
