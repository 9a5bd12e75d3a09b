// Codex CLI: `.codex/hooks.json` (or `$CODEX_HOME/hooks.json`, default `~/.codex`), Claude's shape and
// event names; it has no Notification or PostToolUseFailure, and Interrupt of its own. Timeout in seconds.
import path from 'node:path';
import { nestedEntries } from '../event-table.js';
import { eventsOf, supported } from '../../dialects/agent-events.js';
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
  // Every event the codex dialect maps, so an event the dialect learns is one Codex runs hooks on too.
  // SessionEnd is not in Codex's documented list, but the real CLI fires it (shared/payloads/codex/SessionEnd.json);
  // PermissionRequest, PostCompact, SubagentStart and Interrupt are hook keys of Codex 0.171's config schema.
  events: eventsOf(CODEX_EVENTS, supported(CODEX_EVENTS)),
  entries: nestedEntries,
  entry: (command, timeout) => ({ hooks: [{ type: 'command', command, timeout }] }),
  note: 'codex runs a hook only once you trust it: review the new ones with /hooks',
});
