// The canary's unit: each pinned agent's own list of hook events, read from its installed bundle, against
// the catalog and the agent's dialect table. An agent release that adds an event fails here (with
// AGENT_HOOKS_E2E_LATEST=1, before anyone pins it), instead of its hooks passing through unnoticed.
// In the e2e suite because it needs the installed agents (tests cannot download). Tools: agent-tools.e2e.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEX_EVENTS } from '../../src/dialects/codex.js';
import { COPILOT_EVENTS } from '../../src/dialects/copilot.js';
import { GEMINI_EVENTS } from '../../src/dialects/gemini.js';
import { findEvent } from '../../src/events/catalog.js';
import { agentVersion, installAgent, installOpencodePluginDeps } from './harness/install-agent.js';

/** Files under `dir` whose name is `name`, depth first (a package's platform binary sits a few folders down). */
function findFiles(dir: string, name: string, depth = 8): string[] {
  if (depth === 0) return [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const p = path.join(dir, e);
    const s = statSync(p, { throwIfNoEntry: false });
    if (s === undefined) return [];
    if (s.isDirectory()) return findFiles(p, name, depth - 1);
    return e === name && s.size > 1_000_000 ? [p] : [];
  });
}

/** The prefix an agent's launcher was installed into (<cache>/<pkg>@<version>). */
const prefixOf = (bin: string) => bin.slice(0, bin.lastIndexOf(`${path.sep}node_modules${path.sep}`));

describe("each agent's hook events, from its own bundle", () => {
  it('Claude Code: every event of its hook-event list is in the catalog', async () => {
    const bin = await installAgent('claude');
    const text = readFileSync(bin).toString('latin1');
    // Its hook-event enum: a literal list that starts with PreToolUse, PostToolUse (checked against 2.1.332).
    const lists = [...text.matchAll(/\["PreToolUse","PostToolUse"(?:,"[A-Za-z]+")*\]/g)].map((m) => JSON.parse(m[0]) as string[]);
    expect(lists.length, 'the hook-event list was not found in the bundle: its shape changed, update this reader').toBeGreaterThan(0);
    const events = lists.reduce((a, b) => (b.length > a.length ? b : a));
    expect(events.length).toBeGreaterThanOrEqual(34);
    expect(events.filter((e) => findEvent(e) === undefined), 'Claude Code events the catalog has no entry for').toEqual([]);
  });

  it("Codex: every event of its hook schemas is in its dialect's table or the catalog", async () => {
    const prefix = prefixOf(await installAgent('codex'));
    const binaries = findFiles(path.join(prefix, 'node_modules'), 'codex').filter((f) => f.includes(`${path.sep}vendor${path.sep}`));
    expect(binaries.length, 'the codex binary was not found under its package').toBeGreaterThan(0);
    const text = readFileSync(binaries[0]!).toString('latin1');
    // Its command hooks' JSON schemas, embedded: `"hook_event_name": { "const": "<Event>" }` per input schema.
    const events = [...new Set([...text.matchAll(/"hook_event_name": \{\s*"const": "([A-Za-z]+)"/g)].map((m) => m[1]!))];
    expect(events.length, 'no hook schema found in the codex binary: its shape changed, update this reader').toBeGreaterThanOrEqual(10);
    const missing = events.filter((e) => (Object.hasOwn(CODEX_EVENTS, e) ? CODEX_EVENTS[e] === undefined : findEvent(e) === undefined));
    expect(missing, 'Codex events neither its dialect table nor the catalog has').toEqual([]);
  });

  it("Gemini CLI: every event of its HookEventName enum is in its dialect's table or the catalog", async () => {
    const prefix = prefixOf(await installAgent('gemini'));
    const bundle = path.join(prefix, 'node_modules', '@google', 'gemini-cli', 'bundle');
    const text = readdirSync(bundle).filter((f) => f.endsWith('.js')).map((f) => readFileSync(path.join(bundle, f), 'utf8')).join('\n');
    // Its TypeScript enum, compiled: `HookEventName["BeforeTool"] = "BeforeTool"` (checked against 0.61.0).
    const events = [...new Set([...text.matchAll(/HookEventName\d*\["([A-Za-z]+)"\] = "\1"/g)].map((m) => m[1]!))];
    expect(events.length, 'the HookEventName enum was not found in the bundle: its shape changed, update this reader').toBeGreaterThanOrEqual(10);
    const missing = events.filter((e) => (Object.hasOwn(GEMINI_EVENTS, e) ? GEMINI_EVENTS[e] === undefined : findEvent(e) === undefined));
    expect(missing, 'Gemini CLI events neither its dialect table nor the catalog has').toEqual([]);
  });

  it("Copilot CLI: every event of its HookType schema is in its dialect's table or the catalog", async () => {
    const bin = await installAgent('copilot');
    // The native binary unpacks its JS package into $HOME/.cache/copilot/pkg/<platform>/<version>/ on
    // first start; its API schema there holds the hook-event enum `HookType` (checked against 1.0.102).
    const home = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-copilot-events-'));
    try {
      execFileSync(bin, ['--version'], { env: { PATH: process.env.PATH, HOME: home, COPILOT_OFFLINE: 'true', COPILOT_AUTO_UPDATE: 'false' }, stdio: 'ignore', timeout: 60_000 });
      const pkg = path.join(home, '.cache', 'copilot', 'pkg', `${process.platform}-${process.arch}`, await agentVersion('copilot'));
      const schema = JSON.parse(readFileSync(path.join(pkg, 'schemas', 'api.schema.json'), 'utf8')) as { definitions?: Record<string, { enum?: string[] }>; $defs?: Record<string, { enum?: string[] }> };
      const events = (schema.definitions ?? schema.$defs ?? {}).HookType?.enum ?? [];
      expect(events.length, 'no HookType enum in the unpacked schemas/api.schema.json: its shape changed, update this reader').toBeGreaterThanOrEqual(10);
      expect(events).toContain('preToolUse');
      const missing = events.filter((e) => (Object.hasOwn(COPILOT_EVENTS, e) ? COPILOT_EVENTS[e] === undefined : findEvent(e) === undefined));
      // Known and not yet in the dialect's table (they take the unknown-event path: hooks filed under
      // them run, a block is exit 2). A new event fails here; adding one of these to the table fails too,
      // so this list is kept true.
      expect(missing, 'Copilot events neither its dialect table nor the catalog has').toEqual(COPILOT_EVENTS_NOT_YET);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("opencode: every hook of its plugin API is one the bridge plugin uses or one listed here as not a tool call", async () => {
    const dts = path.join(await installOpencodePluginDeps(), 'node_modules', '@opencode-ai', 'plugin', 'dist', 'index.d.ts');
    const text = readFileSync(dts, 'utf8');
    // The `Hooks` interface of @opencode-ai/plugin: one optional member per hook (checked against 1.18.33).
    const body = /export interface Hooks \{([\s\S]*?)\n\}/.exec(text);
    expect(body, 'no `export interface Hooks {` in @opencode-ai/plugin: its shape changed, update this reader').not.toBeNull();
    const hooks = [...body![1]!.matchAll(/^ {4}"?([\w.]+)"?\?:/gm)].map((m) => m[1]!);
    expect(hooks).toEqual(expect.arrayContaining(OPENCODE_BRIDGED));
    expect(hooks.filter((h) => !OPENCODE_BRIDGED.includes(h) && !OPENCODE_NOT_TOOL_CALLS.includes(h)), 'opencode plugin hooks neither bridged nor listed').toEqual([]);
  });
});

/** Copilot CLI 1.0.102 events the copilot dialect does not map yet (found by the test above). */
const COPILOT_EVENTS_NOT_YET = ['preMcpToolCall', 'userPromptTransformed', 'postResult', 'prePRDescription'];

/** The opencode plugin hooks the bridge (src/install/opencode-plugin.ts) turns into events. */
const OPENCODE_BRIDGED = ['tool.execute.before', 'tool.execute.after'];

/** opencode plugin hooks that are not tool calls or prompts agent-hooks acts on (config, auth, model plumbing). */
const OPENCODE_NOT_TOOL_CALLS = [
  'dispose', 'event', 'config', 'tool', 'auth', 'provider', 'chat.message', 'chat.params', 'chat.headers', 'permission.ask', 'command.execute.before',
  'shell.env', 'experimental.chat.messages.transform', 'experimental.chat.system.transform', 'experimental.session.compacting',
  'experimental.compaction.autocontinue', 'experimental.text.complete', 'experimental.provider.small_model', 'tool.definition',
];
