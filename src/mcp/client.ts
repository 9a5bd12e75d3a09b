// One call of one tool of one MCP server, for an `mcp_tool` hook: connect (a stdio child or a Streamable HTTP
// endpoint), initialize, call, close. The runner lives for one event, so the connection does too (its cost:
// bench/mcp-tool.mjs). Every way it ends is a value; the server's child is closed on every path.
import type { McpTarget } from './target.js';

/** Characters of the tool's text kept; past that the answer cannot be read (as a command hook's stdout). */
export const TOOL_TEXT_LIMIT = 8 * 1024 * 1024;

export type CallEnd =
  /** `text`: the result's content as Claude Code reads it: text items joined by newlines, others as `[type]`. */
  | { kind: 'answered'; text: string; isError: boolean; tooLarge: boolean }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  /** Not connected: the server did not start, did not initialize, or has no such tool; or the call failed. */
  | { kind: 'error'; message: string };

export interface CallOptions {
  timeoutMs: number;
  /** The stdio server's environment (the runner's, without its secrets; the server's own `env` goes on top). */
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export async function callTool(target: McpTarget, tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallEnd> {
  if (options.signal?.aborted) return { kind: 'cancelled' };
  const sdk = await import('./sdk.js');
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), Math.max(1, Math.round(options.timeoutMs)));
  const signal = options.signal === undefined ? timeout.signal : AbortSignal.any([timeout.signal, options.signal]);
  const stderr: string[] = [];
  let transport: InstanceType<typeof sdk.StdioClientTransport> | InstanceType<typeof sdk.StreamableHTTPClientTransport>;
  if (target.transport === 'stdio') {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...options.env, ...target.env })) if (v !== undefined && !k.includes('=') && !k.includes('\0') && !v.includes('\0')) env[k] = v;
    const stdio = new sdk.StdioClientTransport({ command: target.command, args: target.args, env, cwd: target.cwd, stderr: 'pipe' });
    stdio.stderr?.on('data', (chunk: Buffer) => {
      // The last few lines are enough to say why a server died; a noisy server must not grow memory.
      stderr.push(chunk.toString('utf8'));
      if (stderr.length > 20) stderr.shift();
    });
    transport = stdio;
  } else {
    transport = new sdk.StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.headers, redirect: 'error' } });
  }
  const client = new sdk.Client({ name: 'agent-hooks', version: '1' }, { capabilities: {} });
  const deadline = Date.now() + options.timeoutMs;
  // The SDK's own request timeout (60 s by default) would cut a hook that may take 600 s: it gets what is left.
  const left = () => Math.max(1, deadline - Date.now());
  try {
    await withSignal(client.connect(transport, { signal, timeout: left() }), signal);
    const result = await withSignal(client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: left() }), signal);
    return readResult(result);
  } catch (error) {
    if (options.signal?.aborted) return { kind: 'cancelled' };
    if (timeout.signal.aborted) return { kind: 'timeout' };
    const said = oneLine(stderr.join('')).slice(-300);
    return { kind: 'error', message: `${oneLine(error instanceof Error ? error.message : String(error))}${said === '' ? '' : ` (server stderr: ${said})`}` };
  } finally {
    clearTimeout(timer);
    // Closing ends the child (stdin closed, then SIGTERM, then SIGKILL, in the SDK); never waited on past that.
    await client.close().catch(() => undefined);
  }
}

// --- internal ---

/** The tool's result as Claude Code 2.1.332 reads it (checked in its bundle). */
function readResult(result: unknown): CallEnd {
  const r = result as { content?: unknown; isError?: unknown };
  const parts: string[] = [];
  let size = 0;
  let tooLarge = false;
  for (const item of Array.isArray(r.content) ? r.content : []) {
    const piece = typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'text' && typeof (item as { text?: unknown }).text === 'string' ? (item as { text: string }).text : `[${String((item as { type?: unknown } | null)?.type)}]`;
    size += piece.length + 1;
    if (size > TOOL_TEXT_LIMIT) {
      tooLarge = true;
      break;
    }
    parts.push(piece);
  }
  return { kind: 'answered', text: parts.join('\n'), isError: r.isError === true, tooLarge };
}

/** The SDK does not always reject on abort (a child that never answers initialize): the signal settles it. */
function withSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
