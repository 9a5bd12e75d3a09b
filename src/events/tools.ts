// Tool names: every agent's spelling mapped to one canonical name, plus the groups matchers may use.
import { AGENT_TOOLS, type ToolTableAgent } from './agent-tools.js';

/** Canonical tool names, and the agent spellings that map to each. */
const ALIASES: Record<string, readonly string[]> = {
  exec: ['Bash', 'bash', 'shell', 'Shell', 'run_shell_command', 'exec_command', 'local_shell', 'run_terminal_cmd', 'execute_command', 'terminal', 'powershell', 'PowerShell'],
  read: ['Read', 'read_file', 'ReadFile', 'view', 'NotebookRead', 'read_many_files'],
  write: ['Write', 'write_file', 'WriteFile', 'create', 'create_file'],
  edit: ['Edit', 'MultiEdit', 'NotebookEdit', 'replace', 'edit_file', 'str_replace_editor', 'search_replace'],
  apply_patch: ['ApplyPatch', 'applyPatch', 'apply-patch'],
  web_fetch: ['WebFetch', 'fetch', 'web-fetch'],
  web_search: ['WebSearch', 'google_web_search'],
  process: ['BashOutput', 'KillShell', 'KillBash', 'TaskStop'],
  memory_search: [],
  memory_get: [],
  sessions_list: [],
  sessions_history: [],
  sessions_send: [],
  sessions_spawn: [],
  session_status: [],
  browser: [],
  canvas: [],
  cron: [],
  gateway: [],
  message: [],
  nodes: [],
  agents_list: [],
  image: [],
  tts: [],
};

/**
 * Claude Code's built-in tools, as Claude Code 2.1.332 lists them: read from its CLI bundle
 * (`node_modules/@anthropic-ai/claude-code-linux-x64/claude`), where the sorted array of every built-in
 * tool name is followed by the map of retired names (`=["Agent","Artifact",...,"Write"],X={Task:"Agent",...}`).
 * test/e2e/claude-tools.e2e.test.ts re-reads that bundle and fails on a tool missing here.
 */
export const CLAUDE_CODE_TOOLS: readonly string[] = [
  'Agent', 'Artifact', 'AskUserQuestion', 'Bash', 'ClaudeDesign', 'CronCreate', 'CronDelete', 'CronList', 'Edit',
  'EndConversation', 'EnterPlanMode', 'EnterWorktree', 'ExitPlanMode', 'ExitWorktree', 'Glob', 'Grep', 'ListAgents',
  'ListMcpResourcesTool', 'LSP', 'Monitor', 'NotebookEdit', 'OfferChromeSetup', 'PowerShell', 'Projects', 'propose_skills',
  'PushNotification', 'Read', 'ReadMcpResourceDirTool', 'ReadMcpResourceTool', 'ReadNotifications', 'RemoteTrigger',
  'ReportFindings', 'ScheduleWakeup', 'SendFeedback', 'SendMessage', 'SendUserFile', 'SendUserMessage', 'SetGoal',
  'ShareOnboardingGuide', 'ShowOnboardingRolePicker', 'Skill', 'SubagentHandback', 'TaskCreate', 'TaskGet', 'TaskList',
  'TaskStop', 'TaskUpdate', 'TodoWrite', 'ToolSearch', 'WaitForMcpServers', 'WebFetch', 'WebSearch', 'Workflow', 'Write',
];

/**
 * Claude Code 2.1.332's retired tool names and the tool each now is (the map after the list above, plus
 * `Eval: "REPL"`). Claude Code resolves a matcher's names through it, so `KillShell` still fires on TaskStop.
 */
export const CLAUDE_CODE_RETIRED_TOOLS: Readonly<Record<string, string>> = {
  Task: 'Agent', KillShell: 'TaskStop', KillBash: 'TaskStop', ListPeers: 'ListAgents', Brief: 'SendUserMessage',
  ListMcpResources: 'ListMcpResourcesTool', ReadMcpResource: 'ReadMcpResourceTool', ReadMcpResourceDir: 'ReadMcpResourceDirTool',
  ProposeGoal: 'SetGoal', Eval: 'REPL',
};

/** Tools of earlier Claude Code versions, gone from 2.1.332 without a retired-name entry: settings still name them. */
export const CLAUDE_CODE_EARLIER_TOOLS: readonly string[] = ['MultiEdit', 'NotebookRead', 'LS', 'TodoRead', 'SlashCommand', 'BashOutput', 'REPL'];

/** Claude Code's names: its tools, their retired names, and earlier versions' tools. */
const CLAUDE_KNOWN = [...CLAUDE_CODE_TOOLS, ...Object.keys(CLAUDE_CODE_RETIRED_TOOLS), ...CLAUDE_CODE_EARLIER_TOOLS];

/** Tools agents have that keep their own name (no canonical equivalent); known so matchers can name them. */
const OTHER_KNOWN = [...CLAUDE_KNOWN, ...Object.values(AGENT_TOOLS).flatMap((t) => t.tools)];

export const TOOL_GROUPS: Record<string, readonly string[]> = {
  'group:fs': ['read', 'write', 'edit', 'apply_patch'],
  'group:runtime': ['exec', 'process'],
  'group:web': ['web_fetch', 'web_search'],
  'group:memory': ['memory_search', 'memory_get'],
  'group:sessions': ['sessions_list', 'sessions_history', 'sessions_send', 'sessions_spawn', 'session_status'],
  'group:ui': ['browser', 'canvas'],
  'group:automation': ['cron', 'gateway'],
  'group:messaging': ['message'],
  'group:nodes': ['nodes', 'agents_list'],
  'group:media': ['image', 'tts'],
};

export const CANONICAL_TOOLS: readonly string[] = Object.keys(ALIASES);

const toCanonical = new Map<string, string>();
for (const [canonical, aliases] of Object.entries(ALIASES)) {
  toCanonical.set(canonical, canonical);
  for (const alias of aliases) toCanonical.set(alias, canonical);
}

/** Every tool name a matcher may sensibly name: canonical names, agent spellings, other known tools. */
export const KNOWN_TOOL_NAMES: readonly string[] = [...new Set([...toCanonical.keys(), ...OTHER_KNOWN])];

/** The agents with a tool table: Claude Code and those in agent-tools.ts, by dialect name. */
export type ToolAgent = 'claude-code' | ToolTableAgent;

export function hasToolTable(agent: string): agent is ToolAgent {
  return agent === 'claude-code' || Object.hasOwn(AGENT_TOOLS, agent);
}

/**
 * The names a matcher may name for one agent: the canonical names and every spelling of them (a
 * matcher is tried on every spelling of the event's tool, so `run_shell_command` still fires on Codex's
 * shell), and that agent's own tools. Without an agent: every agent's tools (KNOWN_TOOL_NAMES).
 */
export function knownToolNames(agent?: ToolAgent): readonly string[] {
  if (agent === undefined) return KNOWN_TOOL_NAMES;
  let names = perAgent.get(agent);
  if (names === undefined) {
    names = [...new Set([...toCanonical.keys(), ...(agent === 'claude-code' ? CLAUDE_KNOWN : AGENT_TOOLS[agent].tools)])];
    perAgent.set(agent, names);
  }
  return names;
}

const perAgent = new Map<ToolAgent, readonly string[]>();

/** The agent as users know it, for messages. */
export function toolAgentName(agent: ToolAgent): string {
  return agent === 'claude-code' ? 'Claude Code' : AGENT_TOOLS[agent].agent;
}

/** Every spelling of a canonical tool (itself and each agent's name for it); an unknown tool is only itself. */
export function toolSpellings(canonical: string): readonly string[] {
  const aliases = Object.hasOwn(ALIASES, canonical) ? ALIASES[canonical]! : [];
  return [canonical, ...aliases];
}

/** The canonical name of a tool; MCP tools and unknown tools keep their own name. */
export function canonicalTool(raw: string): string {
  return toCanonical.get(raw) ?? raw;
}

export function isMcpTool(name: string): boolean {
  return name.startsWith('mcp__');
}
