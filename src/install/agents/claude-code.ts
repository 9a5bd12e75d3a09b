// Claude Code: `.claude/settings.json` (or `~/.claude/settings.json`, `$CLAUDE_CONFIG_DIR`), one
// matcher-less group per event (no matcher: every tool, every source), timeout in seconds.
import path from 'node:path';
import { EVENTS } from '../../events/catalog.js';
import { nestedEntries } from '../event-table.js';
import { jsonAgent } from '../json-agent.js';

export const claudeCode = jsonAgent({
  name: 'claude-code',
  dialect: 'claude-code',
  file: (scope, { cwd, home, env }) =>
    scope === 'project' ? path.join(cwd, '.claude', 'settings.json') : path.join(env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'), 'settings.json'),
  // Claude Code's names are the catalog's own: every event agent-hooks knows.
  events: Object.fromEntries(EVENTS.map((e) => [e.claude, e.name])),

  entries: nestedEntries,
  entry: (command, timeout) => ({ hooks: [{ type: 'command', command, timeout }] }),
});
