// Which hooks run for an event, and why the others do not.
import path from 'node:path';
import { CANONICAL_TOOLS, TOOL_GROUPS, isMcpTool, knownToolNames, toolAgentName, toolSpellings, type ToolAgent } from '../events/tools.js';
import { isInside, normalPath } from '../paths.js';
import type { HookEvent } from '../types.js';
import { claudeCandidates, claudePatternMatches, fieldMatcherPasses, type FieldMatcher } from './claude-matcher.js';
import { parseClaudeRule, rulePasses } from './claude-rule.js';
import { glob, pathGlob } from './glob.js';
import { compileRegexPattern, isRegexPattern, regexLooking, regexOf } from './tool-pattern.js';

/** The parts of a resolved hook that matching looks at. */
export interface Matchable {
  id: string;
  enabled: boolean;
  /** Tool globs, canonical or raw names, or `group:` names. */
  match?: readonly string[];
  /** Field → globs (any of them); every field must match. */
  if?: Readonly<Record<string, readonly string[]>>;
  /** `claude`: `match` came from a Claude Code matcher and is read as Claude Code reads it (case-sensitive, its own tool names). */
  matchMode?: 'claude';
  /** Claude Code's `if`: one permission rule such as `Bash(git push*)` (see claude-rule.ts). */
  rule?: string;
  /** A Claude matcher on a non-tool event: the payload field it tests and the matcher as written. */
  on?: FieldMatcher;
  /** Globs on the agent identity (`agent_type`, `agent_id`); `main` names the main agent (no identity). */
  agent?: readonly string[];
  /** The local-layer entry that changed this hook, so traces can say where `enabled: false` came from. */
  overriddenBy?: { layer: string; file: string; key: string; fields: readonly string[] };
}

export type Selection<H extends Matchable> =
  | { hook: H; selected: true }
  | { hook: H; selected: false; why: string };

/**
 * Splits hooks into those that run on this event and those that do not, with the reason. Keeps order. `home` is
 * where a Claude rule's `~/` points: the HOME of the environment the runner was given, which in a process that runs
 * the runner as a library (a server, a plugin host, the tests) is not this process's own.
 */
export function selectHooks<H extends Matchable>(
  hooks: readonly H[],
  event: HookEvent,
  skip: ReadonlySet<string> | ((hook: H) => string | undefined) = new Set(),
  home?: string,
): Selection<H>[] {
  return hooks.map((hook) => {
    const why = rejection(hook, event, skip, home);
    return why === undefined ? { hook, selected: true } : { hook, selected: false, why };
  });
}

/**
 * Why a `match` pattern is wrong, or undefined when it can match a known tool (or an MCP tool). With
 * `agent`, the config is that agent's alone and the pattern must name one of its tools (or a canonical
 * name); without, any supported agent's tool will do. A regex is probed on the same names: one that
 * matches none is a typo as surely as a glob. `unknownTools`: the hook says it targets tools no table
 * has (a plugin's, a gateway's bare MCP names), so only the pattern's syntax is checked.
 */
export function checkToolPattern(pattern: string, agent?: ToolAgent, unknownTools = false): string | undefined {
  if (pattern.startsWith('group:')) {
    return Object.hasOwn(TOOL_GROUPS, pattern) ? undefined : `unknown tool group "${pattern}"; known groups: ${Object.keys(TOOL_GROUPS).join(', ')}`;
  }
  let matches: (name: string) => boolean;
  if (isRegexPattern(pattern)) {
    const compiled = compileRegexPattern(pattern);
    if (!compiled.ok) return compiled.message;
    // A regex that names MCP tools cannot be probed: their names are the servers' own.
    if (/mcp/i.test(compiled.regex.source)) return undefined;
    matches = (name) => compiled.regex.test(name);
  } else {
    const looksLikeRegex = regexLooking(pattern);
    if (looksLikeRegex !== undefined) return looksLikeRegex;
    if (isMcpTool(pattern)) return undefined;
    matches = glob(pattern, 'tool');
  }
  if (unknownTools || knownToolNames(agent).some((name) => matches(name))) return undefined;
  const plugin = 'or set "matchUnknownTools": true on the hook for tools agent-hooks cannot know (plugin or bare MCP tool names)';
  if (agent !== undefined) return `"${pattern}" matches no ${toolAgentName(agent)} tool; use a canonical name (${CANONICAL_TOOLS.join(', ')}), one of ${toolAgentName(agent)}'s tool names, a group: name or an mcp__server__tool pattern, ${plugin}`;
  return `"${pattern}" matches no known tool; use a canonical name (${CANONICAL_TOOLS.join(', ')}), an agent's tool name, a group: name or an mcp__server__tool pattern, ${plugin}`;
}

// --- internal ---

/** `skip`: the ids HOOKS_SKIP names, or the switches' own answer per hook (config/switches.ts). */
function rejection<H extends Matchable>(hook: H, event: HookEvent, skip: ReadonlySet<string> | ((hook: H) => string | undefined), home: string | undefined): string | undefined {
  if (!hook.enabled) {
    const by = hook.overriddenBy?.fields.includes('enabled') ? ` in ${hook.overriddenBy.layer} layer ${hook.overriddenBy.file} ${hook.overriddenBy.key}` : '';
    return `disabled (enabled: false${by})`;
  }
  const off = typeof skip === 'function' ? skip(hook) : skip.has(hook.id) ? 'skipped by HOOKS_SKIP' : undefined;
  if (off !== undefined) return off;
  if (hook.match !== undefined) {
    if (event.tool === undefined) return 'has a tool matcher, and this event has no tool';
    const matches = hook.matchMode === 'claude' ? claudeToolMatches : toolMatches;
    if (!hook.match.some((p) => matches(p, event.tool!))) {
      return `match: tool ${describeTool(event.tool)} is not ${hook.match.join(' | ')}`;
    }
  }
  if (hook.rule !== undefined) {
    if (event.tool === undefined) return `if: "${hook.rule}" is a rule on a tool, and this event has no tool (Claude Code never runs such a hook either)`;
    const rule = parseClaudeRule(hook.rule);
    const cwd = typeof event.payload.cwd === 'string' ? event.payload.cwd : undefined;
    if (rule === undefined || !rulePasses(rule, event.tool, event.payload.tool_input, cwd, home)) return `if: the call does not match the rule "${hook.rule}"`;
  }
  if (hook.on !== undefined && !fieldMatcherPasses(hook.on, event.payload)) {
    return `matcher: ${hook.on.field} ${JSON.stringify(event.payload[hook.on.field])} is not "${hook.on.matcher}"`;
  }
  if (hook.agent !== undefined) {
    const ids = agentIdentity(event.payload);
    const names = ids.length === 0 ? ['main'] : ids;
    if (!hook.agent.some((p) => names.some((n) => glob(p, 'tool')(n)))) return `agent: ${names.join(' / ')} is not ${hook.agent.join(' | ')}`;
  }
  for (const [field, patterns] of Object.entries(hook.if ?? {})) {
    const value = fieldValue(event, field);
    if (value === undefined) return `if: the event has no "${field}"`;
    if (!patterns.some((p) => fieldMatches(field, p, value, event))) {
      return `if: ${field} does not match ${patterns.map((p) => JSON.stringify(p)).join(' | ')}`;
    }
  }
  return undefined;
}

// A matcher written for one agent must fire for every agent: `bash` (ai4j), `Bash` (Claude Code),
// `shell` (Codex) and `run_shell_command` (Gemini) all name the same tool, so a pattern is tried on
// every spelling of the event's tool, ignoring case. Matching more spellings can only make a guard
// fire more often, never less.
function toolMatches(pattern: string, tool: { name: string; canonical: string }): boolean {
  const group = Object.hasOwn(TOOL_GROUPS, pattern) ? TOOL_GROUPS[pattern] : undefined;
  if (group !== undefined) return group.includes(tool.canonical);
  if (isRegexPattern(pattern)) {
    const regex = regexOf(pattern);
    return regex !== null && (regex.test(tool.name) || toolSpellings(tool.canonical).some((name) => regex.test(name)));
  }
  const matcher = glob(pattern, 'tool');
  return matcher(tool.name) || toolSpellings(tool.canonical).some((name) => matcher(name));
}

function claudeToolMatches(pattern: string, tool: { name: string; canonical: string }): boolean {
  const candidates = claudeCandidates(tool, toolSpellings(tool.canonical));
  return claudePatternMatches(pattern, candidates, isRegexPattern(pattern) ? regexOf(pattern) : undefined);
}

function describeTool(tool: { name: string; canonical: string }): string {
  return tool.name === tool.canonical ? tool.canonical : `${tool.canonical} (${tool.name})`;
}

/** Who is acting: a subagent's `agent_type` and `agent_id` (Claude Code), or a dialect's equivalent. */
function agentIdentity(payload: HookEvent['payload']): string[] {
  return ['agent_type', 'agent_id', 'agent_name', 'agentName'].flatMap((k) => {
    const v = payload[k];
    return typeof v === 'string' && v !== '' ? [v] : [];
  });
}

/** A tool-input field first, else a top-level payload field (`prompt`, `source`, `trigger`, ...). */
function fieldValue(event: HookEvent, field: string): string | undefined {
  const input = event.payload.tool_input;
  const raw = input !== undefined && field in input ? input[field] : event.payload[field];
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  return undefined;
}

function fieldMatches(field: string, pattern: string, given: string, event: HookEvent): boolean {
  if (!/path|file/i.test(field)) return glob(pattern, 'text')(given.replace(/\s+/g, ' '));
  const value = normalPath(given);
  const matcher = pathGlob(pattern);
  if (matcher(value)) return true;
  // Agents send absolute paths; users write globs relative to the project (`src/**`).
  const cwd = event.payload.cwd;
  if (typeof cwd === 'string' && path.isAbsolute(value)) {
    return isInside(cwd, value) && matcher(path.relative(cwd, value));
  }
  return false;
}
