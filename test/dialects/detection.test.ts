// Every real payload is detected as its own agent's dialect, never another's, and becomes a canonical
// event in Claude Code's format (or a clear error for agent events with no canonical equivalent).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES, detectDialect, getDialect } from '../../src/dialects/index.js';
import { findEvent } from '../../src/events/catalog.js';
import { ROOT } from '../helpers.js';

const PAYLOADS = path.join(ROOT, 'test', 'fixtures', 'payloads');
const AGENTS: Record<string, string> = { claude: 'claude-code', codex: 'codex', gemini: 'gemini', copilot: 'copilot', cursor: 'cursor', 'docker-mcp': 'docker-mcp', 'qwen-code': 'qwen-code', factory: 'factory', augment: 'augment', windsurf: 'windsurf', kiro: 'kiro', goose: 'goose' };

/** Agent events with no canonical equivalent: the forward path, under their own name. */
const FORWARD = /^(afterAgentResponse|TodoCreated|BeforeShellExecution)\b/;
/** Copilot's camelCase payloads do not name their event: the command line must. */
const COPILOT_CAMEL: Record<string, string> = { agentStop: 'agentStop', postToolUse: 'postToolUse', preToolUse: 'preToolUse', sessionEnd: 'sessionEnd', sessionStart: 'sessionStart', userPromptSubmitted: 'userPromptSubmitted' };

const files = Object.keys(AGENTS).flatMap((agent) =>
  readdirSync(path.join(PAYLOADS, agent))
    .filter((f) => f.endsWith('.json'))
    .map((file) => ({ agent, file, raw: JSON.parse(readFileSync(path.join(PAYLOADS, agent, file), 'utf8')) as unknown })),
);

describe('auto-detection', () => {
  it('covers every dialect', () => {
    expect(DIALECT_NAMES).toEqual(['docker-mcp', 'windsurf', 'cursor', 'augment', 'codex', 'qwen-code', 'factory', 'gemini', 'copilot', 'kiro', 'goose', 'claude-code', 'native']);
    expect(files.length).toBeGreaterThan(100);
  });

  it.each(files.map((f) => [`${f.agent}/${f.file}`, f] as const))('%s is detected as its own agent', (_, { agent, raw }) => {
    expect(detectDialect(raw).name).toBe(AGENTS[agent]);
  });

  it('a Claude-format payload without hook_event_name, or with our spelling, falls back to native', () => {
    expect(detectDialect({ tool_name: 'Bash', tool_input: { command: 'ls' } }).name).toBe('native');
    expect(detectDialect({ hook_event_name: 'pre-tool-use', tool_name: 'Bash', tool_input: { command: 'ls' } }).name).toBe('native');
  });
});

describe('every payload becomes a canonical event in Claude Code format', () => {
  // Every payload of every agent: none is a runner error (issue 24).
  it.each(files.map((f) => [`${f.agent}/${f.file}`, f] as const))('%s', (_, { agent, file, raw }) => {
    const dialect = getDialect(AGENTS[agent]!);
    const camel = agent === 'copilot' ? COPILOT_CAMEL[file.split('.')[0]!] : undefined;
    const event = dialect.toEvent(raw, camel);
    expect(event.payload.hook_event_name).toMatch(/^[A-Z][A-Za-z]+$/);
    expect(findEvent(event.name) === undefined).toBe(FORWARD.test(file));
    if (event.tool === undefined) return;
    expect(event.payload.tool_name).toBe(event.tool.name);
    const input = event.payload.tool_input!;
    expect(typeof input).toBe('object');
    // Where a guard looks: `command` for shell tools, `file_path` for file tools.
    if (event.tool.canonical === 'exec') expect(typeof input.command).toBe('string');
    if (['read', 'write', 'edit'].includes(event.tool.canonical)) expect(typeof input.file_path).toBe('string');
    // Cursor's, Cascade's and goose's post events carry no tool output.
    if (event.name === 'postToolUse' && !['cursor', 'windsurf', 'goose'].includes(agent)) expect(event.payload.tool_response).toBeDefined();
  });

});
