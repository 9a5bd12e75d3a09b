// The gateway's judgement of MCP traffic: a tools/list result, a tools/call before it reaches the server
// and its result after, each run through the project's config by the same engine as `hooks run`. The
// MCP shapes become events and the decisions become MCP answers through the docker-mcp dialect (its
// payloads are these very messages), so a hook sees the same payload behind `hooks mcp` as behind the
// Docker MCP gateway. Where this gateway can do more than an interceptor can (pass rewritten arguments
// on, carry context to the model), it does it here.
import { randomUUID } from 'node:crypto';
import type { Decision } from '../../decide/combine.js';
import type { Answer } from '../../dialects/dialect.js';
import { dockerMcp } from '../../dialects/docker-mcp.js';
import { mcpName } from '../../dialects/event.js';
import { callToolResult, isCallToolResult } from '../../dialects/mcp-result.js';
import { userWarnings } from '../../dialects/warnings.js';
import type { Runner, RunOptions } from '../../engine.js';
import { isRecord, type Json } from '../../json.js';
import type { HookEvent } from '../../types.js';

/** An MCP tool definition, as much of it as the gateway reads. */
export interface ToolDefinition {
  name: string;
  [key: string]: unknown;
}

export interface ListVerdict {
  /** The definitions offered to the client: the server's, less the withheld ones, in the server's order. */
  tools: ToolDefinition[];
  /** Tool name → why it is not offered. */
  withheld: Map<string, string>;
}

export type CallVerdict =
  /** Call the server with these arguments; `context` rides along the result. */
  | { kind: 'call'; arguments: Json; context: string[] }
  /** Answer the client with this result; the server is not called. */
  | { kind: 'answer'; result: Json };

export interface GatewayJudge {
  list(tools: readonly ToolDefinition[]): Promise<ListVerdict>;
  before(tool: string, args: Json): Promise<CallVerdict>;
  after(tool: string, args: Json, result: Json, context: readonly string[]): Promise<Json>;
}

export interface JudgeOptions {
  runner: Runner;
  /** The server's name as the client knows it (`mcp__<server>__<tool>`). */
  server: string;
  /** The project folder the session works in (the payload's `cwd`). */
  cwd: string;
  /** One line for the client's MCP log (our stderr). */
  log: (line: string) => void;
  run?: RunOptions;
}

/**
 * Hooks see a call to `read_file` of server `fs` as `mcp__fs__read_file` (Claude Code's name), and a
 * `match` may name it so or by its bare name: the event's tool name is the bare one, its canonical the
 * full one, and matching tries both.
 */
export function gatewayJudge(options: JudgeOptions): GatewayJudge {
  const { runner, server, cwd, log } = options;
  // One session per gateway process: the metadata bag carries between the calls of one client.
  const session = `mcp-gateway-${randomUUID()}`;
  const extra = { cwd, session_id: session };

  const run = (event: HookEvent): Promise<Decision> => runner.run(event, options.run);
  // The dialect's stderr: the hooks' own lines (a gateway's logging hooks write there on success), then
  // the warnings, each already one line.
  const logAnswer = (answer: Answer) => {
    for (const line of answer.stderr.split('\n')) if (line !== '') log(line.replace(/^agent-hooks: /, ''));
  };

  return {
    async list(listed) {
      // A name listed twice is two definitions under one pin: neither is offered.
      const seen = new Map<string, number>();
      for (const t of listed) seen.set(t.name, (seen.get(t.name) ?? 0) + 1);
      const twice = new Map([...seen].filter(([, n]) => n > 1).map(([name]) => [name, 'the server lists this tool more than once, with no way to tell which definition a call runs']));
      for (const [name, reason] of twice) log(`withheld tool ${JSON.stringify(mcpName(server, name))}: ${reason}`);
      const tools = listed.filter((t) => !twice.has(t.name));
      const event = withPayload(dockerMcp.toEvent({ result: { tools }, server }, 'tools/list'), extra);
      const decision = await run(event);
      const answer = dockerMcp.answer(decision);
      logAnswer(answer);
      const withheld = new Map<string, string>(twice);
      if (answer.stdout === '') return { tools, withheld };
      const kept = new Set(keptNames(answer.stdout));
      const why = decision.reason ?? 'a hook took it away';
      for (const tool of tools) {
        if (kept.has(tool.name)) continue;
        withheld.set(tool.name, why);
        log(`withheld tool ${JSON.stringify(mcpName(server, tool.name))}: ${why}`);
      }
      return { tools: tools.filter((t) => kept.has(t.name)), withheld };
    },

    async before(tool, args) {
      const event = toolEvent(dockerMcp.toEvent({ method: 'tools/call', params: { name: tool, arguments: args }, server }, 'before'), tool, extra);
      const decision = await run(event);
      // An interceptor cannot pass rewritten arguments on; this gateway calls the server itself, so it can.
      if (decision.decision === 'modify' && decision.updatedOutput === undefined && decision.updatedInput !== undefined) {
        for (const line of [...hookLines(decision), ...userWarnings(decision)]) log(line);
        log(`${decidedBy(decision)}rewrote the arguments of ${mcpName(server, tool)}`);
        return { kind: 'call', arguments: decision.updatedInput as Json, context: decision.additionalContext };
      }
      const answer = dockerMcp.answer({ ...decision, additionalContext: [] });
      logAnswer(answer);
      if (answer.stdout === '') return { kind: 'call', arguments: args, context: decision.additionalContext };
      const result = parseResult(answer.stdout);
      if (result.isError === true) log(`refused ${mcpName(server, tool)}: ${decision.reason ?? resultTextOf(result)}`);
      else log(`${decidedBy(decision)}answered ${mcpName(server, tool)} itself; the server was not called`);
      return { kind: 'answer', result };
    },

    async after(tool, args, result, context) {
      const response = context.length === 0 ? result : withContext(result, context);
      const event = toolEvent(dockerMcp.toEvent({ request: { method: 'tools/call', params: { name: tool, arguments: args } }, response, server }, 'after'), tool, extra);
      const decision = await run(event);
      const answer = dockerMcp.answer(decision);
      logAnswer(answer);
      if (answer.stdout === '') return response;
      const changed = parseResult(answer.stdout);
      if (decision.decision === 'block' || decision.decision === 'halt') log(`withheld the result of ${mcpName(server, tool)}: ${decision.reason ?? 'a hook blocked it'}`);
      else log(`${decidedBy(decision)}rewrote the result of ${mcpName(server, tool)}`);
      return changed;
    },
  };

  function toolEvent(event: HookEvent, tool: string, more: Json): HookEvent {
    // Spread keeps the dialect's origin (a symbol key); the tool's names are the bare and the full one.
    return { ...withPayload(event, more), tool: { name: tool, canonical: mcpName(server, tool) } };
  }
}

function withPayload(event: HookEvent, more: Json): HookEvent {
  return { ...event, payload: { ...event.payload, ...more } };
}

/** What hooks that exited 0 wrote on stderr, as the dialect's answer would give it. */
function hookLines(decision: Decision): string[] {
  return decision.results.flatMap((r) => (r.reply.stderr === undefined || r.reply.stderr === '' ? [] : r.reply.stderr.split('\n').filter((l) => l !== '')));
}

function decidedBy(decision: Decision): string {
  const ids = decision.results.filter((r) => r.reply.decision !== 'continue').map((r) => r.id);
  return ids.length === 0 ? 'hooks ' : `hook ${ids.map((id) => JSON.stringify(id)).join(', ')} `;
}

/** The tool names of the dialect's `{tools}` answer. */
function keptNames(stdout: string): string[] {
  const parsed: unknown = JSON.parse(stdout);
  const tools = isRecord(parsed) && Array.isArray(parsed.tools) ? parsed.tools : [];
  return tools.flatMap((t) => (isRecord(t) && typeof t.name === 'string' ? [t.name] : []));
}

function parseResult(stdout: string): Json {
  return callToolResult(JSON.parse(stdout));
}

function resultTextOf(result: Json): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content.map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : '')).join(' ') || 'a hook refused the call';
}

/** The hooks' context as text blocks after the result's own. */
function withContext(result: Json, context: readonly string[]): Json {
  const base = isCallToolResult(result) ? result : callToolResult(result);
  return { ...base, content: [...(base.content as Json[]), ...context.map((text) => ({ type: 'text', text }))] };
}
