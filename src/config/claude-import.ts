// `hooks import claude-code`: Claude Code's `hooks` object (a settings.json) turned into agent-hooks
// config entries, one per handler, that run as they ran in Claude Code. Matchers are kept as Claude's
// `matcher` (read exactly as Claude Code reads it, see src/match/claude-matcher.ts); `if` stays a
// permission rule; the entries `hooks install` wrote (which call agent-hooks itself) are left out.
import { findEvent } from '../events/catalog.js';
import { isOurCommand } from '../install/shell.js';
import { isRecord } from '../json.js';
import { isGroup } from './claude-shape.js';

/** Claude handler keys an imported entry keeps (the rest mean nothing to agent-hooks). */
const KEPT = ['type', 'command', 'args', 'url', 'headers', 'allowedEnvVars', 'prompt', 'model', 'continueOnBlock', 'server', 'tool', 'input', 'if', 'timeout', 'onFailure', 'async', 'asyncRewake', 'once', 'shell', 'statusMessage'] as const;

export interface Imported {
  /** Config event key → entries, in the order of the settings file. */
  hooks: Record<string, Record<string, unknown>[]>;
  /** One line per handler not imported, naming its key path and why. */
  skipped: string[];
  /** One line per key dropped from an imported handler. */
  dropped: string[];
  /** How many of agent-hooks' own entries (from `hooks install`) were left out. */
  ours: number;
  /** One line per event key agent-hooks does not know (imported under Claude's name, said so). */
  unknownEvents: string[];
  /** The MCP servers the imported mcp_tool hooks name, as found (`.mcp.json`, the settings' own `mcpServers`). */
  mcpServers: Record<string, Record<string, unknown>>;
  /** One line per mcp_tool server that was not brought along, and why. */
  servers: string[];
}

/** Server keys of Claude Code's `.mcp.json` that agent-hooks' mcpServers takes. */
const SERVER_KEYS = ['type', 'command', 'args', 'env', 'url', 'headers'] as const;

/** Converts a settings document (the whole settings.json, or just its `hooks` object). */
export function importClaudeHooks(settings: unknown, known: { file: string; servers: unknown }[] = []): Imported {
  const out: Imported = { hooks: {}, skipped: [], dropped: [], ours: 0, unknownEvents: [], mcpServers: {}, servers: [] };
  const table = isRecord(settings) && isRecord(settings.hooks) ? settings.hooks : settings;
  if (!isRecord(table)) return out;
  for (const [claudeEvent, list] of Object.entries(table)) {
    if (!Array.isArray(list)) {
      out.skipped.push(`hooks.${claudeEvent}: not a list of matcher groups`);
      continue;
    }
    // The catalog's name when it knows the event; otherwise Claude's name, which runs as an observe event.
    const key = findEvent(claudeEvent)?.name ?? claudeEvent;
    if (findEvent(claudeEvent) === undefined) {
      out.unknownEvents.push(`hooks.${claudeEvent}: not an event agent-hooks knows; imported under that name, its hooks run when Claude Code sends it, and a block is passed on as exit 2`);
    }
    list.forEach((group, i) => {
      const groups = isGroup(group) ? [{ matcher: group.matcher, hooks: group.hooks, at: `hooks.${claudeEvent}[${i}]` }] : [];
      if (groups.length === 0) {
        out.skipped.push(`hooks.${claudeEvent}[${i}]: not a matcher group ({"matcher": ..., "hooks": [...]})`);
        return;
      }
      for (const g of groups) {
        g.hooks.forEach((handler, j) => {
          const at = `${g.at}.hooks[${j}]`;
          const entry = convertHandler(handler, g.matcher, at, out);
          if (entry === undefined) return;
          if (entry.type === 'mcp_tool') bringServer(String(entry.server), at, known, out);
          (out.hooks[key] ??= []).push(entry);
        });
      }
    });
  }
  return out;
}

function convertHandler(handler: unknown, matcher: unknown, at: string, out: Imported): Record<string, unknown> | undefined {
  if (!isRecord(handler)) {
    out.skipped.push(`${at}: not a handler object`);
    return undefined;
  }
  if (isOurCommand(handler.command)) {
    out.ours++;
    return undefined;
  }
  const type = handler.type ?? 'command';
  if (type !== 'command' && type !== 'http' && type !== 'prompt' && type !== 'agent' && type !== 'mcp_tool') {
    out.skipped.push(`${at}: type ${JSON.stringify(type)} is not a handler type agent-hooks knows; not imported`);
    return undefined;
  }
  if (type === 'mcp_tool' && (typeof handler.tool !== 'string' || handler.tool === '')) {
    out.skipped.push(`${at}: no tool; not imported`);
    return undefined;
  }
  const needed = type === 'command' ? 'command' : type === 'http' ? 'url' : type === 'mcp_tool' ? 'server' : 'prompt';
  if (typeof handler[needed] !== 'string' || handler[needed] === '') {
    out.skipped.push(`${at}: no ${needed}; not imported`);
    return undefined;
  }
  const pluginVariable = type === 'command' ? pluginOnly(handler) : undefined;
  if (pluginVariable !== undefined) {
    // Claude Code refuses to run such a settings hook ("not associated with a plugin"); imported, it would run with the variable empty.
    out.skipped.push(`${at}: the command references \${${pluginVariable}}, which Claude Code sets only for a plugin's hooks/hooks.json, not in settings.json, where it refuses to run the hook; not imported`);
    return undefined;
  }
  const entry: Record<string, unknown> = {};
  if (typeof matcher === 'string' && matcher !== '' && matcher !== '*') entry.matcher = matcher;
  for (const k of KEPT) {
    if (handler[k] === undefined) continue;
    // `type: "command"` is the default: left out, so the entry reads like any other.
    if (k === 'type' && handler[k] === 'command') continue;
    entry[k] = handler[k];
  }
  for (const k of Object.keys(handler)) {
    if (!(KEPT as readonly string[]).includes(k) && k !== 'matcher') out.dropped.push(`${at}.${k}: not used by agent-hooks; left out`);
  }
  return entry;
}

/**
 * The server an imported mcp_tool hook names, from the first place that defines it (the project's `.mcp.json`, then
 * the settings file's own `mcpServers`), copied into the config's `mcpServers`. Claude Code expands `${VAR}` in
 * `.mcp.json`; agent-hooks does not, so such a server is copied and said. Not found: the hook is kept and fails as
 * "not connected" until the server is added.
 */
function bringServer(name: string, at: string, known: readonly { file: string; servers: unknown }[], out: Imported): void {
  if (Object.hasOwn(out.mcpServers, name)) return;
  for (const place of known) {
    const server = isRecord(place.servers) ? place.servers[name] : undefined;
    if (!isRecord(server)) continue;
    const copy: Record<string, unknown> = {};
    for (const k of SERVER_KEYS) if (server[k] !== undefined) copy[k] = server[k];
    if (copy.type === 'sse') {
      out.servers.push(`${at}: MCP server '${name}' in ${place.file} speaks the old SSE transport, which agent-hooks does not; not brought along (the hook fails as not connected until it has a server)`);
      return;
    }
    out.mcpServers[name] = copy;
    const dropped = Object.keys(server).filter((k) => !(SERVER_KEYS as readonly string[]).includes(k));
    const expands = JSON.stringify(copy).includes('${');
    out.servers.push(`MCP server '${name}': brought along from ${place.file}${dropped.length > 0 ? ` (without ${dropped.join(', ')})` : ''}${expands ? '; it holds ${VAR}, which Claude Code expands and agent-hooks does not: edit it' : ''}`);
    return;
  }
  out.servers.push(`${at}: MCP server '${name}' is in none of ${known.map((k) => k.file).join(', ') || 'the files read'}; the hook is imported and fails as not connected until you add '${name}' to mcpServers (in your user config if it is yours, e.g. from ~/.claude.json)`);
}

/** The plugin-only variable a settings handler's command or args name (`${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`), if any. */
function pluginOnly(handler: Record<string, unknown>): string | undefined {
  const texts = [handler.command, ...(Array.isArray(handler.args) ? handler.args : [])].filter((t): t is string => typeof t === 'string');
  return ['CLAUDE_PLUGIN_ROOT', 'CLAUDE_PLUGIN_DATA'].find((name) => texts.some((t) => t.includes(`\${${name}}`)));
}

/**
 * The config with the imported entries appended to each event's list; an entry already there (same
 * JSON) is not added twice, so importing again changes nothing.
 */
export function mergeImported(config: Record<string, unknown>, imported: Imported): { config: Record<string, unknown>; added: number } {
  const hooks: Record<string, unknown> = isRecord(config.hooks) ? { ...config.hooks } : {};
  let added = 0;
  for (const [event, entries] of Object.entries(imported.hooks)) {
    const existing = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
    const seen = new Set(existing.map((e) => JSON.stringify(e)));
    for (const entry of entries) {
      if (seen.has(JSON.stringify(entry))) continue;
      existing.push(entry);
      seen.add(JSON.stringify(entry));
      added++;
    }
    hooks[event] = existing;
  }
  const servers: Record<string, unknown> = isRecord(config.mcpServers) ? { ...config.mcpServers } : {};
  for (const [name, server] of Object.entries(imported.mcpServers)) {
    // A server of that name already in the config is the user's choice: kept.
    if (Object.hasOwn(servers, name)) continue;
    servers[name] = server;
    added++;
  }
  return { config: { ...config, ...(Object.keys(servers).length > 0 ? { mcpServers: servers } : {}), hooks }, added };
}
