// Tool names: every agent's spelling mapped to one canonical name, plus the groups matchers may use.

/** Canonical tool names, and the agent spellings that map to each. */
const ALIASES: Record<string, readonly string[]> = {
  exec: ['Bash', 'bash', 'shell', 'Shell', 'run_shell_command', 'exec_command', 'local_shell', 'run_terminal_cmd', 'execute_command', 'terminal', 'powershell', 'PowerShell'],
  read: ['Read', 'read_file', 'ReadFile', 'view', 'NotebookRead', 'read_many_files'],
  write: ['Write', 'write_file', 'WriteFile', 'create', 'create_file'],
  edit: ['Edit', 'MultiEdit', 'NotebookEdit', 'replace', 'edit_file', 'str_replace_editor', 'search_replace'],
  apply_patch: ['ApplyPatch', 'applyPatch', 'apply-patch'],
  web_fetch: ['WebFetch', 'fetch', 'web-fetch'],
  web_search: ['WebSearch', 'google_web_search'],
  process: ['BashOutput', 'KillShell', 'KillBash'],
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

/** Tools agents have that keep their own name (no canonical equivalent); known so matchers can name them. */
const OTHER_KNOWN = [
  'Glob', 'Grep', 'LS', 'Task', 'Agent', 'TodoWrite', 'TodoRead', 'ExitPlanMode', 'AskUserQuestion', 'Skill',
  'SlashCommand', 'glob', 'grep', 'search_file_content', 'list_directory', 'save_memory', 'write_todos',
];

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
export const KNOWN_TOOL_NAMES: readonly string[] = [...toCanonical.keys(), ...OTHER_KNOWN];

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
