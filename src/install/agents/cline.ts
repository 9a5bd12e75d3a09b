// Cline: its file hooks can only cancel the whole task, so a generated plugin instead,
// `.cline/plugins/agent-hooks.js` (or `~/.cline/plugins/agent-hooks.js`), wholly ours.
import path from 'node:path';
import { HooksError } from '../../errors.js';
import { isOurClinePlugin, renderClinePlugin } from '../cline-plugin.js';
import { binExpression } from './opencode.js';
import type { AgentTarget } from '../target.js';

export const cline: AgentTarget = {
  name: 'cline',
  file: (scope, { cwd, home }) => path.join(scope === 'project' ? cwd : home, '.cline', 'plugins', 'agent-hooks.js'),
  // The plugin finds the project's dependency relative to its own file (.cline/plugins/ is two down).
  projectDir: { shell: '', base: (cwd) => cwd },
  failure: {
    open: "the runner reports it and the call goes on (a runner that fails, is missing or times out blocks the call or prompt all the same)",
    closed: "a hook's own error then blocks the tool call or prompt too",
  },
  install(before, file, { launcher, timeoutSeconds, failClosed }, scope) {
    if (before !== undefined && !isOurClinePlugin(before)) {
      throw new HooksError('CONFIG_INVALID', `${file}: exists and was not written by agent-hooks; move it away first`, { file });
    }
    // Three hooks: beforeRun (the prompt), beforeTool and afterTool.
    return { text: renderClinePlugin(binExpression(launcher, scope), timeoutSeconds * 1000, failClosed), entries: 3 };
  },
  uninstall(before) {
    // Someone else's file of the same name is not ours to remove.
    return isOurClinePlugin(before) ? { text: undefined, removed: 3 } : { text: before, removed: 0 };
  },
  note: 'Cline loads .cline/plugins/*.js at the start of each task; the plugin runs `hooks run --dialect native` with Cline tools named as Claude Code tools (run_commands is Bash)',
};
