// opencode: no command hooks, so a generated plugin, `.opencode/plugin/agent-hooks.js` (or
// `$XDG_CONFIG_HOME/opencode/plugin/agent-hooks.js`, default `~/.config`), wholly ours.
import path from 'node:path';
import { HooksError } from '../../errors.js';
import { isOurPlugin, renderPlugin } from '../opencode-plugin.js';
import type { AgentTarget } from '../target.js';

export const opencode: AgentTarget = {
  name: 'opencode',
  file: (scope, { cwd, home, env }) =>
    scope === 'project'
      ? path.join(cwd, '.opencode', 'plugin', 'agent-hooks.js')
      : path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'opencode', 'plugin', 'agent-hooks.js'),
  install(before, file, { bin, timeoutSeconds }) {
    if (before !== undefined && !isOurPlugin(before)) {
      throw new HooksError('CONFIG_INVALID', `${file}: exists and was not written by agent-hooks; move it away first`, { file });
    }
    // Two hooks: tool.execute.before and tool.execute.after.
    return { text: renderPlugin(bin, timeoutSeconds * 1000), entries: 2 };
  },
  uninstall(before) {
    // Someone else's file of the same name is not ours to remove.
    return isOurPlugin(before) ? { text: undefined, removed: 2 } : { text: before, removed: 0 };
  },
};
