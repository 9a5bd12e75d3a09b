// Each pinned agent's tools against its table in src/events/agent-tools.ts, read from the agent itself:
// from its JS bundle where its tool registry is plain text (Gemini CLI, Qwen Code, Cline, opencode, Augment), and
// for the native binaries (Codex, Copilot CLI) from the tools it offers the fake model on a real run.
// A tool an agent has and its table does not is a failing test, not a false "matches no known tool".
// (Claude Code's own table is checked by claude-tools.e2e.test.ts.)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_TOOLS } from '../../src/events/agent-tools.js';
import { KNOWN_TOOL_NAMES } from '../../src/events/tools.js';
import { runAgent } from './harness/agents.js';
import { installAgent, installReadOnlyAgent } from './harness/install-agent.js';
import { cleanUpAfterAll } from './harness/workspace.js';

/** The prefix an agent's launcher was installed into (<cache>/<pkg>@<version>). */
const prefixOf = (bin: string) => bin.slice(0, bin.lastIndexOf(`${path.sep}node_modules${path.sep}`));
const jsIn = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n');

/** Names the bundle has and the table lacks; every one also has to be known to the matcher check. */
function missingFrom(agent: keyof typeof AGENT_TOOLS, found: readonly string[]): string[] {
  const table = AGENT_TOOLS[agent].tools;
  return found.filter((t) => !table.includes(t) || !KNOWN_TOOL_NAMES.includes(t));
}

/** The `name: "value"` pairs of an object literal that starts at `open` (no nested braces in a name table). */
function objectValues(text: string, open: number): string[] {
  const close = text.indexOf('}', open);
  return [...text.slice(open, close).matchAll(/[A-Z_0-9]+:\s*"([a-z_0-9]+)"/g)].map((m) => m[1]!);
}

describe("each agent's tools, from its own bundle", () => {
  it('Gemini CLI: every `*_TOOL_NAME = "..."` constant is in its table', async () => {
    const text = jsIn(path.join(prefixOf(await installAgent('gemini')), 'node_modules', '@google', 'gemini-cli', 'bundle'));
    // Its tool-name constants, compiled: `SHELL_TOOL_NAME = "run_shell_command"` (checked against 0.61.0).
    const found = [...new Set([...text.matchAll(/\b[A-Z_]+_TOOL_NAME = "([a-z_]+)"/g)].map((m) => m[1]!))];
    expect(found.length, 'no *_TOOL_NAME constant in the bundle: its shape changed, update this reader').toBeGreaterThanOrEqual(15);
    expect(found).toContain('run_shell_command');
    expect(missingFrom('gemini', found)).toEqual([]);
  });

  it('Qwen Code: every value of its ToolNames object is in its table', async () => {
    const chunks = path.join(prefixOf(await installAgent('qwen')), 'node_modules', '@qwen-code', 'qwen-code', 'chunks');
    const text = jsIn(chunks);
    // `var ToolNames = { EXEC: "exec", ..., SHELL: "run_shell_command", ... }` (checked against 0.24.4).
    const at = text.indexOf('var ToolNames = {');
    expect(at, 'no `var ToolNames = {` in the chunks: its shape changed, update this reader').toBeGreaterThan(-1);
    const found = objectValues(text, at);
    expect(found).toContain('run_shell_command');
    expect(found.length).toBeGreaterThanOrEqual(20);
    expect(missingFrom('qwen-code', found)).toEqual([]);
  });

  it('Cline: every value of its tool-name object is in its table', async () => {
    const core = path.join(prefixOf(await installAgent('cline')), 'node_modules', '@cline', 'core', 'dist', 'index.js');
    const text = readFileSync(core, 'utf8');
    // `S0={READ_FILES:"read_files",...,RUN_COMMANDS:"run_commands",...}` (checked against 3.0.65).
    const key = text.indexOf('RUN_COMMANDS:"run_commands"');
    expect(key, 'no RUN_COMMANDS:"run_commands" in @cline/core: its shape changed, update this reader').toBeGreaterThan(-1);
    const found = objectValues(text, text.lastIndexOf('{', key));
    expect(found.length).toBeGreaterThanOrEqual(5);
    expect(missingFrom('cline', found)).toEqual([]);
  });

  it('pi: every built-in tool (dist/core/tools/*.js, `name: "..."`) is in its table', async () => {
    const dir = path.join(prefixOf(await installAgent('pi')), 'node_modules', '@mariozechner', 'pi-coding-agent', 'dist', 'core', 'tools');
    // Each tool file's definition: `name: "bash",` (checked against 0.73.1).
    const found = [...new Set([...jsIn(dir).matchAll(/^\s+name: "([a-z_]+)",$/gm)].map((m) => m[1]!))];
    expect(found, 'no `name: "bash"` in dist/core/tools: its shape changed, update this reader').toContain('bash');
    expect(found.length).toBeGreaterThanOrEqual(7);
    expect(missingFrom('pi', found)).toEqual([]);
  });

  it('oh-my-pi: every name of BUILTIN_TOOL_NAMES and HIDDEN_TOOL_NAMES is in its table', async () => {
    const file = path.join(prefixOf(await installAgent('omp')), 'node_modules', '@oh-my-pi', 'pi-coding-agent', 'src', 'tools', 'builtin-names.ts');
    const text = readFileSync(file, 'utf8');
    // `export const BUILTIN_TOOL_NAMES = [ "read", "bash", ... ] as const;` (checked against 18.2.3).
    const lists = [...text.matchAll(/export const (?:BUILTIN|HIDDEN)_TOOL_NAMES = \[([^\]]*)\]/g)].map((m) => m[1]!);
    expect(lists, 'no BUILTIN_TOOL_NAMES / HIDDEN_TOOL_NAMES in builtin-names.ts: its shape changed, update this reader').toHaveLength(2);
    const found = lists.flatMap((list) => [...list.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]!));
    expect(found).toContain('bash');
    expect(missingFrom('omp', found)).toEqual([]);
  });

  it('Augment: every tool class of its bundle is in its table', async () => {
    const text = readFileSync(await installReadOnlyAgent('augment'), 'utf8');
    // Each tool is a class whose constructor calls `super("launch-process", 2)` (checked against 0.36.0).
    const found = [...new Set([...text.matchAll(/super\("([a-z][a-z_-]+)",\d\)/g)].map((m) => m[1]!))];
    expect(found, 'no `super("<tool>",N)` in augment.mjs: its shape changed, update this reader').toContain('launch-process');
    expect(found.length).toBeGreaterThanOrEqual(15);
    expect(missingFrom('augment', found)).toEqual([]);
  });

  it('opencode: every tool its binary defines is in its table, and its tool hooks are still there', async () => {
    const bin = path.join(prefixOf(await installAgent('opencode')), 'node_modules', 'opencode-linux-x64-baseline', 'bin', 'opencode');
    const text = readFileSync(bin).toString('latin1');
    // Tools defined as `=j("read",s.gen(function*(){` (the define helper's name changes per build), and
    // the default permission list `["bash","read",...]` that names the rest (checked against 1.18.33).
    const defined = [...text.matchAll(/=[\w$]{1,3}\("([a-z_]+)",[\w$]{1,3}\.(?:gen\(function\*\(\)\{|succeed\(\{description)/g)].map((m) => m[1]!);
    const list = /=\["bash","read","edit"(?:,"[a-z_]+")*\]/.exec(text);
    expect(defined.length, 'no tool definition found in the opencode binary: its shape changed, update this reader').toBeGreaterThanOrEqual(8);
    expect(list, 'the default tool list was not found in the opencode binary').not.toBeNull();
    const found = [...new Set([...defined, ...(JSON.parse(list![0].slice(1)) as string[])])];
    expect(missingFrom('opencode', found)).toEqual([]);
    // The plugin hooks that carry these names (the bridge plugin, src/install/opencode-plugin.ts, uses them).
    expect(text).toContain('"tool.execute.before"');
    expect(text).toContain('"tool.execute.after"');
  });
});

// Native binaries: what the agent offers the model is what its hooks' tool_name carries.
describe("each native agent's tools, as it offers them to the model", () => {
  cleanUpAfterAll();

  const names = (tools: unknown, api: 'responses' | 'chat'): string[] =>
    (Array.isArray(tools) ? tools : []).flatMap((t: Record<string, unknown>) => {
      const name = api === 'chat' ? (t.function as { name?: unknown } | undefined)?.name : t.name ?? t.type;
      return typeof name === 'string' ? [name] : [];
    });

  it.each([
    ['codex', 'responses'],
    ['copilot', 'chat'],
  ] as const)('%s: every tool it offers is in its table', async (agent, api) => {
    const run = await runAgent(agent, { label: 'tools', dialect: agent, script: [{ text: 'Done.' }] });
    const turn = run.model.turns()[0];
    expect(turn, run.describe()).toBeDefined();
    const found = names(turn!.body.tools, api).filter((n) => !n.startsWith('mcp__'));
    expect(found.length, `no tool offered: ${run.describe()}`).toBeGreaterThanOrEqual(3);
    expect(missingFrom(agent, found), JSON.stringify(found)).toEqual([]);
  });
});
