// GitHub Copilot CLI: a file of our own, `.github/hooks/agent-hooks.json` (or
// `$COPILOT_HOME/hooks/agent-hooks.json`, default `~/.copilot`), camelCase events (which get camelCase
// payloads), `{type: "command", bash, timeoutSec}` handlers.
import path from 'node:path';
import { flatEntries } from '../event-table.js';
import { eventsOf } from '../../dialects/agent-events.js';
import { COPILOT_EVENTS } from '../../dialects/copilot.js';
import { jsonAgent } from '../json-agent.js';
import { GIT_ROOT_DIR } from '../launcher.js';

export const copilot = jsonAgent({
  name: 'copilot',
  dialect: 'copilot',
  file: (scope, { cwd, home, env }) =>
    scope === 'project'
      ? path.join(cwd, '.github', 'hooks', 'agent-hooks.json')
      : path.join(env.COPILOT_HOME || path.join(home, '.copilot'), 'hooks', 'agent-hooks.json'),
  projectDir: GIT_ROOT_DIR,
  failure: {
    open: 'a missing or failing runner lets the call go on ("hook failures never block")',
    closed: 'runner errors block (--on-error block); Copilot cannot block on a missing runner',
  },
  events: eventsOf(COPILOT_EVENTS, ['preToolUse', 'postToolUse', 'postToolUseFailure', 'userPromptSubmitted', 'agentStop', 'subagentStop', 'preCompact', 'sessionStart', 'sessionEnd', 'notification']),
  entries: flatEntries('bash'),
  entry: (command, timeout) => ({ type: 'command', bash: command, timeoutSec: timeout }),
  skeleton: { version: 1 },
  ownFile: true,
});
