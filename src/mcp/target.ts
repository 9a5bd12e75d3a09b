// An MCP server as a config names it for an mcp_tool hook (plain data: it is kept in the config cache).
import type { LayerName } from '../config/load.js';

export type McpTarget = (
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd: string }
  | { transport: 'http'; url: string; headers: Record<string, string> }
) & {
  /** The layer and file that define it: trust and traces name them. */
  layer: LayerName;
  file: string;
};

/** One line for traces, `hooks trust` and `list`: what starts or where the call goes. */
export function describeTarget(target: McpTarget): string {
  if (target.transport === 'http') return target.url;
  return [target.command, ...target.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ');
}

/** What an mcp_tool hook calls, and the server behind the name (or why there is none). */
export function mcpToolRuns(run: { server: string; tool: string; target?: McpTarget; missing?: string }): string {
  const server = run.target === undefined ? `not callable: ${run.missing ?? 'no server'}` : `${run.target.transport === 'http' ? 'POST' : 'starts'} ${describeTarget(run.target)}, from ${run.target.file}`;
  return `MCP tool ${run.server}/${run.tool} (${server})`;
}
