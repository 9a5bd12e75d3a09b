// The config schema (zod): the single source of truth for `.hooksrc.json`, its types and its JSON Schema.
import { z } from 'zod';
import { EVENTS, eventFor } from '../events/catalog.js';
import { EVENT_GROUPS, findEventGroup } from '../events/groups.js';
import { closest } from '../suggest.js';
import { PROVIDERS, type Provider } from '../judge/target.js';

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');
const seconds = z.number().positive().max(3600);
const globs = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).meta({ id: 'globs' });

export const HandlerSchema = z
  .strictObject({
    id: z.string().regex(/^[\w.:@/-]+$/, 'use letters, digits and . _ - : @ /').optional().describe('Name for traces, HOOKS_SKIP and overrides; default: the script name or the guard id'),
    command: z.string().min(1).optional().describe('Shell command (sh -c), or the program when args is given'),
    args: z.array(z.string()).optional().describe('Arguments: runs command without a shell (exec form)'),
    builtin: z.string().min(1).optional().describe('A first-party guard run in-process: command-safety, sensitive-paths, redact-secrets, audit-log'),
    options: z.record(z.string(), z.unknown()).optional().describe('Options of the builtin guard; audit: true reports without blocking'),
    type: z.enum(['command', 'http', 'prompt', 'agent', 'mcp_tool']).optional().describe('Claude Code\'s handler type: command (default), http (POST the event to "url"), prompt (a model judges the event with "prompt"), agent (a verifier model with read-only tools over the project judges it) or mcp_tool (call "tool" of the MCP server "server" from mcpServers)'),
    match: globs.optional().describe('Tool globs: canonical (exec, read, write, edit, ...), agent names (Bash), group:fs, mcp__server__*, or a regex written /.../'),
    matchUnknownTools: z.boolean().optional().describe('true: match names tools agent-hooks cannot know (a plugin\'s tools, bare MCP tool names such as the Docker MCP gateway sends); its patterns are not checked against the known tool names'),
    matcher: z.string().optional().describe('Claude Code\'s matcher, read as Claude Code reads it: exact names split on | or , or else an unanchored regex'),
    if: z
      .union([z.record(z.string(), globs), z.string().min(1)])
      .optional()
      .describe('Globs on tool-input (or event) fields, e.g. {"command": "git push*"}; or Claude Code\'s permission rule, e.g. "Bash(git push*)"'),
    agent: globs.optional().describe('Globs on the acting agent (agent_type or agent_id of a subagent); "main" is the main agent'),
    url: z.url({ protocol: /^https?$/ }).optional().describe('type http: where the event JSON is POSTed'),
    prompt: z.string().min(1).optional().describe('type prompt or agent: what the judge model checks; $ARGUMENTS is replaced by the event JSON (appended when absent). The model answers {"ok": true|false, "reason": "..."}'),
    model: z.string().min(1).optional().describe('type prompt: the judge model; default defaults.judge.model, else Claude Code\'s small fast model (anthropic) or gpt-4o-mini (openai)'),
    provider: z.enum(PROVIDERS as [Provider, ...Provider[]]).optional().describe('type prompt: anthropic (Messages API, default) or openai (any OpenAI-compatible chat completions server: OpenAI, Ollama, llama.cpp)'),
    endpoint: z.url({ protocol: /^https?$/ }).optional().describe('type prompt, user or managed config only: the judge\'s base URL; default ANTHROPIC_BASE_URL / OPENAI_BASE_URL, else the provider\'s own'),
    apiKeyEnv: envName.optional().describe('type prompt, user or managed config only: the environment variable holding the key; default ANTHROPIC_API_KEY / OPENAI_API_KEY'),
    apiKeyFile: z.string().min(1).optional().describe('type prompt, user or managed config only: a file holding the key (yours, mode 0600); ~/ is your home folder'),
    maxTurns: z.number().int().min(1).max(200).optional().describe('type agent: model requests the verifier may make before it fails (max-turns, through onFailure); default 50, as Claude Code'),
    continueOnBlock: z.boolean().optional().describe('type prompt, Claude Code\'s continueOnBlock: ok false blocks without ending the turn (default false: it also ends the turn)'),
    server: z.string().min(1).optional().describe('type mcp_tool: the name of a server in mcpServers'),
    tool: z.string().min(1).optional().describe('type mcp_tool: the tool of that server to call'),
    input: z.record(z.string(), z.unknown()).optional().describe('type mcp_tool: the tool\'s arguments; string values take ${path} from the event JSON, e.g. "${tool_input.file_path}"'),
    headers: z.record(z.string(), z.string()).optional().describe('type http: request headers; $VAR / ${VAR} only for names in allowedEnvVars'),
    allowedEnvVars: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).optional().describe('type http: environment variables headers may use'),
    async: z.boolean().optional().describe('Claude Code\'s async: start the hook and do not wait; it cannot block or rewrite'),
    asyncRewake: z.boolean().optional().describe('Claude Code\'s asyncRewake: run like async (agent-hooks cannot wake the agent later)'),
    once: z.boolean().optional().describe('Claude Code honours once only in skill frontmatter; in a config the hook runs every time, as in Claude Code settings'),
    shell: z.enum(['bash', 'powershell']).optional().describe('Shell form: bash means the POSIX shell (/bin/sh, as Claude Code on Linux and macOS); powershell runs pwsh'),
    statusMessage: z.string().optional().describe('Claude Code\'s spinner text; shown in agent-hooks traces'),
    priority: z.number().int().optional().describe('Higher runs first; default 0'),
    timeout: seconds.optional().describe('Seconds; default 30'),
    onFailure: z.enum(['block', 'continue']).optional().describe('What a failure (crash, timeout, bad output) means; default continue, or block for a builtin guard on an intercepting event (and for a prompt hook whose session budget is spent)'),
    parallel: z.boolean().optional().describe('Run at the same time as adjacent parallel hooks, on the same payload'),
    env: z.record(z.string(), z.string()).optional().describe('Environment variables for the command, on top of defaults.env'),
    cwd: z.string().min(1).optional().describe('Working directory, relative to the config file; default the project folder'),
    enabled: z.boolean().optional().describe('false keeps the entry but never runs it'),
    audit: z.boolean().optional().describe('Shadow mode: the hook runs and what it would have decided is reported (--verbose, explain, audit log); nothing it answers is applied'),
  })
  .superRefine((h, ctx) => {
    const commandless = h.type === 'prompt' || h.type === 'agent' || h.type === 'mcp_tool';
    if (commandless && (h.command !== undefined || h.builtin !== undefined || h.url !== undefined)) {
      ctx.addIssue({ code: 'custom', message: `type "${h.type}" runs no command, builtin or url`, path: ['type'] });
    }
    if ((h.type === 'prompt' || h.type === 'agent') && h.prompt === undefined) {
      ctx.addIssue({ code: 'custom', message: `type "${h.type}" needs "prompt": what the judge model checks`, path: ['prompt'] });
    }
    for (const key of ['prompt', 'model', 'provider', 'endpoint', 'apiKeyEnv', 'apiKeyFile'] as const) {
      if (h[key] !== undefined && h.type !== 'prompt' && h.type !== 'agent') ctx.addIssue({ code: 'custom', message: `"${key}" needs type "prompt" or "agent"`, path: [key] });
    }
    if (h.type === 'mcp_tool' && (h.server === undefined || h.tool === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'type "mcp_tool" needs "server" (a name in mcpServers) and "tool"', path: [h.server === undefined ? 'server' : 'tool'] });
    }
    for (const key of ['server', 'tool', 'input'] as const) {
      if (h[key] !== undefined && h.type !== 'mcp_tool') ctx.addIssue({ code: 'custom', message: `"${key}" needs type "mcp_tool"`, path: [key] });
    }
    if (h.continueOnBlock !== undefined && h.type !== 'prompt') ctx.addIssue({ code: 'custom', message: '"continueOnBlock" needs type "prompt"', path: ['continueOnBlock'] });
    if (h.maxTurns !== undefined && h.type !== 'agent') ctx.addIssue({ code: 'custom', message: '"maxTurns" needs type "agent"', path: ['maxTurns'] });
    if (h.command !== undefined && h.builtin !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'use either "command" or "builtin", not both', path: ['builtin'] });
    }
    if (h.type === 'http' && (h.url === undefined || h.command !== undefined || h.builtin !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'type "http" needs "url" (and no "command" or "builtin")', path: ['url'] });
    }
    if (h.url !== undefined && h.type !== 'http') {
      ctx.addIssue({ code: 'custom', message: '"url" needs type "http"', path: ['type'] });
    }
    if (h.match !== undefined && h.matcher !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'use either "match" or Claude Code\'s "matcher", not both', path: ['matcher'] });
    }
    if (h.args !== undefined && h.command === undefined) {
      ctx.addIssue({ code: 'custom', message: '"args" needs "command"', path: ['args'] });
    }
    if (h.options !== undefined && h.builtin === undefined) {
      ctx.addIssue({ code: 'custom', message: '"options" needs "builtin"', path: ['options'] });
    }
  })
  .meta({ id: 'hook', description: 'One hook: a command (shell or exec form) or a builtin guard, and when it runs' });

const HookList = z.array(HandlerSchema).meta({ id: 'hookList', description: 'Hooks for this event, in order' });

export const DefaultsSchema = z
  .strictObject({
  timeout: seconds.optional(),
  onFailure: z.enum(['block', 'continue']).optional(),
  env: z.record(z.string(), z.string()).optional(),
  judge: z
    .strictObject({
      provider: z.enum(PROVIDERS as [Provider, ...Provider[]]).optional(),
      model: z.string().min(1).optional(),
      endpoint: z.url({ protocol: /^https?$/ }).optional().describe('User or managed config only: the judge\'s base URL'),
      apiKeyEnv: envName.optional().describe('User or managed config only: the environment variable holding the key'),
      apiKeyFile: z.string().min(1).optional().describe('User or managed config only: a file holding the key (yours, mode 0600)'),
      budget: z.number().int().min(0).max(1_000_000).optional().describe('User or managed config only: model requests one session may make (default 200); past it a prompt hook fails (onFailure)'),
    })
    .optional()
    .describe('Defaults of the prompt hooks (type prompt): provider, model; endpoint, key variable and budget only in the user or managed config'),
  stopLoopLimit: z
    .number()
    .int()
    .min(0)
    .max(1000)
    .optional()
    .describe('Stop/SubagentStop blocks in a row with stop_hook_active before the runner lets the stop through (default 3; 0: never). The most trusted layer that sets it decides'),
  })
  .meta({ id: 'defaults', description: 'Defaults for the hooks of this file' });

/**
 * Every event, in each of its three spellings, and every wildcard key, so editors complete them from
 * the JSON Schema. An event the catalog does not know (a newer agent's) is accepted and its hooks run
 * as an observe event; a key that is a likely typo of a known event, or no event name at all, is an
 * error with a suggestion.
 */
const HooksSchema = z
  .object(
    Object.fromEntries([
      ...EVENTS.flatMap((e) =>
        [e.name, e.cli, e.claude].map((key) => [key, HookList.optional()] as const),
      ),
      ...EVENT_GROUPS.map((g) => [g.key, HookList.optional().describe(`Hooks for ${g.summary}; each runs on the events it fits, after the event's own hooks`)] as const),
    ]),
  )
  .catchall(HookList)
  .superRefine((hooks, ctx) => {
    for (const key of Object.keys(hooks)) {
      if (findEventGroup(key) !== undefined) continue;
      if (key.startsWith('group:') || key.includes('*')) {
        const group = closest(key, EVENT_GROUPS.map((g) => g.key));
        ctx.addIssue({ code: 'custom', message: `unknown event group${group === undefined ? `; groups: ${EVENT_GROUPS.map((g) => g.key).join(', ')}` : ` (did you mean "${group}"?)`}`, path: [key] });
        continue;
      }
      const found = eventFor(key);
      if (!found.ok) ctx.addIssue({ code: 'custom', message: found.suggestion === undefined ? found.message : `unknown event (did you mean "${found.suggestion}"?)`, path: [key] });
    }
  });

/** One MCP server, in the shape of Claude Code's `.mcp.json`: a command (stdio) or a URL (Streamable HTTP). */
export const McpServerSchema = z
  .union([
    z.strictObject({
      type: z.literal('stdio').optional(),
      command: z.string().min(1).describe('The program that serves MCP on its stdin/stdout'),
      args: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional().describe('Environment variables on top of the runner\'s'),
      cwd: z.string().min(1).optional().describe('Working directory, relative to the config file; default the project folder'),
    }),
    z.strictObject({
      type: z.enum(['http', 'streamable-http']).optional(),
      url: z.url({ protocol: /^https?$/ }).describe('A Streamable HTTP MCP endpoint'),
      headers: z.record(z.string(), z.string()).optional(),
    }),
  ])
  .meta({ id: 'mcpServer', description: 'An MCP server an mcp_tool hook may call: {command, args, env} (stdio) or {url} (Streamable HTTP)' });

// `extends` (src/config/extends): a path, a package or a pinned git URL, or a list of them.
const extendsEntry = z.string().min(1);
const ExtendsKeys = {
  extends: z.union([extendsEntry, z.array(extendsEntry)]).optional().describe('Other configs whose hooks are merged in under this file\'s layer, before its own: a path (relative to this file; ~/ in the user or managed layer), an npm package or a file in one ("@team/hooks-policy", "pkg/strict.json"), or git+https://…#<40-hex commit>[:file.json]. JSON or YAML only'),
  requireExtends: z.array(extendsEntry).optional().describe('Managed layer only: policies it extends that must run: their hooks are managed hooks, and while one cannot be loaded every event that can be blocked is blocked'),
};

export const ConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  ...ExtendsKeys,
  mcpServers: z.record(z.string().regex(/^[\w.@-]+$/, 'use letters, digits and . _ - @'), McpServerSchema).optional().describe('MCP servers the mcp_tool hooks of this file (and of less trusted files) may call, as in Claude Code\'s .mcp.json'),
  defaults: DefaultsSchema.optional(),
  hooks: HooksSchema.optional(),
  onUntrusted: z
    .enum(['warn', 'block'])
    .optional()
    .describe('User or managed layer only: what an untrusted project config means for a run; warn (default: its hooks do not run, the agent is told) or block'),
  telemetry: z
    .strictObject({
      otlp: z
        .strictObject({
          endpoint: z.url({ protocol: /^https?$/ }).optional().describe('OTLP/HTTP base URL (/v1/traces and /v1/metrics are appended), as OTEL_EXPORTER_OTLP_ENDPOINT'),
          headers: z.record(z.string(), z.string()).optional().describe('Headers sent with every export (e.g. an API key), as OTEL_EXPORTER_OTLP_HEADERS'),
          protocol: z.enum(['http/protobuf', 'http/json']).optional().describe('Default http/protobuf'),
        })
        .optional(),
      payloads: z.boolean().optional().describe('Add the event payload (redacted, cut) to each event span; default false'),
    })
    .optional()
    .describe('User or managed layer only (a project file\'s is ignored): OpenTelemetry export of every event (docs/observability.md). The OTEL_EXPORTER_OTLP_* variables take precedence'),
});

/** Every key a config file may use at any level, for "did you mean" suggestions. */
export const CONFIG_KEYS: readonly string[] = [
  ...new Set([...Object.keys(ConfigSchema.shape), ...Object.keys(DefaultsSchema.shape), ...Object.keys(HandlerSchema.shape)]),
];

/** One hook entry as written in a config file. */
export type HandlerConfig = z.input<typeof HandlerSchema>;
/** A whole config file. */
export type HooksConfig = z.input<typeof ConfigSchema>;

/** Types a config written in JS/TS (`hooks.config.mjs`): `export default defineConfig({...})`. */
export function defineConfig(config: HooksConfig): HooksConfig {
  return config;
}
