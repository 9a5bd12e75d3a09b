// Claude Code's settings shape inside a config: an event's list may hold Claude's matcher groups
// (`{"matcher": "Edit|Write", "hooks": [{"type": "command", ...}]}`) next to agent-hooks entries.
// Groups are flattened here, before the schema check, into one entry per handler carrying the
// group's `matcher`; handlers agent-hooks cannot run (`agent`) and keys it does
// not know are dropped with one warning each. Nothing Claude-shaped is ever an error that switches the
// other hooks off.
import { isRecord } from '../json.js';

/** Keys an entry may carry (agent-hooks' own and the Claude Code keys the schema understands). */
const KNOWN_KEYS = new Set([
  'id', 'command', 'args', 'builtin', 'options', 'type', 'match', 'matcher', 'if', 'agent', 'priority', 'timeout', 'onFailure',
  'parallel', 'env', 'cwd', 'enabled', 'url', 'headers', 'allowedEnvVars', 'async', 'asyncRewake', 'once', 'shell', 'statusMessage', 'audit',
  'prompt', 'model', 'provider', 'endpoint', 'apiKeyEnv', 'apiKeyFile', 'continueOnBlock', 'maxTurns', 'server', 'tool', 'input',
]);


export interface Expanded {
  /** The config with every list flattened (the input is not changed). */
  config: unknown;
  /** Per event key, the key path each flattened entry had in the file (`hooks.PreToolUse[0].hooks[1]`), without the layer's prefix. */
  keys: Map<string, string[]>;
  /** One line per entry skipped or key dropped, naming the file and key path. */
  warnings: string[];
}

/** Flattens Claude matcher groups; `prefix` is the layer's key prefix (package.json's `hooks.`). */
export function expandClaudeShape(config: unknown, file: string, prefix = ''): Expanded {
  const keys = new Map<string, string[]>();
  const warnings: string[] = [];
  if (!isRecord(config) || !isRecord(config.hooks)) return { config, keys, warnings };
  const hooks: Record<string, unknown> = {};
  let changed = false;
  for (const [event, list] of Object.entries(config.hooks)) {
    if (!Array.isArray(list)) {
      hooks[event] = list;
      continue;
    }
    const out: unknown[] = [];
    const paths: string[] = [];
    list.forEach((entry, index) => {
      const key = `hooks.${event}[${index}]`;
      const at = `${prefix}${key}`;
      if (isGroup(entry)) {
        changed = true;
        for (const key of Object.keys(entry)) {
          if (key !== 'matcher' && key !== 'hooks') warnings.push(`${file}: ${at}.${key}: not a key of a Claude Code matcher group (matcher, hooks); ignored`);
        }
        const matcher = typeof entry.matcher === 'string' ? entry.matcher : undefined;
        if (entry.matcher !== undefined && matcher === undefined) warnings.push(`${file}: ${at}.matcher: not a string; the group matches everything, as an absent matcher does`);
        (entry.hooks as unknown[]).forEach((handler, j) => {
          const converted = convert(handler, matcher, file, `${at}.hooks[${j}]`, warnings);
          if (converted === undefined) return;
          out.push(converted);
          paths.push(`${key}.hooks[${j}]`);
        });
        return;
      }
      if (isRecord(entry) && (entry.type !== undefined || entry.matcher !== undefined)) {
        const converted = convert(entry, undefined, file, at, warnings);
        if (converted !== entry) changed = true;
        if (converted === undefined) return;
        out.push(converted);
        paths.push(key);
        return;
      }
      out.push(entry);
      paths.push(key);
    });
    hooks[event] = out;
    keys.set(event, paths);
  }
  return { config: changed ? { ...config, hooks } : config, keys, warnings };
}

/** A matcher group: `hooks` is a list and the entry names nothing to run itself. */
export function isGroup(entry: unknown): entry is { matcher?: unknown; hooks: unknown[] } {
  return isRecord(entry) && Array.isArray(entry.hooks) && entry.command === undefined && entry.builtin === undefined && entry.url === undefined;
}

function convert(handler: unknown, matcher: string | undefined, file: string, at: string, warnings: string[]): unknown {
  // Not an object: left for the schema check to name.
  if (!isRecord(handler)) return handler;
  const type = handler.type;
  if (type !== undefined && type !== 'command' && type !== 'http' && type !== 'prompt' && type !== 'agent' && type !== 'mcp_tool') {
    warnings.push(`${file}: ${at}: type ${JSON.stringify(type)} is not a handler type agent-hooks knows (command, http, prompt, agent, mcp_tool): this hook is not run (the others are)`);
    return undefined;
  }
  const out: Record<string, unknown> = {};
  let dropped = false;
  for (const [key, value] of Object.entries(handler)) {
    if (KNOWN_KEYS.has(key)) out[key] = value;
    else {
      dropped = true;
      warnings.push(`${file}: ${at}.${key}: a key agent-hooks does not use; ignored (the hook runs without it)`);
    }
  }
  if (matcher !== undefined && out.matcher === undefined && out.match === undefined) out.matcher = matcher;
  // `audit` on a command hook is interceptor's shadow-mode key; passed through untouched.
  return !dropped && out.matcher === handler.matcher ? handler : out;
}
