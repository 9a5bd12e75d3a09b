// The canary's unit: each pinned agent's own list of hook events, read from its installed bundle, against
// the catalog and the agent's dialect table. An agent release that adds an event fails here (with
// AGENT_HOOKS_E2E_LATEST=1, before anyone pins it), instead of its hooks passing through unnoticed.
// In the e2e suite because it needs the installed agents (tests cannot download).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEX_EVENTS } from '../../src/dialects/codex.js';
import { GEMINI_EVENTS } from '../../src/dialects/gemini.js';
import { findEvent } from '../../src/events/catalog.js';
import { installAgent } from './harness/install-agent.js';

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
});
