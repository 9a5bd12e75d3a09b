// Realistic sample events in the shapes Claude Code really sends, for `hooks sample` and test cases.
// Pure apart from fresh random ids: the same arguments give the same payload, ids aside.
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { isRecord } from '../json.js';
import { HooksError } from '../errors.js';
import { didYouMean } from '../suggest.js';
import { findEvent, eventSpellings, type EventSpec } from './catalog.js';
import { sampleModelFields } from './model-request.js';
import { canonicalTool, isMcpTool, KNOWN_TOOL_NAMES } from './tools.js';

export interface SampleOptions {
  /** A canonical tool name (`exec`) or an agent's raw one (`Bash`); default `exec` on tool events. */
  tool?: string;
  /** Tool-input fields on tool events, event fields on the others; deep-merged over the defaults. */
  input?: Record<string, unknown>;
  /** Top-level payload fields, set last (`tool_response`, `permission_mode`, ...). */
  fields?: Record<string, unknown>;
  /** The project folder the agent works in: `cwd`, and the base of sample file paths. */
  cwd: string;
  /** For timestamps inside tool responses. */
  now?: Date;
  /** For `transcript_path`; default the user's home. */
  home?: string;
  /** `claude-code` (default): every field Claude Code sends. `native`: the event's own fields only, no `hook_event_name`. */
  dialect?: SampleDialect;
}

export type SampleDialect = 'claude-code' | 'native';
export const SAMPLE_DIALECTS: readonly SampleDialect[] = ['claude-code', 'native'];

/** A payload for `event` (any spelling), ready to pipe into `hooks run`. */
export function sampleEvent(event: string, options: SampleOptions): Record<string, unknown> {
  const spec = findEvent(event);
  if (spec === undefined) {
    throw new HooksError('EVENT_UNKNOWN', `unknown event "${event}"${didYouMean(event, eventSpellings())}; events: ${eventSpellings().join(', ')}`);
  }
  if (!spec.tool && options.tool !== undefined) {
    throw new HooksError('USAGE', `${spec.cli} has no tool: --tool applies to ${toolEvents().join(', ')}`);
  }
  const ctx = context(options);
  const session = sessionFields(spec, ctx);
  const own = spec.tool ? toolFields(spec, options, ctx) : mergeDeep(eventFields(spec, ctx), options.input ?? {});
  const payload = { ...session, ...own, ...options.fields };
  if (options.dialect === 'native') {
    for (const key of CLAUDE_ONLY) delete payload[key];
  }
  return payload;
}

/** The raw tool name a sample uses for `tool`: Claude Code's name for a canonical one, else `tool` itself. */
export function sampleToolName(tool: string): string {
  if (isMcpTool(tool)) return tool;
  if (!KNOWN_TOOL_NAMES.includes(tool)) {
    throw new HooksError('USAGE', `unknown tool "${tool}"${didYouMean(tool, KNOWN_TOOL_NAMES)}; use a canonical name (exec, read, write, edit, web_fetch, ...), an agent's name (Bash) or mcp__server__tool`);
  }
  return CLAUDE_NAME[tool] ?? tool;
}

/**
 * `key=value` pairs as an object: values are JSON when they parse (`true`, `5`, `["a"]`), else
 * strings; dotted keys nest (`a.b=1` → `{a: {b: 1}}`). A pair may also be a whole JSON object.
 */
export function parseInputPairs(pairs: readonly string[], where = '--input'): Record<string, unknown> {
  let out: Record<string, unknown> = {};
  for (const pair of pairs) {
    if (pair.trimStart().startsWith('{')) {
      const value = parseJson(pair);
      if (!isRecord(value)) throw new HooksError('USAGE', `${where}: "${pair}" is not a JSON object`);
      out = mergeDeep(out, value);
      continue;
    }
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new HooksError('USAGE', `${where}: expected key=value or a JSON object, got "${pair}"`);
    const keys = pair.slice(0, eq).split('.');
    if (keys.some((k) => k === '')) throw new HooksError('USAGE', `${where}: empty key in "${pair}"`);
    const raw = pair.slice(eq + 1);
    const parsed = parseJson(raw);
    out = mergeDeep(out, nest(keys, parsed === NOT_JSON ? raw : parsed));
  }
  return out;
}

// --- internal ---

interface Ctx {
  cwd: string;
  now: Date;
  sessionId: string;
  transcript: string;
}

/** Fields Claude Code adds about the session rather than the event; the native sample leaves them out. */
const CLAUDE_ONLY = ['hook_event_name', 'transcript_path', 'prompt_id', 'permission_mode', 'effort'];

/** Claude Code's names for the canonical tools it has; the rest keep their canonical name. */
const CLAUDE_NAME: Record<string, string> = {
  exec: 'Bash',
  read: 'Read',
  write: 'Write',
  edit: 'Edit',
  web_fetch: 'WebFetch',
  web_search: 'WebSearch',
  process: 'BashOutput',
};

interface ToolTemplate {
  /** The tool input every sample of this tool has. */
  input: (c: Ctx) => Record<string, unknown>;
  /** Descriptive fields added only when the caller set no input (Bash's `description` would go stale). */
  extras?: Record<string, unknown>;
  /** `tool_response` on postToolUse, from the final input. */
  response: (input: Record<string, any>, c: Ctx) => unknown;
  /** `error` on postToolUseFailure. */
  error: (input: Record<string, any>) => string;
}

const file = (c: Ctx, name: string) => path.join(c.cwd, name);
const lines = (text: string) => text.split('\n').length;

// Shapes from Claude Code's real payloads (shared/payloads/claude) and its tool docs.
const TEMPLATES: Record<string, ToolTemplate> = {
  Bash: {
    input: () => ({ command: 'npm test' }),
    extras: { description: 'Run the test suite' },
    response: () => ({
      stdout: '\n> project@1.0.0 test\n> vitest run\n\n Test Files  4 passed (4)\n      Tests  23 passed (23)\n',
      stderr: '',
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    }),
    error: (i) => `Exit code 1\n${String(i.command ?? '')}: command failed`,
  },
  Read: {
    input: (c) => ({ file_path: file(c, 'src/index.ts') }),
    response: (i) => {
      const content = 'export const port = 3000;\n';
      return { type: 'text', file: { filePath: i.file_path, content, numLines: lines(content), startLine: 1, totalLines: lines(content) } };
    },
    error: () => 'File does not exist.',
  },
  Write: {
    input: (c) => ({ file_path: file(c, 'src/greet.ts'), content: 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n' }),
    response: (i) => ({ type: 'create', filePath: i.file_path, content: i.content, structuredPatch: [], originalFile: null, userModified: false }),
    error: () => 'EACCES: permission denied',
  },
  Edit: {
    input: (c) => ({
      file_path: file(c, 'src/index.ts'),
      old_string: 'const port = 3000;',
      new_string: 'const port = Number(process.env.PORT ?? 3000);',
      replace_all: false,
    }),
    response: (i) => ({
      filePath: i.file_path,
      oldString: i.old_string,
      newString: i.new_string,
      originalFile: `export ${String(i.old_string)}\n`,
      structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [`-export ${String(i.old_string)}`, `+export ${String(i.new_string)}`] }],
      userModified: false,
      replaceAll: i.replace_all === true,
    }),
    error: () => 'String to replace not found in file.',
  },
  MultiEdit: {
    input: (c) => ({
      file_path: file(c, 'src/index.ts'),
      edits: [{ old_string: 'const port = 3000;', new_string: 'const port = Number(process.env.PORT ?? 3000);', replace_all: false }],
    }),
    response: (i) => ({ filePath: i.file_path, edits: i.edits, originalFileContents: 'export const port = 3000;\n', structuredPatch: [], userModified: false }),
    error: () => 'String to replace not found in file.',
  },
  WebFetch: {
    input: () => ({ url: 'https://nodejs.org/api/child_process.html', prompt: 'How do I kill a whole process group?' }),
    response: (i) => ({ bytes: 48213, code: 200, codeText: 'OK', result: 'Spawn the child with detached: true, then process.kill(-child.pid).', durationMs: 812, url: i.url }),
    error: () => 'Request failed with status code 404',
  },
  WebSearch: {
    input: () => ({ query: 'node child_process kill process group' }),
    response: (i) => ({
      query: i.query,
      results: [{ tool_use_id: 'srvtoolu_01', content: [{ title: 'Child process | Node.js Documentation', url: 'https://nodejs.org/api/child_process.html' }] }],
      durationSeconds: 1.9,
    }),
    error: () => 'Web search failed',
  },
  BashOutput: {
    input: () => ({ bash_id: 'bash_1' }),
    response: (_i, c) => ({ shellId: 'bash_1', command: 'npm run dev', status: 'running', exitCode: null, stdout: 'Listening on :3000\n', stderr: '', stdoutLines: 1, stderrLines: 0, timestamp: c.now.toISOString() }),
    error: () => 'No shell found with ID: bash_1',
  },
  Glob: {
    input: () => ({ pattern: 'src/**/*.ts' }),
    response: (_i, c) => ({ filenames: [file(c, 'src/index.ts'), file(c, 'src/server.ts')], durationMs: 12, numFiles: 2, truncated: false }),
    error: () => 'Directory does not exist',
  },
  Grep: {
    input: () => ({ pattern: 'process\\.env\\.PORT', path: 'src', output_mode: 'files_with_matches' }),
    response: (_i, c) => ({ mode: 'files_with_matches', filenames: [file(c, 'src/server.ts')], numFiles: 1 }),
    error: () => 'Path does not exist',
  },
  Task: {
    input: () => ({ description: 'Find the dev server', prompt: 'Where is the dev server started and on which port?', subagent_type: 'Explore' }),
    response: () => ({ status: 'completed', content: [{ type: 'text', text: 'src/server.ts starts it on port 3000.' }], totalDurationMs: 8123, totalTokens: 5120, totalToolUseCount: 3 }),
    error: () => 'Agent failed',
  },
  // Codex CLI's patch tool: the whole patch in `command`, a plain-text response.
  apply_patch: {
    input: () => ({ command: '*** Begin Patch\n*** Add File: notes.txt\n+one\n*** End Patch\n' }),
    response: () => 'Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA notes.txt\n',
    error: () => 'Exit code: 1\nOutput:\nInvalid patch',
  },
};

const GENERIC: ToolTemplate = {
  input: () => ({}),
  response: () => [{ type: 'text', text: 'ok' }],
  error: () => 'Tool failed',
};

function template(toolName: string): ToolTemplate {
  // Other agents' spellings (run_shell_command, shell, replace, ...) borrow their canonical tool's template.
  const canonical = canonicalTool(toolName);
  return TEMPLATES[toolName] ?? TEMPLATES[CLAUDE_NAME[canonical] ?? canonical] ?? GENERIC;
}

function context(options: SampleOptions): Ctx {
  const home = options.home ?? os.homedir();
  const sessionId = randomUUID();
  // Claude Code keeps transcripts per project, in a folder named after the path with `/` as `-`.
  const project = options.cwd.replace(/[^A-Za-z0-9]/g, '-');
  return { cwd: options.cwd, now: options.now ?? new Date(), sessionId, transcript: path.join(home, '.claude', 'projects', project, `${sessionId}.jsonl`) };
}

/** What Claude Code sends with every event; which extras appear depends on the event, as in the real payloads. */
function sessionFields(spec: EventSpec, c: Ctx): Record<string, unknown> {
  const out: Record<string, unknown> = { session_id: c.sessionId, transcript_path: c.transcript, cwd: c.cwd };
  if (spec.name !== 'sessionStart') out.prompt_id = randomUUID();
  if (['preToolUse', 'postToolUse', 'postToolUseFailure', 'userPromptSubmit', 'stop', 'subagentStop'].includes(spec.name)) {
    out.permission_mode = 'default';
  }
  if (spec.tool || spec.name === 'stop' || spec.name === 'subagentStop') out.effort = { level: 'medium' };
  out.hook_event_name = spec.claude;
  return out;
}

function toolFields(spec: EventSpec, options: SampleOptions, c: Ctx): Record<string, unknown> {
  const toolName = sampleToolName(options.tool ?? 'exec');
  const t = template(toolName);
  const given = options.input ?? {};
  const base = Object.keys(given).length === 0 ? { ...t.input(c), ...t.extras } : t.input(c);
  const toolInput = mergeDeep(base, given);
  const out: Record<string, unknown> = { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId() };
  if (spec.name === 'permissionRequest') {
    // As Claude Code 2.1.328 sends it: no tool_use_id, the rules the prompt would offer.
    delete out.tool_use_id;
    out.permission_suggestions = [{ type: 'addDirectories', directories: [c.cwd], destination: 'session' }];
  } else if (spec.name === 'permissionDenied') {
    out.reason = 'The auto-mode classifier judged this call unsafe';
  } else if (spec.name === 'postToolUse') {
    out.tool_response = t.response(toolInput, c);
    out.duration_ms = 2841;
  } else if (spec.name === 'postToolUseFailure') {
    out.error = t.error(toolInput);
    out.is_interrupt = false;
    out.duration_ms = 1934;
  }
  return out;
}

function eventFields(spec: EventSpec, c: Ctx): Record<string, unknown> {
  switch (spec.name) {
    case 'userPromptSubmit':
      return { prompt: 'Add a --port option to the dev server and update the README' };
    case 'stop':
      return { stop_hook_active: false, last_assistant_message: 'I added the --port option and updated the README.', background_tasks: [], session_crons: [] };
    case 'subagentStop': {
      const agentId = randomBytes(9).toString('hex').slice(0, 17);
      return {
        agent_id: agentId,
        agent_type: 'Explore',
        stop_hook_active: false,
        agent_transcript_path: path.join(c.transcript.replace(/\.jsonl$/, ''), 'subagents', `agent-${agentId}.jsonl`),
        last_assistant_message: 'The dev server is started from src/server.ts; the port is hard-coded on line 8.',
        background_tasks: [],
        session_crons: [],
      };
    }
    case 'preCompact':
      return { trigger: 'manual', custom_instructions: 'Keep the list of files changed so far' };
    case 'sessionStart':
      return { source: 'startup', model: 'claude-sonnet-4-5' };
    case 'sessionEnd':
      return { reason: 'prompt_input_exit' };
    case 'notification':
      return { message: 'Claude needs your permission to use Bash', title: 'Claude Code', notification_type: 'permission_prompt' };
    case 'postToolBatch':
      return {
        tool_calls: [{ tool_name: 'Bash', tool_input: { command: 'npm test', description: 'Run the tests' }, tool_use_id: toolUseId(), tool_response: 'Tests: 42 passed, 42 total\n' }],
      };
    case 'postCompact':
      return { trigger: 'manual', compact_summary: 'Added a --port option to the dev server; README updated.' };
    case 'subagentStart':
      return { agent_id: randomBytes(9).toString('hex').slice(0, 17), agent_type: 'Explore' };
    case 'setup':
      return { trigger: 'init' };
    case 'userPromptExpansion':
      return { expansion_type: 'slash_command', command_name: 'review', command_args: 'src/server.ts', command_source: 'project', prompt: '/review src/server.ts' };
    case 'stopFailure':
      return { error: 'rate_limit', error_details: 'Rate limited: retry after 30 s', last_assistant_message: 'API Error: 429' };
    case 'teammateIdle':
      return { teammate_name: 'reviewer', team_name: 'release' };
    case 'taskCreated':
    case 'taskCompleted':
      return { task_id: '3', task_subject: 'Update the README', task_description: 'Document the new --port option', teammate_name: 'writer', team_name: 'release' };
    case 'configChange':
      return { source: 'project_settings', file_path: path.join(c.cwd, '.claude', 'settings.json') };
    case 'cwdChanged':
      return { old_cwd: c.cwd, new_cwd: path.join(c.cwd, 'src') };
    case 'fileChanged':
      return { file_path: path.join(c.cwd, '.envrc'), event: 'change' };
    case 'worktreeCreate':
      return { name: 'feature-port' };
    case 'worktreeRemove':
      return { worktree_path: path.join(path.dirname(c.cwd), 'worktrees', 'feature-port') };
    case 'instructionsLoaded':
      return { file_path: path.join(c.cwd, 'CLAUDE.md'), memory_type: 'Project', load_reason: 'session_start' };
    case 'directoryAdded':
      return { directory: path.join(path.dirname(c.cwd), 'shared'), source: 'slash_command' };
    case 'messageDisplay':
      return { turn_id: randomUUID(), message_id: randomUUID(), index: 0, final: true, delta: 'I added the --port option.' };
    case 'elicitation':
      return { mcp_server_name: 'database', message: 'Which schema should I migrate?', mode: 'form', elicitation_id: randomUUID(), requested_schema: { type: 'object', properties: { schema: { type: 'string' } } } };
    case 'elicitationResult':
      return { mcp_server_name: 'database', action: 'accept', mode: 'form', elicitation_id: randomUUID(), content: { schema: 'public' } };
    case 'preModelSwitch':
    case 'postModelSwitch':
      return { from_model: 'claude-sonnet-4-5', to_model: 'claude-opus-4-1', requested_model: 'opus', source: 'command', context_tokens: 48213, prompt_cache_warm: true, cache_ttl: '5m', estimated_cache_write_usd: 0.9, pricing: 'catalog' };
    case 'preSessionSwitch':
      return { reason: 'resume', target_session_file: path.join(c.cwd, '.pi', 'sessions', 'earlier.jsonl') };
    case 'agentEnd':
      return { last_assistant_message: 'I added the --port option and updated the README.' };
    case 'turnStart':
      return { turn_index: 0 };
    case 'turnEnd':
      return { turn_index: 0, last_assistant_message: 'I will read src/server.ts first.', tool_results: 1 };
    case 'beforeModel':
    case 'afterModel':
    case 'beforeToolSelection':
      return sampleModelFields(spec.name as 'beforeModel' | 'afterModel' | 'beforeToolSelection');
    default:
      return {};
  }
}

/** `toolu_01` and 22 base62 characters, as Anthropic's tool-use ids look. */
function toolUseId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(22);
  let id = 'toolu_01';
  for (const b of bytes) id += alphabet[b % alphabet.length];
  return id;
}

function toolEvents(): string[] {
  return eventSpellings().filter((e) => findEvent(e)?.tool);
}

const NOT_JSON = Symbol('not json');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

function nest(keys: string[], value: unknown): Record<string, unknown> {
  return keys.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value as Record<string, unknown>) as Record<string, unknown>;
}


/** Objects merge key by key; anything else in `over` replaces what is in `base`. */
function mergeDeep(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isRecord(current) && isRecord(value) ? mergeDeep(current, value) : value;
  }
  return out;
}
