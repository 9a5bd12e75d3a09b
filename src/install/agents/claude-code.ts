// Claude Code: `.claude/settings.json` (or `~/.claude/settings.json`, `$CLAUDE_CONFIG_DIR`), one group
// per event the config uses (--project; --user: every event), timeout in seconds.
import path from 'node:path';
import { EVENTS, NOT_CLAUDE_CODE } from '../../events/catalog.js';
import { MODEL_EVENTS } from '../../events/model-request.js';
import { nestedEntries } from '../event-table.js';
import { jsonAgent } from '../json-agent.js';

export const claudeCode = jsonAgent({
  name: 'claude-code',
  dialect: 'claude-code',
  file: (scope, { cwd, home, env }) =>
    scope === 'project' ? path.join(cwd, '.claude', 'settings.json') : path.join(env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'), 'settings.json'),
  // Set by Claude Code for every hook: the folder the session started in, whose .claude/ this is.
  projectDir: { shell: '"$CLAUDE_PROJECT_DIR"', base: (cwd) => cwd },
  failure: {
    open: 'a missing or failing runner lets the call go on (a notice in the transcript)',
    closed: 'onFailure "block": a missing, crashing or timed-out runner blocks PreToolUse and UserPromptSubmit',
  },
  // Claude Code's names are the catalog's own: every Claude Code event (not the model events, nor
  // other agents' own events, which Claude Code does not have). --project registers only those the config uses (see plan.ts).
  events: Object.fromEntries(EVENTS.filter((e) => !MODEL_EVENTS.includes(e.name) && !NOT_CLAUDE_CODE.includes(e.name)).map((e) => [e.claude, e.name])),

  entries: nestedEntries,
  http: true,
  // onFailure sits on the handler (on the group Claude Code ignores it); 2.1.295+, older releases ignore it.
  // The matcher (when the config's match names exact tools) keeps Claude Code from spawning the runner
  // for tools no hook guards; see src/install/plan.ts.
  entry: (command, timeout, _event, failClosed, matcher) => ({
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [{ type: 'command', command, timeout, ...(failClosed ? { onFailure: 'block' } : {}) }],
  }),
  usesPlan: true,
});
