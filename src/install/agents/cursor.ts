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
  // Cursor runs project hooks in the project folder and names it in CURSOR_PROJECT_DIR.
  projectDir: { shell: '"${CURSOR_PROJECT_DIR:-.}"', base: (cwd) => cwd },
  failure: {
    open: 'a missing or failing runner lets the call go on',
    closed: 'failClosed: a missing or failing runner blocks preToolUse and beforeSubmitPrompt',
  },
  events: eventsOf(CURSOR_EVENTS, ['preToolUse', 'postToolUse', 'postToolUseFailure', 'beforeSubmitPrompt', 'stop', 'subagentStop', 'preCompact', 'sessionStart', 'sessionEnd']),
  entries: flatEntries('command'),
  entry: (command, timeout, _event, failClosed) => ({ command, timeout, ...(failClosed ? { failClosed: true } : {}) }),
  skeleton: { version: 1 },
});
