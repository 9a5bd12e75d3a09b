// What this runner supports, as data (`hooks list --capabilities --json`, MCP Hangar's interceptors/list):
// every event, wildcard key, dialect, builtin guard, hook setting and tool name. Built from the tables
// the code itself runs on, so it cannot fall behind them. Loaded only by `hooks list --capabilities`.
import { z } from 'zod';
import { DEFAULT_GUARDS } from './config/resolve.js';
import { DefaultsSchema, HandlerSchema } from './config/schema.js';
import { EVENTS, type EventSpec } from './events/catalog.js';
import { EVENT_GROUPS } from './events/groups.js';
import { CANONICAL_TOOLS, TOOL_GROUPS, toolSpellings } from './events/tools.js';
import { GUARD_IDS, loadGuard } from './guards/index.js';
import { claudeEventNames, type EventTable } from './dialects/agent-events.js';
import { CODEX_EVENTS } from './dialects/codex.js';
import { COPILOT_EVENTS } from './dialects/copilot.js';
import { CURSOR_EVENTS } from './dialects/cursor.js';
import { DOCKER_MCP_EVENTS } from './dialects/docker-mcp.js';
import { GEMINI_EVENTS } from './dialects/gemini.js';
import { CLAUDE_LIKE_AGENTS } from './dialects/claude-like.js';
import { GOOSE_EVENTS } from './dialects/goose.js';
import { KIRO_EVENTS } from './dialects/kiro.js';
import { WINDSURF_EVENTS } from './dialects/windsurf.js';
import { DIALECT_NAMES } from './dialects/index.js';
import { METADATA_KEY, METADATA_LIMITS } from './metadata/bag.js';
import { VERSION } from './version.js';

/**
 * Each dialect's event table: the agent's event names and the canonical event each maps to (`null`:
 * the agent has the event, agent-hooks has no equivalent, so it takes the forward path under its own
 * name). claude-code and native speak the catalog itself.
 */
export function dialectEventTables(): Record<string, EventTable> {
  return {
    'docker-mcp': DOCKER_MCP_EVENTS,
    cursor: CURSOR_EVENTS,
    codex: CODEX_EVENTS,
    gemini: GEMINI_EVENTS,
    copilot: COPILOT_EVENTS,
    ...Object.fromEntries(CLAUDE_LIKE_AGENTS.map((a) => [a.name, a.events])),
    windsurf: WINDSURF_EVENTS,
    kiro: KIRO_EVENTS,
    goose: GOOSE_EVENTS,
    'claude-code': claudeEventNames(),
    native: Object.fromEntries(EVENTS.map((e) => [e.name, e.name])),
  };
}

/** The decisions a hook's reply can have an effect with on this event. */
export function eventDecisions(e: EventSpec): string[] {
  return ['continue', ...(e.canAsk ? ['allow', 'ask'] : []), ...(e.canBlock ? ['block'] : []), ...(e.rewrites === undefined ? [] : ['modify']), 'halt'];
}

export async function capabilities(): Promise<Record<string, unknown>> {
  const tables = dialectEventTables();
  const defaults = DEFAULT_GUARDS.hooks as Record<string, { builtin: string }[]>;
  const guards = [];
  for (const id of GUARD_IDS) {
    const guard = (await loadGuard(id))!;
    guards.push({
      id,
      summary: guard.summary,
      events: guard.events,
      match: guard.match ?? null,
      onWithoutConfig: Object.keys(defaults).filter((event) => defaults[event]!.some((h) => h.builtin === id)),
      observer: guard.observe !== undefined,
      options: z.toJSONSchema(await guard.options(), { unrepresentable: 'any' }),
    });
  }
  const fields = (shape: Record<string, z.ZodType>) =>
    Object.fromEntries(
      Object.entries(shape).map(([key, field]) => {
        const { $schema: _, ...json } = z.toJSONSchema(field, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
        return [key, { ...json, ...(field.description === undefined ? {} : { description: field.description }) }];
      }),
    );
  return {
    version: VERSION,
    events: EVENTS.map((e) => ({
      name: e.name,
      spellings: { config: e.name, cli: e.cli, claude: e.claude },
      mode: e.mode,
      tool: e.tool,
      decisions: eventDecisions(e),
      rewrites: e.rewrites ?? null,
      context: e.context,
      plainStdoutIsContext: e.plainStdoutIsContext,
      groups: EVENT_GROUPS.filter((g) => g.includes(e)).map((g) => g.key),
    })),
    eventKeys: EVENT_GROUPS.map((g) => ({ key: g.key, summary: g.summary, events: EVENTS.filter((e) => g.includes(e)).map((e) => e.name) })),
    dialects: DIALECT_NAMES.map((name) => {
      const table = tables[name] ?? {};
      return { name, events: table, unmapped: Object.keys(table).filter((k) => table[k] === null) };
    }),
    guards,
    // Every setting of a hook (audit, parallel, onFailure, priority, timeout, match, if, ...) and of `defaults`, with its description.
    modes: { hook: fields(HandlerSchema.shape), defaults: fields(DefaultsSchema.shape) },
    metadata: { payloadKey: METADATA_KEY, maxBytes: METADATA_LIMITS.maxBytes, maxDepth: METADATA_LIMITS.maxDepth, staleDays: METADATA_LIMITS.staleMs / 86_400_000 },
    tools: {
      canonical: Object.fromEntries(CANONICAL_TOOLS.map((t) => [t, toolSpellings(t).slice(1)])),
      groups: TOOL_GROUPS,
    },
  };
}
