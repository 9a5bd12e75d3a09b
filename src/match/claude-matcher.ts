// Claude Code's `matcher` (settings files, 2.1.328), translated to what agent-hooks matches with.
//
// Claude Code reads a matcher three ways (checked in the 2.1.328 binary, `MVe`/`one`):
//   - "", "*" or none: everything;
//   - only letters, digits, `_`, `-`, space, `,` and `|`: a list of exact names split on `|` or `,`
//     (trimmed), compared case-sensitively;
//   - anything else: `new RegExp(matcher).test(name)`, unanchored (`Edit.*` also hits `NotebookEdit`);
//     a regex that does not compile is logged and matches nothing.
// On tool events the name is `tool_name` (and its aliases); on other events a field of the payload.

import { CLAUDE_CODE_EARLIER_TOOLS, CLAUDE_CODE_RETIRED_TOOLS, CLAUDE_CODE_TOOLS } from '../events/tools.js';
import { isRecord } from '../json.js';

const EXACT = /^[a-zA-Z0-9_|, -]+$/;

export type ClaudeMatcher =
  | { kind: 'all' }
  | { kind: 'names'; names: string[] }
  | { kind: 'regex'; source: string; regex: RegExp | null };

export function parseClaudeMatcher(matcher: string | undefined): ClaudeMatcher {
  if (matcher === undefined || matcher === '' || matcher === '*') return { kind: 'all' };
  if (EXACT.test(matcher)) {
    const names = matcher.split(/[|,]/).map((n) => n.trim()).filter(Boolean);
    // `" "` or `"|"`: Claude Code splits it into no names, and matches nothing.
    return { kind: 'names', names };
  }
  let regex: RegExp | null = null;
  try {
    regex = new RegExp(matcher);
  } catch {
    regex = null;
  }
  return { kind: 'regex', source: matcher, regex };
}

/**
 * A tool-event matcher as `match` patterns (names stay names; a regex becomes `/.../`), or undefined
 * for "every tool". The regex is not anchored, as in Claude Code.
 */
export function claudeMatcherToMatch(matcher: string | undefined): string[] | undefined {
  const m = parseClaudeMatcher(matcher);
  if (m.kind === 'all') return undefined;
  if (m.kind === 'names') return m.names;
  return [`/${m.source}/`];
}

/**
 * The payload field Claude Code tests a non-tool event's matcher against (from the hooks reference;
 * events absent here have no matcher, and Claude Code ignores one written there).
 */
export const MATCHER_FIELDS: Readonly<Record<string, string>> = {
  SessionStart: 'source',
  SessionEnd: 'reason',
  Setup: 'trigger',
  Notification: 'notification_type',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
  PreCompact: 'trigger',
  PostCompact: 'trigger',
  ConfigChange: 'source',
  DirectoryAdded: 'source',
  FileChanged: 'file_path',
  StopFailure: 'error',
  InstructionsLoaded: 'load_reason',
  UserPromptExpansion: 'command_name',
  Elicitation: 'mcp_server_name',
  ElicitationResult: 'mcp_server_name',
  PreModelSwitch: 'to_model',
  PostModelSwitch: 'to_model',
};

/** A non-tool event's matcher as a hook keeps it: the payload field and the matcher as written. */
export interface FieldMatcher {
  field: string;
  matcher: string;
}

/**
 * Whether a non-tool event's payload passes a Claude matcher. A payload without the field passes: the
 * hook runs rather than being skipped on a payload it cannot read (a guard that silently never runs is
 * the worse mistake). FileChanged matches the file's base name, as its watch list does.
 */
export function fieldMatcherPasses(on: FieldMatcher, payload: Record<string, unknown>): boolean {
  const raw = isRecord(payload) ? payload[on.field] : undefined;
  if (typeof raw !== 'string') return true;
  const value = on.field === 'file_path' ? (raw.split(/[\\/]/).pop() ?? raw) : raw;
  const m = parseClaudeMatcher(on.matcher);
  if (m.kind === 'all') return true;
  if (m.kind === 'names') return m.names.includes(value);
  return m.regex !== null && m.regex.test(value);
}

/** Claude Code's own tool names: a tool called by one of these is matched by that name alone, as Claude Code does. */
const CLAUDE_TOOL_NAMES = new Set([...CLAUDE_CODE_TOOLS, ...Object.keys(CLAUDE_CODE_RETIRED_TOOLS), ...CLAUDE_CODE_EARLIER_TOOLS]);
/**
 * Claude Code's retired names, both ways: it resolves a matcher's names to the current tool (`Task` fires on
 * Agent, `KillShell` on TaskStop), and a session of an older version still calls the tool by its old name.
 */
const CLAUDE_ALIASES = new Map<string, string[]>();
for (const [old, current] of Object.entries(CLAUDE_CODE_RETIRED_TOOLS)) {
  const group = [...new Set([current, ...(CLAUDE_ALIASES.get(current) ?? []), old])];
  for (const name of group) CLAUDE_ALIASES.set(name, group);
}

/**
 * The names a Claude matcher is tested against for this tool: Claude Code's own name (and its
 * aliases) when the agent is Claude Code; for another agent's tool (Codex `shell`, Gemini
 * `run_shell_command`), every spelling, so an imported `Bash` hook guards their shell too.
 */
export function claudeCandidates(tool: { name: string }, spellings: readonly string[]): readonly string[] {
  if (CLAUDE_TOOL_NAMES.has(tool.name) || tool.name.startsWith('mcp__')) return [tool.name, ...(CLAUDE_ALIASES.get(tool.name) ?? []).filter((n) => n !== tool.name)];
  return [tool.name, ...spellings];
}

/** Whether a translated Claude matcher pattern (a name or a `/.../` regex) matches one of the candidates, case-sensitively. */
export function claudePatternMatches(pattern: string, candidates: readonly string[], regex: RegExp | null | undefined): boolean {
  if (regex !== undefined) return regex !== null && candidates.some((c) => regex.test(c));
  return candidates.includes(pattern);
}

/**
 * Why a name in a Claude matcher's list can never match, where the tool check alone would pass it:
 * `mcp__memory` names a server, and Claude Code compares the whole tool name (`mcp__memory__create`),
 * so it matches nothing there (the most reported matcher mistake).
 */
export function claudeNameProblem(name: string): string | undefined {
  const server = /^mcp__((?:(?!__).)+)$/s.exec(name);
  if (server === null) return undefined;
  return `"${name}" names an MCP server, not a tool; Claude Code compares the whole tool name (mcp__${server[1]}__<tool>), so it matches nothing; write "mcp__${server[1]}__.*" for every tool of that server`;
}

/** The problems of a tool-event Claude matcher that only Claude's reading shows (see `claudeNameProblem`). */
export function claudeMatcherProblems(matcher: string): string[] {
  const m = parseClaudeMatcher(matcher);
  if (m.kind !== 'names') return [];
  return m.names.flatMap((name) => claudeNameProblem(name) ?? []);
}
