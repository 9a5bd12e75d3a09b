// One event through the engine, answered as `hooks run` answers it: the same reading of the event,
// the same runner, the same dialect answer, and the same one-line error with the same exit code.
import os from 'node:os';
import { searchStart } from '../config/load.js';
import { readSwitches } from '../config/switches.js';
import { parseEvent } from '../cli/read-event.js';
import { detectDialect, getDialect } from '../dialects/index.js';
import type { Answer } from '../dialects/dialect.js';
import { isHooksError } from '../errors.js';
import type { ProcessRunner } from '../run/process.js';
import type { Projects } from './projects.js';

export interface EventRequest {
  /** The event as the agent sent it (its JSON text). */
  body: string;
  event?: string | undefined;
  dialect?: string | undefined;
  /** `--on-error block`: the runner's own errors block (exit 2) instead of exit 1. */
  onError: 'block' | 'continue';
  /** Where the project search starts when the payload names no `cwd` (the client's working folder). */
  cwd?: string | undefined;
  signal: AbortSignal;
  /** Runs the command hooks (the server's, with its spares). */
  runProcess?: ProcessRunner;
  /** The environment of the session that sent the event, for its hooks (src/serve/session-env.ts); default the server's. */
  hookEnv?: NodeJS.ProcessEnv | undefined;
}

export async function answerEvent(request: EventRequest, projects: Projects, env: NodeJS.ProcessEnv): Promise<Answer> {
  try {
    // As `hooks run` with the server's environment: HOOKS_DISABLE in it turns the server's hooks off.
    const switches = readSwitches(env);
    if (switches.disabled) return { stdout: '', stderr: 'agent-hooks: disabled by HOOKS_DISABLE; no hooks ran\n', exitCode: 0 };
    const raw = parseEvent(request.body);
    const dialect = request.dialect === undefined ? detectDialect(raw) : getDialect(request.dialect);
    const event = dialect.toEvent(raw, request.event);
    const runner = await projects.runner(searchStart(event.payload.cwd, env, request.cwd ?? env.HOME ?? os.homedir()));
    const decision = await runner.run(event, {
      signal: request.signal,
      ...(request.runProcess === undefined ? {} : { runProcess: request.runProcess }),
      ...(request.hookEnv === undefined ? {} : { env: request.hookEnv }),
    });
    const answer = dialect.answer(decision);
    return switches.problems.length === 0 ? answer : { ...answer, stderr: `${switches.problems.map((p) => `agent-hooks: ${p}\n`).join('')}${answer.stderr}` };
  } catch (error) {
    // main.ts's rule: one line on stderr, exit 1, or 2 when runner errors block.
    const message = isHooksError(error) ? error.message : `internal error: ${error instanceof Error ? error.message : String(error)}`;
    return { stdout: '', stderr: `agent-hooks: ${message.split('\n')[0]}\n`, exitCode: request.onError === 'block' ? 2 : 1 };
  }
}
