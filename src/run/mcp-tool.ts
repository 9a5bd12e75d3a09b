// `type: "mcp_tool"` hooks: `tool` of a configured MCP server is called with the hook's `input`, whose string
// values take `${path}` from the event JSON, and the tool's text is read as a command hook's stdout on exit 0
// (Claude Code 2.1.332, checked in its bundle): a server that is not configured or does not connect, a call
// that fails or times out, and `isError: true` are failures (blocking only under `onFailure: "block"`).
import type { EventSpec } from '../events/catalog.js';
import type { McpTarget } from '../mcp/target.js';
import { readProcessEnd, type Reading } from '../reply/interpret.js';
import { wholeMs } from './duration.js';

export interface McpToolSpec {
  server: string;
  tool: string;
  input: Record<string, unknown>;
  /** Absent: `missing` says why the server cannot be called. */
  target?: McpTarget;
  missing?: string;
  /** The event as the hook gets it (the `${path}` source). */
  event: unknown;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** `hooks test`: the tool's text as recorded in the case (no server is started); `null`: none recorded. */
  recorded?: string | null;
}

/** Bytes the `${path}` values may add to the input, as Claude Code caps them; past it the call is not made. */
export const INPUT_FILL_LIMIT = 1024 * 1024;

export async function runMcpTool(spec: McpToolSpec, event: EventSpec): Promise<Reading> {
  const where = `MCP tool ${spec.server}/${spec.tool}`;
  const args = fillInput(spec.input, spec.event, INPUT_FILL_LIMIT);
  if (args === undefined) return { ok: false, failure: { kind: 'error', message: `${where}: the event's values for the input are over ${INPUT_FILL_LIMIT} bytes; the tool was not called` } };
  if (spec.recorded !== undefined) {
    if (spec.recorded === null) return { ok: false, failure: { kind: 'error', message: 'the test case records no tool answer for this mcp_tool hook (add it under "judge"), and hooks test never starts a server' } };
    return readText(spec.recorded, event);
  }
  if (spec.target === undefined) return { ok: false, failure: { kind: 'error', message: `${spec.missing ?? `MCP server '${spec.server}' not connected`}` } };
  const { callTool, TOOL_TEXT_LIMIT } = await import('../mcp/client.js');
  const end = await callTool(spec.target, spec.tool, args, { timeoutMs: wholeMs(spec.timeoutMs), env: spec.env, ...(spec.signal === undefined ? {} : { signal: spec.signal }) });
  if (end.kind === 'timeout') return readProcessEnd({ kind: 'timeout', timeoutMs: wholeMs(spec.timeoutMs) }, event);
  if (end.kind === 'cancelled') return readProcessEnd({ kind: 'cancelled' }, event);
  if (end.kind === 'error') return { ok: false, failure: { kind: 'error', message: `${where}: MCP server '${spec.server}' not connected: ${end.message}` } };
  if (end.tooLarge) return readProcessEnd({ kind: 'too-large', stream: 'stdout', limit: TOOL_TEXT_LIMIT }, event);
  if (end.isError) return { ok: false, failure: { kind: 'error', message: `${where}: ${end.text.trim() === '' ? 'MCP tool returned an error' : `the tool returned an error: ${oneLine(end.text)}`}` } };
  return readText(end.text, event);
}

/**
 * The input with `${a.b.c}` in every string replaced from the event, as Claude Code does: a missing or null
 * value is empty, an object or array is its JSON, anything else its string. Undefined when the values put in
 * pass `limit` bytes (a huge tool_input must not be copied into every argument).
 */
export function fillInput(input: Record<string, unknown>, source: unknown, limit: number): Record<string, unknown> | undefined {
  let added = 0;
  const lookup = (path: string): unknown => {
    let at: unknown = source;
    for (const key of path.split('.')) {
      if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, key)) return undefined;
      at = (at as Record<string, unknown>)[key];
    }
    return at;
  };
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      return value.replace(/\$\{([a-zA-Z_][a-zA-Z0-9_.]*)\}/g, (_m, path: string) => {
        const found = lookup(path);
        if (added > limit || found === undefined || found === null) return '';
        const text = typeof found === 'object' ? JSON.stringify(found) : String(found);
        added += Buffer.byteLength(text);
        return text;
      });
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  const out = fill(input) as Record<string, unknown>;
  return added > limit ? undefined : out;
}

// --- internal ---

/** The tool's text, read as a command hook's stdout on exit 0 (JSON reply, or plain text). */
function readText(text: string, event: EventSpec): Reading {
  return readProcessEnd({ kind: 'exited', exitCode: 0, stdout: text, stderr: '' }, event);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
