// Claude Code: `.claude/settings.json` (or `~/.claude/settings.json`, `$CLAUDE_CONFIG_DIR`), one
// matcher-less group per event (no matcher: every tool, every source), timeout in seconds.
import path from 'node:path';
import { nestedEntries } from '../event-table.js';
import { jsonAgent } from '../json-agent.js';

export const claudeCode = jsonAgent({
  name: 'claude-code',
  dialect: 'claude-code',
  file: (scope, { cwd, home, env }) =>
    scope === 'project' ? path.join(cwd, '.claude', 'settings.json') : path.join(env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'), 'settings.json'),
  events: {
    PreToolUse: 'preToolUse',
    PostToolUse: 'postToolUse',
    PostToolUseFailure: 'postToolUseFailure',
    UserPromptSubmit: 'userPromptSubmit',
    Stop: 'stop',
    SubagentStop: 'subagentStop',
    PreCompact: 'preCompact',
    SessionStart: 'sessionStart',
    SessionEnd: 'sessionEnd',
    Notification: 'notification',
  },
  entries: nestedEntries,
  entry: (command, timeout) => ({ hooks: [{ type: 'command', command, timeout }] }),
});
