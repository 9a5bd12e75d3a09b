// The gateway's wiring: an MCP server to the client and an MCP client to the upstream server, both the
// official SDK's low-level classes, with tools judged (judge.ts) and resources, prompts, completions and
// logs passed through as they are. Capabilities, server info and instructions are the upstream's own,
// so the client sees the server it configured, less what the hooks withheld.
import type { Json } from '../../json.js';
import type { Transport } from '../sdk.js';
import type { GatewayJudge, ToolDefinition } from './judge.js';

/** A tools/list past these is refused whole: a hostile server must not make the gateway pin without end. */
export const LIST_LIMITS = { pages: 100, tools: 10_000 };

/** A tool call may take as long as the client lets it; the client's cancel reaches the server. */
const CALL_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export interface GatewayOptions {
  judge: GatewayJudge;
  upstream: Transport;
  downstream: Transport;
  /** One line for the client's MCP log (our stderr; never stdout, which is the protocol). */
  log: (line: string) => void;
  version: string;
}

export interface Gateway {
  /** Settles when either side closes; then both are closed. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Connects to the upstream server, then serves the client; resolves once both are connected. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const sdk = await import('../sdk.js');
  const { judge, log } = options;
  const client = new sdk.Client({ name: 'agent-hooks-mcp-gateway', version: options.version }, { capabilities: {} });
  await client.connect(options.upstream);
  const caps = client.getServerCapabilities() ?? {};
  const info = client.getServerVersion() ?? { name: 'mcp-server', version: '0' };
  const instructions = client.getInstructions();
  const capabilities: Json = {};
  for (const key of ['tools', 'resources', 'prompts', 'logging', 'completions'] as const) if (caps[key] !== undefined) capabilities[key] = caps[key];
  const server = new sdk.Server(info, { capabilities, ...(instructions === undefined ? {} : { instructions }) });

  // The last judged list: what the client was offered and what was withheld. Undefined until one is
  // judged, and again after the server says its list changed: a call then lists (and judges) first.
  let offered: Map<string, ToolDefinition> | undefined;
  let withheld = new Map<string, string>();
  // Counts the server's list_changed: a list fetched before one that arrives while it is judged is stale,
  // and must not become `offered` (the next call would run the changed tool unjudged).
  let changes = 0;

  const listTools = async (signal?: AbortSignal): Promise<ToolDefinition[]> => {
    const all: ToolDefinition[] = [];
    const generation = changes;
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= LIST_LIMITS.pages) throw new Error(`the server's tools/list goes on past ${LIST_LIMITS.pages} pages; refused`);
      const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, sdk.ListToolsResultSchema, { ...(signal === undefined ? {} : { signal }) });
      all.push(...(result.tools as ToolDefinition[]));
      if (all.length > LIST_LIMITS.tools) throw new Error(`the server lists more than ${LIST_LIMITS.tools} tools; refused`);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    const verdict = await judge.list(all);
    if (generation === changes) {
      offered = new Map(verdict.tools.map((t) => [t.name, t]));
      withheld = verdict.withheld;
    }
    return verdict.tools;
  };

  if (caps.tools !== undefined) {
    server.setRequestHandler(sdk.ListToolsRequestSchema, async (_request, extra) => {
      try {
        return { tools: (await listTools(extra.signal)) as never };
      } catch (error) {
        throw refusal('tools/list', error, log, sdk);
      }
    });

    server.setRequestHandler(sdk.CallToolRequestSchema, async (request, extra) => {
      const name = request.params.name;
      const args = (request.params.arguments ?? {}) as Json;
      const refused = (text: string) => {
        log(`refused ${name}: ${text}`);
        return { content: [{ type: 'text' as const, text }], isError: true };
      };
      let verdict;
      try {
        // A list_changed may land while this list is judged; then it is listed again (a server that
        // changes on every list gets refused, never passed through).
        for (let tries = 0; offered === undefined; tries++) {
          if (tries === 3) throw new Error('the server changed its tool list while each list was being judged');
          await listTools(extra.signal);
        }
        if (withheld.has(name)) return refused(`agent-hooks withheld the tool "${name}": ${withheld.get(name)!}`);
        if (!offered!.has(name)) return refused(`agent-hooks: the server did not offer a tool "${name}" in its last tools/list; the call was not passed on`);
        const seen = changes;
        verdict = await judge.before(name, args);
        // The list changed while the call was judged: the tool may not be the one judged; list and judge again.
        if (changes !== seen) {
          for (let tries = 0; offered === undefined; tries++) {
            if (tries === 3) throw new Error('the server changed its tool list while each list was being judged');
            await listTools(extra.signal);
          }
          if (withheld.has(name)) return refused(`agent-hooks withheld the tool "${name}": ${withheld.get(name)!}`);
          if (!offered!.has(name)) return refused(`agent-hooks: the server no longer offers a tool "${name}"; the call was not passed on`);
        }
      } catch (error) {
        return refused(`agent-hooks could not judge this call, so it was not made: ${message(error)}`);
      }
      if (verdict.kind === 'answer') return verdict.result as never;
      const token = request.params._meta?.progressToken;
      let result: Json;
      try {
        result = (await client.request(
          { method: 'tools/call', params: { name, arguments: verdict.arguments } },
          sdk.CallToolResultSchema,
          {
            signal: extra.signal,
            timeout: CALL_TIMEOUT_MS,
            ...(token === undefined ? {} : { resetTimeoutOnProgress: true, onprogress: (p) => void extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken: token } }) }),
          },
        )) as Json;
      } catch (error) {
        if (extra.signal.aborted) throw error;
        // The server's JSON-RPC error is the server's text too (it may quote a token): it reaches the client
        // only as an error result that postToolUse judged, like any other result.
        // Not logged with its text: the log is not redacted.
        log(`the server answered ${name} with a JSON-RPC error; it goes on as an error result, through the hooks`);
        result = { content: [{ type: 'text', text: message(error) }], isError: true };
      }
      try {
        return (await judge.after(name, verdict.arguments, result, verdict.context)) as never;
      } catch (error) {
        // The result is not passed on unjudged: it may hold what a postToolUse hook would have taken out.
        return refused(`agent-hooks could not judge the result of this call, so it is withheld: ${message(error)}`);
      }
    });

    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, async () => {
      changes++;
      offered = undefined;
      await server.sendToolListChanged();
    });
  }

  if (caps.resources !== undefined) {
    server.setRequestHandler(sdk.ListResourcesRequestSchema, (r, extra) => client.listResources(r.params, { signal: extra.signal }));
    server.setRequestHandler(sdk.ListResourceTemplatesRequestSchema, (r, extra) => client.listResourceTemplates(r.params, { signal: extra.signal }));
    server.setRequestHandler(sdk.ReadResourceRequestSchema, (r, extra) => client.readResource(r.params, { signal: extra.signal }));
    if (caps.resources.subscribe === true) {
      server.setRequestHandler(sdk.SubscribeRequestSchema, (r, extra) => client.subscribeResource(r.params, { signal: extra.signal }));
      server.setRequestHandler(sdk.UnsubscribeRequestSchema, (r, extra) => client.unsubscribeResource(r.params, { signal: extra.signal }));
    }
    client.setNotificationHandler(sdk.ResourceListChangedNotificationSchema, () => server.sendResourceListChanged());
    client.setNotificationHandler(sdk.ResourceUpdatedNotificationSchema, (n) => server.sendResourceUpdated(n.params));
  }
  if (caps.prompts !== undefined) {
    server.setRequestHandler(sdk.ListPromptsRequestSchema, (r, extra) => client.listPrompts(r.params, { signal: extra.signal }));
    server.setRequestHandler(sdk.GetPromptRequestSchema, (r, extra) => client.getPrompt(r.params, { signal: extra.signal }));
    client.setNotificationHandler(sdk.PromptListChangedNotificationSchema, () => server.sendPromptListChanged());
  }
  if (caps.completions !== undefined) server.setRequestHandler(sdk.CompleteRequestSchema, (r, extra) => client.complete(r.params, { signal: extra.signal }));
  if (caps.logging !== undefined) {
    server.setRequestHandler(sdk.SetLevelRequestSchema, async (r, extra) => client.setLoggingLevel(r.params.level, { signal: extra.signal }));
    client.setNotificationHandler(sdk.LoggingMessageNotificationSchema, (n) => server.sendLoggingMessage(n.params));
  }

  // A line the server sends that is not JSON-RPC is dropped by the SDK; it is said, not swallowed.
  client.onerror = (error) => log(`upstream server: ${message(error)}`);
  server.onerror = (error) => log(`client: ${message(error)}`);

  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  let closing = false;
  const close = async () => {
    if (closing) return closed;
    closing = true;
    await Promise.allSettled([client.close(), server.close()]);
    done();
    return closed;
  };
  client.onclose = () => {
    if (!closing) log('the upstream server closed the connection; the gateway stops');
    void close();
  };
  server.onclose = () => void close();
  await server.connect(options.downstream);
  return { closed, close };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A list the gateway could not judge is refused as a JSON-RPC error (the client shows it), and logged. */
function refusal(method: string, error: unknown, log: (line: string) => void, sdk: typeof import('../sdk.js')): Error {
  const text = `agent-hooks could not judge the server's ${method}, so none of it is offered: ${message(error)}`;
  log(text);
  return new sdk.McpError(sdk.ErrorCode.InternalError, text);
}
