// Gemini CLI: `.gemini/settings.json` (or `~/.gemini/settings.json`), Claude-like groups under Gemini's
// own event names. Its timeout is in milliseconds; `name` is what /hooks shows and toggles.
import path from 'node:path';
import { eventSpec } from '../../events/catalog.js';
import { nestedEntries } from '../event-table.js';
import { eventsOf } from '../../dialects/agent-events.js';
import { GEMINI_EVENTS } from '../../dialects/gemini.js';
import { jsonAgent } from '../json-agent.js';

export const gemini = jsonAgent({
  name: 'gemini',
  dialect: 'gemini',
  file: (scope, { cwd, home }) => path.join(scope === 'project' ? cwd : home, '.gemini', 'settings.json'),
  // Set by Gemini CLI for every hook: the project folder whose .gemini/ this is.
  projectDir: { shell: '"$GEMINI_PROJECT_DIR"', base: (cwd) => cwd },
  failure: {
    open: 'a missing or failing runner lets the call go on (a warning)',
    closed: 'runner errors block (--on-error block); Gemini CLI cannot block on a missing runner',
  },
  events: eventsOf(GEMINI_EVENTS, ['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'PreCompress', 'SessionStart', 'SessionEnd', 'Notification']),
  entries: nestedEntries,
  entry: (command, timeout, event) => ({
    hooks: [{ type: 'command', name: `agent-hooks-${eventSpec(event).cli}`, command, timeout: timeout * 1000 }],
  }),
});
