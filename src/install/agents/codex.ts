// Codex CLI: `.codex/hooks.json` (or `$CODEX_HOME/hooks.json`, default `~/.codex`), Claude's shape and
// event names; it has no Notification or PostToolUseFailure. Timeout in seconds.
import path from 'node:path';
import { nestedEntries } from '../event-table.js';
import { eventsOf } from '../../dialects/agent-events.js';
import { CODEX_EVENTS } from '../../dialects/codex.js';
import { jsonAgent } from '../json-agent.js';
import { GIT_ROOT_DIR } from '../launcher.js';

export const codex = jsonAgent({
  name: 'codex',
  dialect: 'codex',
  file: (scope, { cwd, home, env }) =>
    scope === 'project' ? path.join(cwd, '.codex', 'hooks.json') : path.join(env.CODEX_HOME || path.join(home, '.codex'), 'hooks.json'),
  projectDir: GIT_ROOT_DIR,
  failure: {
    open: 'a missing or failing runner lets the call go on',
    closed: 'runner errors block (--on-error block); Codex cannot block on a missing runner (it has no fail-closed switch)',
  },
  // SessionEnd is not in Codex's documented list, but the real CLI fires it (shared/payloads/codex/SessionEnd.json).
  events: eventsOf(CODEX_EVENTS, ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'SessionStart', 'SessionEnd']),
  entries: nestedEntries,
  entry: (command, timeout) => ({ hooks: [{ type: 'command', command, timeout }] }),
  note: 'codex runs a hook only once you trust it: review the new ones with /hooks',
});
