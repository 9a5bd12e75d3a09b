// `hooks list --capabilities`: what the runner supports, generated from the code's own tables.
import { describe, expect, it } from 'vitest';
import { dialectEventTables } from '../../src/capabilities.js';
import { HandlerSchema } from '../../src/config/schema.js';
import { DIALECT_NAMES } from '../../src/dialects/index.js';
import { EVENTS, findEvent } from '../../src/events/catalog.js';
import { EVENT_GROUPS } from '../../src/events/groups.js';
import { GUARD_IDS } from '../../src/guards/index.js';
import { runCli } from '../helpers.js';

describe('hooks list --capabilities --json', () => {
  const r = runCli(['list', '--capabilities', '--json']);
  const caps = JSON.parse(r.stdout) as Record<string, any>;

  it('describes every event of the catalog: spellings, mode, what a hook can decide', () => {
    expect(r.code).toBe(0);
    expect(caps.events.map((e: { name: string }) => e.name)).toEqual(EVENTS.map((e) => e.name));
    const pre = caps.events.find((e: { name: string }) => e.name === 'preToolUse');
    expect(pre).toMatchObject({ spellings: { config: 'preToolUse', cli: 'pre-tool-use', claude: 'PreToolUse' }, mode: 'intercept', tool: true, rewrites: 'updatedInput' });
    expect(pre.decisions).toEqual(['continue', 'allow', 'ask', 'block', 'modify', 'halt']);
    expect(caps.events.find((e: { name: string }) => e.name === 'sessionEnd').decisions).toEqual(['continue', 'halt']);
  });

  it('describes every wildcard key and every dialect, each mapping only to catalog events', () => {
    expect(caps.eventKeys.map((k: { key: string }) => k.key)).toEqual(EVENT_GROUPS.map((g) => g.key));
    expect(caps.dialects.map((d: { name: string }) => d.name)).toEqual(DIALECT_NAMES);
    for (const d of caps.dialects as { name: string; events: Record<string, string | null> }[]) {
      expect(Object.keys(d.events).length, d.name).toBeGreaterThan(0);
      for (const event of Object.values(d.events)) if (event !== null) expect(findEvent(event), `${d.name}: ${event}`).toBeDefined();
    }
    expect(caps.dialects.find((d: { name: string }) => d.name === 'gemini').events.BeforeTool).toBe('preToolUse');
  });

  it('describes every builtin guard: events, the events it runs on without config, its options as JSON Schema', () => {
    expect(caps.guards.map((g: { id: string }) => g.id)).toEqual(GUARD_IDS);
    const safety = caps.guards.find((g: { id: string }) => g.id === 'command-safety');
    expect(safety).toMatchObject({ events: ['preToolUse'], match: ['exec'], onWithoutConfig: ['preToolUse'], observer: false });
    expect(safety.options.type).toBe('object');
    expect(Object.keys(safety.options.properties)).toContain('categories');
  });

  it('describes every hook setting from the config schema itself, modes included', () => {
    expect(Object.keys(caps.modes.hook)).toEqual(Object.keys(HandlerSchema.shape));
    for (const mode of ['audit', 'parallel', 'onFailure', 'priority', 'timeout', 'enabled']) expect(caps.modes.hook[mode].description, mode).toBeTruthy();
    expect(caps.modes.hook.onFailure.enum).toEqual(['block', 'continue']);
    expect(caps.metadata).toMatchObject({ payloadKey: 'agent_hooks_metadata', maxBytes: 16384 });
    expect(caps.tools.canonical.exec).toContain('Bash');
  });
});

it('every dialect has an event table (a new dialect must add one)', () => {
  expect(Object.keys(dialectEventTables()).sort()).toEqual([...DIALECT_NAMES].sort());
});

it('without --json, a few lines per section', () => {
  const r = runCli(['list', '--capabilities']);
  expect(r.code).toBe(0);
  for (const e of EVENTS) expect(r.stdout).toContain(`${e.name} (${e.cli}, ${e.claude})`);
  expect(r.stdout).toMatch(/^ {2}\* {2}every event: preToolUse/m);
  expect(r.stdout).toMatch(/^ {2}audit {2}Shadow mode/m);
});
