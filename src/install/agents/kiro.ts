// Kiro CLI: a standalone v3 hook file of our own, `.kiro/hooks/agent-hooks.json` (or
// `~/.kiro/hooks/agent-hooks.json`): `{version: "v1", hooks: [{name, trigger, action: {type: "command",
// command}, timeout, enabled}]}`, one hook per trigger, timeouts in seconds. Wholly ours: a file of that
// name that is not is refused.
import path from 'node:path';
import { HooksError } from '../../errors.js';
import { eventSpec } from '../../events/catalog.js';
import { isRecord } from '../../json.js';
import { KIRO_EVENTS } from '../../dialects/kiro.js';
import { formatSettings, parseSettings } from '../json-doc.js';
import { GIT_ROOT_DIR } from '../launcher.js';
import { hookCommand, isOurCommand, launcherWord } from '../shell.js';
import { FAIL_CLOSED_EVENTS, type AgentTarget } from '../target.js';

const TRIGGERS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;

export const kiro: AgentTarget = {
  name: 'kiro',
  file: (scope, { cwd, home }) => path.join(scope === 'project' ? cwd : home, '.kiro', 'hooks', 'agent-hooks.json'),
  projectDir: GIT_ROOT_DIR,
  failure: {
    open: 'a missing or failing runner lets the call go on (a warning)',
    closed: 'runner errors block PreToolUse and UserPromptSubmit (--on-error block); Kiro cannot block on a missing runner',
  },
  install(before, file, { launcher, timeoutSeconds, failClosed }) {
    if (before !== undefined && !isOurs(before, file)) {
      throw new HooksError('CONFIG_INVALID', `${file}: exists and was not written by agent-hooks; move it away first`, { file });
    }
    const word = launcherWord(launcher, GIT_ROOT_DIR.shell);
    const hooks = TRIGGERS.map((trigger) => {
      const event = KIRO_EVENTS[trigger]!;
      const command = hookCommand(word, eventSpec(event).cli, 'kiro', failClosed && FAIL_CLOSED_EVENTS.has(event));
      return { name: `agent-hooks-${eventSpec(event).cli}`, trigger, ...(eventSpec(event).tool ? { matcher: '.*' } : {}), action: { type: 'command', command }, timeout: timeoutSeconds, enabled: true };
    });
    const text = formatSettings({ version: 'v1', hooks }, before);
    return { text: text === before ? before : text, entries: hooks.length };
  },
  uninstall(before, file) {
    return isOurs(before, file) ? { text: undefined, removed: ourHooks(before, file) } : { text: before, removed: 0 };
  },
  note: 'Kiro CLI v3 reads .kiro/hooks/*.json; older releases read hooks only from agent files (kiro-cli agent migrate converts them)',
};

function ourHooks(text: string, file: string): number {
  const doc = parseSettings(text, file);
  return Array.isArray(doc.hooks) ? doc.hooks.filter((h) => isRecord(h) && isRecord(h.action) && isOurCommand(h.action.command)).length : 0;
}

/** Every hook in the file is one we wrote (an empty file is nobody's). */
function isOurs(text: string, file: string): boolean {
  const doc = parseSettings(text, file);
  return Array.isArray(doc.hooks) && doc.hooks.length > 0 && ourHooks(text, file) === doc.hooks.length;
}
