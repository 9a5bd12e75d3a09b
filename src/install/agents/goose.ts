// goose: hooks come from plugins, so ours is a plugin folder of its own, `.agents/plugins/agent-hooks/`
// (or `~/.agents/plugins/agent-hooks/`), whose `hooks/hooks.json` is Claude's shape with timeouts in
// seconds. Read from goose's documentation; goose (a Rust binary from GitHub releases) is not driven here.
import path from 'node:path';
import { eventsOf } from '../../dialects/agent-events.js';
import { GOOSE_EVENTS } from '../../dialects/goose.js';
import { nestedEntries } from '../event-table.js';
import { jsonAgent } from '../json-agent.js';

export const goose = jsonAgent({
  name: 'goose',
  dialect: 'goose',
  file: (scope, { cwd, home }) => path.join(scope === 'project' ? cwd : home, '.agents', 'plugins', 'agent-hooks', 'hooks', 'hooks.json'),
  // goose sets PLUGIN_ROOT, the plugin's folder (<project>/.agents/plugins/agent-hooks), for every hook.
  projectDir: { shell: '"$PLUGIN_ROOT/../../.."', base: (cwd) => cwd },
  failure: {
    open: 'a missing or failing runner lets the call go on',
    closed: 'a runner that is missing, fails or times out blocks the tool call (on_failure: block); goose cannot block a prompt',
  },
  events: eventsOf(GOOSE_EVENTS, ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'Stop', 'SessionStart', 'SessionEnd']),
  entries: nestedEntries,
  // on_failure is goose's fail-closed switch; it reads it on PreToolUse only.
  entry: (command, timeout, event, failClosed) => ({ hooks: [{ type: 'command', command, timeout, ...(failClosed && event === 'preToolUse' ? { on_failure: 'block' } : {}) }] }),
  ownFile: true,
  note: 'goose loads project plugins when it starts in the project; restart goose, and list "agent-hooks" nowhere in disabledPlugins',
});
