// pi and oh-my-pi: no command hooks, so a generated extension, `.pi/extensions/agent-hooks.ts` (or
// `~/.pi/agent/extensions/agent-hooks.ts`; omp: `.omp/...`), wholly ours. pi loads every `*.ts` there.
import path from 'node:path';
import { HooksError } from '../../errors.js';
import { isOurPiExtension, renderPiExtension, type PiHost } from '../pi-extension.js';
import { binExpression } from './opencode.js';
import type { AgentTarget } from '../target.js';

/**
 * The handlers: tool_call, tool_result, input (the prompt), before_agent_start (its context), session
 * start and end, compaction, context (beforeModel), the three session changes (switch, fork or branch,
 * tree), agent and turn start and end; oh-my-pi adds session.compacting and session_stop.
 */
const ENTRIES: Readonly<Record<PiHost, number>> = { pi: 15, omp: 17 };

function piTarget(host: PiHost, folder: string, label: string): AgentTarget {
  return {
    name: host,
    file: (scope, { cwd, home }) =>
      scope === 'project' ? path.join(cwd, folder, 'extensions', 'agent-hooks.ts') : path.join(home, folder, 'agent', 'extensions', 'agent-hooks.ts'),
    // The extension finds the project's dependency relative to its own file (<folder>/extensions/ is two down).
    projectDir: { shell: '', base: (cwd) => cwd },
    failure: {
      open: 'the runner reports it and the call goes on (a runner that fails, is missing or times out blocks the call or prompt all the same)',
      closed: "a hook's own error then blocks the tool call or prompt too",
    },
    install(before, file, { launcher, timeoutSeconds, failClosed }, scope) {
      if (before !== undefined && !isOurPiExtension(before, host)) {
        throw new HooksError('CONFIG_INVALID', `${file}: exists and was not written by agent-hooks; move it away first`, { file });
      }
      return { text: renderPiExtension(host, binExpression(launcher, scope), timeoutSeconds * 1000, failClosed), entries: ENTRIES[host] };
    },
    uninstall(before) {
      // Someone else's file of the same name is not ours to remove.
      return isOurPiExtension(before, host) ? { text: undefined, removed: ENTRIES[host] } : { text: before, removed: 0 };
    },
    note: `${label} loads ${folder}/extensions/*.ts at start (/reload reloads them); the extension runs \`hooks run --dialect native\` with ${label}'s tools named as Claude Code tools (bash is Bash)`,
  };
}

export const pi = piTarget('pi', '.pi', 'pi');
export const omp = piTarget('omp', '.omp', 'oh-my-pi');
