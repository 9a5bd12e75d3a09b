// Windsurf (Cascade): `.windsurf/hooks.json` in the workspace (or `~/.codeium/windsurf/hooks.json`),
// `{hooks: {pre_run_command: [{command, show_output}]}}`. Cascade has no timeout or fail-closed switch.
import path from 'node:path';
import { eventsOf } from '../../dialects/agent-events.js';
import { WINDSURF_EVENTS } from '../../dialects/windsurf.js';
import { flatEntries } from '../event-table.js';
import { jsonAgent } from '../json-agent.js';
import { GIT_ROOT_DIR } from '../launcher.js';

export const windsurf = jsonAgent({
  name: 'windsurf',
  dialect: 'windsurf',
  file: (scope, { cwd, home }) => (scope === 'project' ? path.join(cwd, '.windsurf', 'hooks.json') : path.join(home, '.codeium', 'windsurf', 'hooks.json')),
  // Cascade documents no project-folder variable for hooks.
  projectDir: GIT_ROOT_DIR,
  failure: {
    open: 'a missing or failing runner lets the action go on',
    closed: 'runner errors block the pre_ hooks (--on-error block); Cascade cannot block on a missing runner',
  },
  events: eventsOf(WINDSURF_EVENTS, ['pre_run_command', 'pre_read_code', 'pre_write_code', 'pre_mcp_tool_use', 'pre_user_prompt', 'post_run_command', 'post_write_code', 'post_mcp_tool_use', 'post_cascade_response']),
  entries: flatEntries('command'),
  entry: (command) => ({ command, show_output: false }),
});
