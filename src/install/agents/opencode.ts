// opencode: no command hooks, so a generated plugin, `.opencode/plugin/agent-hooks.js` (or
// `$XDG_CONFIG_HOME/opencode/plugin/agent-hooks.js`, default `~/.config`), wholly ours.
import path from 'node:path';
import { HooksError } from '../../errors.js';
import { isOurPlugin, renderPlugin } from '../opencode-plugin.js';
import type { Launcher } from '../launcher.js';
import type { AgentTarget, Scope } from '../target.js';

export const opencode: AgentTarget = {
  name: 'opencode',
  file: (scope, { cwd, home, env }) =>
    scope === 'project'
      ? path.join(cwd, '.opencode', 'plugin', 'agent-hooks.js')
      : path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'opencode', 'plugin', 'agent-hooks.js'),
  // The plugin finds the project's dependency relative to its own file (.opencode/plugin/ is two down).
  projectDir: { shell: '', base: (cwd) => cwd },
  failure: {
    open: 'a runner that fails or cannot start is logged and the call goes on',
    closed: 'a runner that fails, cannot start or times out blocks the tool call',
  },
  install(before, file, { launcher, timeoutSeconds, failClosed }, scope) {
    if (before !== undefined && !isOurPlugin(before)) {
      throw new HooksError('CONFIG_INVALID', `${file}: exists and was not written by agent-hooks; move it away first`, { file });
    }
    // Two hooks: tool.execute.before and tool.execute.after.
    return { text: renderPlugin(binExpression(launcher, scope), timeoutSeconds * 1000, failClosed), entries: 2 };
  },
  uninstall(before) {
    // Someone else's file of the same name is not ours to remove.
    return isOurPlugin(before) ? { text: undefined, removed: 2 } : { text: before, removed: 0 };
  },
};

/** The runner's path as a JS expression in a generated plugin two folders below the project (also Cline's). */
export function binExpression(launcher: Launcher, scope: Scope): string {
  if (launcher.kind === 'absolute') return JSON.stringify(launcher.bin);
  if (launcher.kind === 'path') return JSON.stringify('agent-hooks');
  // The project plugin lives in <project>/.opencode/plugin/; a user one never gets a project launcher.
  const up = scope === 'project' ? '../../' : '';
  return `fileURLToPath(new URL(${JSON.stringify(up + launcher.rel)}, import.meta.url))`;
}
