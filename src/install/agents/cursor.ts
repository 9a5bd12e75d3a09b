// Cursor: `.cursor/hooks.json` (or `~/.cursor/hooks.json`), `{version: 1, hooks: {event: [{command,
// timeout}]}}` with camelCase events. Only the generic tool events: the granular ones
// (beforeShellExecution, beforeReadFile, ...) fire for the same call and would run every hook twice.
import path from 'node:path';
import { flatEntries } from '../event-table.js';
import { eventsOf } from '../../dialects/agent-events.js';
import { CURSOR_EVENTS } from '../../dialects/cursor.js';
import { jsonAgent } from '../json-agent.js';

export const cursor = jsonAgent({
  name: 'cursor',
  dialect: 'cursor',
  file: (scope, { cwd, home }) => path.join(scope === 'project' ? cwd : home, '.cursor', 'hooks.json'),
  events: eventsOf(CURSOR_EVENTS, ['preToolUse', 'postToolUse', 'postToolUseFailure', 'beforeSubmitPrompt', 'stop', 'subagentStop', 'preCompact', 'sessionStart', 'sessionEnd']),
  entries: flatEntries('command'),
  entry: (command, timeout) => ({ command, timeout }),
  skeleton: { version: 1 },
});
