// Each supported agent's own tool names, as its hooks' tool_name carries them, and where each list was
// read. Claude Code's table lives in tools.ts (CLAUDE_CODE_TOOLS); this module is data only (no imports),
// so tools.ts can build the known-name set from it without a cycle.
//
// test/e2e/agent-tools.e2e.test.ts re-reads the lists of the agents installed in the e2e cache (their JS
// bundles, or the tools a native binary offers the model) and fails on a tool missing here. The agents
// that cannot run here (Cursor, Windsurf, Kiro, Factory) are taken from their docs and say so.

/** The agents with a tool table, by dialect name (`hooks run --dialect <name>`), Claude Code aside. */
export type ToolTableAgent = 'codex' | 'gemini' | 'copilot' | 'opencode' | 'qwen-code' | 'cline' | 'augment' | 'factory' | 'cursor' | 'windsurf' | 'kiro' | 'pi' | 'omp' | 'openclaw';

export interface AgentToolTable {
  /** The agent as users know it. */
  agent: string;
  /** The version the list was read from (the e2e pin), or `docs` when it could not be run here. */
  version: string;
  /** Where the list comes from. */
  source: string;
  tools: readonly string[];
}

export const AGENT_TOOLS: Readonly<Record<ToolTableAgent, AgentToolTable>> = {
  codex: {
    agent: 'Codex',
    version: '0.171.0',
    // A native binary: the names below are the tools it offered the fake model on a real run, plus
    // the names its hooks report for them (`Bash` for exec_command, as the payloads show; the binary
    // compares a hook's tool name against `Bash` and `apply_patch`).
    source: 'tools offered to the model by `codex exec` 0.171.0, and its hook payloads',
    tools: ['Bash', 'apply_patch', 'exec_command', 'write_stdin', 'request_user_input', 'view_image', 'get_goal', 'create_goal', 'update_goal', 'tool_search', 'web_search'],
  },
  gemini: {
    agent: 'Gemini CLI',
    version: '0.61.0',
    source: 'the `*_TOOL_NAME = "..."` constants of @google/gemini-cli 0.61.0 bundle/*.js',
    tools: [
      'activate_skill', 'ask_user', 'complete_task', 'enter_plan_mode', 'exit_plan_mode', 'get_internal_docs', 'glob', 'google_web_search',
      'grep_search', 'invoke_agent', 'list_directory', 'list_mcp_resources', 'read_file', 'read_many_files', 'read_mcp_resource', 'replace',
      'run_shell_command', 'take_snapshot', 'tracker_add_dependency', 'tracker_create_task', 'tracker_get_task', 'tracker_list_tasks',
      'tracker_update_task', 'tracker_visualize', 'update_topic', 'web_fetch', 'write_file', 'write_todos',
      // Earlier versions' names that settings still carry.
      'search_file_content', 'save_memory',
    ],
  },
  copilot: {
    agent: 'Copilot CLI',
    version: '1.0.102',
    // A native binary with its JS packed: the tools it offered the fake model on a real run
    // (COPILOT_MODEL=claude-sonnet-4.6), plus `web_fetch`, `ask_user`, `write_bash` and `report_intent`
    // from its hooks reference and other models' tool sets. PascalCase hooks get Claude's names (Bash, Read, ...).
    source: 'tools offered to the model by `copilot -p` 1.0.102, and the GitHub Copilot hooks reference',
    tools: [
      'bash', 'read_bash', 'write_bash', 'stop_bash', 'list_bash', 'view', 'create', 'edit', 'grep', 'glob', 'task', 'skill', 'sql',
      'session_store_sql', 'read_agent', 'list_agents', 'write_agent', 'fetch_copilot_cli_documentation', 'web_fetch', 'ask_user',
      'report_intent', 'powershell',
    ],
  },
  opencode: {
    agent: 'opencode',
    version: '1.18.33',
    // A Bun binary with its JS in plain text: each tool's definition (`=j("read",s.gen(...`) and the
    // default tool list (`["bash","read","edit",...]`). Its plugin hook `tool.execute.before` names them.
    source: 'the tool definitions in the opencode-linux-x64 1.18.33 binary',
    tools: ['apply_patch', 'bash', 'edit', 'glob', 'grep', 'invalid', 'lsp', 'plan_exit', 'question', 'read', 'skill', 'task', 'todowrite', 'webfetch', 'websearch', 'write'],
  },
  'qwen-code': {
    agent: 'Qwen Code',
    version: '0.24.4',
    source: 'the `ToolNames` object of @qwen-code/qwen-code 0.24.4 chunks/*.js',
    tools: [
      'agent', 'artifact', 'ask_user_question', 'create_sub_session', 'cron_create', 'cron_delete', 'cron_list', 'display_image', 'edit',
      'enter_plan_mode', 'enter_worktree', 'exec', 'exit_plan_mode', 'exit_worktree', 'get_goal', 'glob', 'grep_search', 'image_gen',
      'list_agents', 'list_directory', 'loop_wakeup', 'lsp', 'monitor', 'notebook_edit', 'omni_caption_audio', 'omni_caption_image',
      'omni_clip_audio', 'omni_clip_image', 'omni_clip_video', 'omni_convert_image', 'omni_downsample_audio', 'omni_downsample_image',
      'omni_downscale_video', 'omni_extract_audio', 'omni_extract_keyframes', 'omni_ocr_image', 'omni_recall_media_memory',
      'omni_transcribe_audio', 'omni_understand_video_segments', 'propose_goal', 'read_file', 'read_mcp_resource', 'record_artifact',
      'record_source', 'report_findings', 'request_shutdown', 'run_shell_command', 'save_memory', 'send_message', 'skill',
      'structured_output', 'task_create', 'task_list', 'task_stop', 'task_update', 'team_create', 'team_delete', 'team_plan_approval',
      'todo_write', 'tool_call', 'tool_search', 'update_goal', 'web_fetch', 'web_search', 'workflow', 'write_file', 'zoom_image',
    ],
  },
  cline: {
    agent: 'Cline',
    version: '3.0.65',
    // The CLI on @cline/core; the VS Code extension's older names (execute_command, write_to_file, ...)
    // come from its hooks reference, where `preToolUse.toolName` shows them.
    source: 'the tool-name object (`READ_FILES:"read_files",...`) of @cline/core in cline 3.0.65, and the Cline hooks reference',
    tools: [
      'read_files', 'search_codebase', 'run_commands', 'fetch_web_content', 'apply_patch', 'editor', 'skills', 'ask_question', 'submit_and_exit',
      'execute_command', 'read_file', 'write_to_file', 'replace_in_file', 'search_files', 'list_files', 'list_code_definition_names',
      'browser_action', 'use_mcp_tool', 'access_mcp_resource', 'ask_followup_question', 'attempt_completion', 'web_fetch',
    ],
  },
  augment: {
    agent: 'Augment (auggie)',
    version: '0.36.0',
    // Each tool class's `super("<name>", <version>)` in the bundle, plus the remote tools its hook policy
    // code names (`shell`, `web-search`, `grep-search`).
    source: 'the tool classes of @augmentcode/auggie 0.36.0 augment.mjs',
    tools: [
      'add_tasks', 'apply_patch', 'ask-user', 'bash', 'codebase-retrieval', 'codebase-retrieval-raw', 'conversation-retrieval', 'edit',
      'enter-plan-mode', 'exit-plan-mode', 'find', 'grep', 'grep-search', 'kill-process', 'launch-process', 'list-processes', 'ls', 'read',
      'read-process', 'remove-files', 'render-mermaid', 'reorganize_tasklist', 'report-to-parent', 'save-file', 'search-untruncated',
      'setup-script', 'shell', 'str-replace-editor', 'update_tasks', 'view', 'view-range-untruncated', 'view-session', 'view_tasklist',
      'web-fetch', 'web-search', 'write', 'write-process', 'git-commit-retrieval',
    ],
  },
  factory: {
    agent: 'Factory Droid',
    version: 'docs',
    // Not runnable here (its npm package downloads the binary): from Factory's hooks reference, which
    // lists the matchers `Task`, `Execute`, `Glob`, `Grep`, `Read`, `Edit`, `Create`, ... Unverified by a run.
    source: 'Factory hooks reference (docs.factory.ai), not run here',
    tools: ['Execute', 'Read', 'LS', 'Edit', 'MultiEdit', 'ApplyPatch', 'Create', 'Grep', 'Glob', 'FetchUrl', 'WebSearch', 'TodoWrite', 'Task', 'AskUser', 'Skill', 'ExitSpecMode', 'GenerateDroid'],
  },
  cursor: {
    agent: 'Cursor',
    version: 'docs',
    // Not runnable here: the preToolUse matcher's tool types from Cursor's hooks docs.
    source: 'cursor.com/docs/agent/hooks (preToolUse tool types), not run here',
    tools: ['Shell', 'Read', 'Write', 'Grep', 'Delete', 'MCP', 'Task'],
  },
  windsurf: {
    agent: 'Windsurf',
    version: 'docs',
    // Not runnable here. Cascade's hooks name no tool: its events are per action (pre_run_command, ...),
    // and the windsurf dialect names the tool in Claude's words (Bash, Read, Edit, mcp__server__tool).
    source: 'docs.windsurf.com/windsurf/cascade/hooks and the windsurf dialect, not run here',
    tools: ['Bash', 'Read', 'Edit'],
  },
  pi: {
    agent: 'pi',
    version: '0.73.1',
    // Its extension's tool_call names them; the generated extension hands them on as Claude Code's
    // (bash is Bash, find is Glob, ls is LS; an edit of several replacements is a MultiEdit).
    source: 'the built-in tools of @mariozechner/pi-coding-agent 0.73.1 (dist/core/tools/*.js)',
    tools: ['bash', 'read', 'edit', 'write', 'grep', 'find', 'ls'],
  },
  omp: {
    agent: 'oh-my-pi',
    version: '18.2.3',
    // The extension hands the ones with a Claude Code counterpart on under that name (bash is Bash, glob is Glob).
    source: 'BUILTIN_TOOL_NAMES and HIDDEN_TOOL_NAMES of @oh-my-pi/pi-coding-agent 18.2.3 (src/tools/builtin-names.ts)',
    tools: [
      'read', 'bash', 'edit', 'ast_grep', 'ast_edit', 'ask', 'debug', 'eval', 'github', 'glob', 'grep', 'lsp', 'checkpoint', 'rewind',
      'context_notes', 'new_context', 'security_scan', 'task', 'hub', 'todo', 'web_search', 'write', 'memory_edit', 'retain', 'recall',
      'reflect', 'learn', 'manage_skill', 'yield', 'goal', 'think',
    ],
  },
  openclaw: {
    agent: 'OpenClaw',
    version: '2026.9.6',
    // Its plugin's before_tool_call names them; the generated plugin hands the ones with a Claude Code
    // counterpart on under that name (exec is Bash, read is Read, web_fetch is WebFetch).
    source: 'tools offered to the model by `openclaw agent --local` 2026.9.6 (direct and deferred-schema), default config',
    tools: [
      'apply_patch', 'edit', 'exec', 'ls', 'openclaw', 'process', 'read', 'sessions_yield', 'tool_call', 'tool_describe', 'tool_search', 'write',
      'agents_list', 'agents_wait', 'ask_user', 'automations', 'browser', 'canvas', 'conversations_list', 'conversations_send',
      'conversations_turn', 'create_goal', 'dashboard', 'dir_fetch', 'dir_list', 'file_fetch', 'file_write', 'gateway', 'get_goal', 'intent',
      'memory_get', 'memory_search', 'message', 'mobile_ui', 'node_inference', 'nodes', 'plugins', 'portal', 'progress_card', 'secrets',
      'session_status', 'sessions', 'sessions_history', 'sessions_list', 'sessions_search', 'sessions_send', 'sessions_spawn', 'skill_workshop',
      'subagents', 'talk_voice', 'terminal', 'theme', 'transcripts', 'tts', 'update_goal', 'web_fetch', 'web_search',
    ],
  },
  kiro: {
    agent: 'Kiro',
    version: 'docs',
    // Not runnable here: the built-in tools Kiro's CLI hooks docs match on (`fs_write`, `fs_*`, `@builtin`);
    // v3 hook files also match `str_replace`.
    source: 'kiro.dev/docs/cli/hooks and kiro.dev/docs/cli/v3/hooks, not run here',
    tools: ['execute_bash', 'execute_cmd', 'fs_read', 'fs_write', 'str_replace', 'use_aws', 'report_issue', 'knowledge', 'thinking', 'todo_list', 'introspect', 'delegate', 'use_subagent', 'web_fetch', 'web_search', 'glob', 'grep', 'code', 'shell', 'read', 'write'],
  },
};

export const TOOL_TABLE_AGENTS = Object.keys(AGENT_TOOLS) as ToolTableAgent[];
