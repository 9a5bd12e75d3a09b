// One event through the engine, answered as `hooks run` answers it: the same reading of the event,
// the same runner, the same dialect answer, and the same one-line error with the same exit code.
// What the server does not judge on its own thread goes to `hooks run` in a process of its own
// (elsewhere.ts): an event past JUDGED_HERE, and every event of a project whose config is JavaScript.
import os from 'node:os';
import { searchStart } from '../config/load.js';
import { readSwitches } from '../config/switches.js';
import { parseEvent } from '../events/read.js';
import { detectDialect, getDialect } from '../dialects/index.js';
import type { Answer } from '../dialects/dialect.js';
import { isHooksError } from '../errors.js';
import type { ProcessRunner } from '../run/process.js';
import { runElsewhere } from './elsewhere.js';
import { javaScriptLayer, type Projects } from './projects.js';
import type { RunOutcome } from '../telemetry/record.js';
import type { TelemetryConfig } from '../telemetry/settings.js';
import { compromisedBlocks, withoutPlantedEnv } from '../config/project-env.js';

export interface EventRequest {
  /** The event as the agent sent it (its JSON bytes). */
  body: Buffer;
  event?: string | undefined;
  dialect?: string | undefined;
  /** `--on-error block`: the runner's own errors block (exit 2) instead of exit 1. */
  onError: 'block' | 'continue';
  /** Where the project search starts when the payload names no `cwd` (the client's working folder). */
  cwd?: string | undefined;
  signal: AbortSignal;
  /** Runs the command hooks (the server's, with its spares). */
  runProcess?: ProcessRunner;
  /** The server's log: what went to `hooks run`, once per project. */
  log?: (line: string) => void;
  /** The environment of the session that sent the event, for its hooks (src/serve/session-env.ts); default the server's. */
  hookEnv?: NodeJS.ProcessEnv | undefined;
  /** Told each outcome judged here, once its answer is made (telemetry, src/telemetry; the live page's history). */
  observe?: (outcome: RunOutcome, telemetry: TelemetryConfig | undefined) => void;
}

/**
 * The most the server judges on its own thread. The builtin guards cost about 15 to 55 µs per value and
 * 8 µs per KiB of text (redact-secrets on a PostToolUse, this machine): past these an event would hold
 * every other session's event for tens of milliseconds or more (a 1M-key tool output: a minute), so it is
 * judged by `hooks run` in a process of its own instead. Real events are far below: a tool call or a
 * Read's output is a few dozen values.
 */
export const JUDGED_HERE = { bytes: 256 * 1024, values: 1_000 } as const;

/** The JavaScript configs the log and the agent were told about. */
const told = new Set<string>();

export async function answerEvent(request: EventRequest, projects: Projects, env: NodeJS.ProcessEnv): Promise<Answer> {
  try {
    // As `hooks run` with the server's environment: HOOKS_DISABLE in it turns the server's hooks off.
    const switches = readSwitches(env);
    if (switches.disabled) return { stdout: '', stderr: 'agent-hooks: disabled by HOOKS_DISABLE; no hooks ran\n', exitCode: 0 };
    const fallback = request.cwd ?? env.HOME ?? os.homedir();
    // What `hooks run` drops of a session's environment (src/config/project-env.ts), dropped here too: the hooks
    // get the rest, and a variable that acted on the sending client itself blocks the event.
    const planted = request.hookEnv === undefined ? undefined : withoutPlantedEnv(request.hookEnv, fallback);
    if (planted?.compromised !== undefined && compromisedBlocks(request.dialect, request.event)) {
      return { stdout: '', stderr: `agent-hooks: ${planted.compromised}; this event is blocked\n`, exitCode: 2 };
    }
    const hookEnv = planted?.env;
    // On stderr, as `hooks run` prints them (once: a dialect may have written them there as warnings already).
    const said = (answer: Answer): Answer => {
      const lines = (planted?.problems ?? []).map((p) => `agent-hooks: ${p}\n`).filter((line) => !answer.stderr.includes(line));
      return lines.length === 0 ? answer : { ...answer, stderr: `${lines.join('')}${answer.stderr}` };
    };
    const elsewhere = async (heavy: boolean) => said(await runElsewhere({ body: request.body, event: request.event, dialect: request.dialect, onError: request.onError, cwd: fallback, signal: request.signal, heavy }, hookEnv ?? env));
    // Not even decoded: an 18 MB event's parse alone would hold the thread for a tenth of a second.
    if (request.body.length > JUDGED_HERE.bytes) return await elsewhere(true);
    const raw = parseEvent(request.body.toString('utf8'));
    if (moreValuesThan(raw, JUDGED_HERE.values)) return await elsewhere(true);
    const dialect = request.dialect === undefined ? detectDialect(raw) : getDialect(request.dialect);
    const event = dialect.toEvent(raw, request.event);
    const runner = await projects.runner(searchStart(event.payload.cwd, env, fallback));
    const js = javaScriptLayer(runner.config);
    if (js !== undefined) {
      const answer = await elsewhere(false);
      // Said once per config file while the server runs: in its log and in the agent's channel.
      if (told.has(js)) return answer;
      told.add(js);
      const note = `${js}: a JavaScript config never runs inside the server; this project's events are run by hooks run, each in a process of its own (a Node start each; a JSON or YAML config is served in-process)`;
      request.log?.(note);
      return { ...answer, stderr: `agent-hooks: ${note}\n${answer.stderr}` };
    }
    const startedAt = Date.now();
    const decision = await runner.run(event, {
      signal: request.signal,
      ...(request.runProcess === undefined ? {} : { runProcess: request.runProcess }),
      ...(hookEnv === undefined ? {} : { env: hookEnv }),
    });
    // And as warnings in the answer, where the agent shows them to the user (as `hooks run` gives them).
    const answer = dialect.answer(planted === undefined || planted.problems.length === 0 ? decision : { ...decision, warnings: [...planted.problems, ...decision.warnings] });
    if (request.observe !== undefined) {
      const kinds = new Map(runner.config.hooks.filter((h) => h.event === event.name).map((h) => [h.id, h.run.kind]));
      request.observe({ decision, dialect: dialect.name, projectDir: runner.config.projectDir, startedAt, endedAt: Date.now(), kinds }, runner.config.telemetry);
    }
    return said(switches.problems.length === 0 ? answer : { ...answer, stderr: `${switches.problems.map((p) => `agent-hooks: ${p}\n`).join('')}${answer.stderr}` });
  } catch (error) {
    // main.ts's rule: one line on stderr, exit 1, or 2 when runner errors block.
    const message = isHooksError(error) ? error.message : `internal error: ${error instanceof Error ? error.message : String(error)}`;
    return { stdout: '', stderr: `agent-hooks: ${message.split('\n')[0]}\n`, exitCode: request.onError === 'block' ? 2 : 1 };
  }
}

/** True when `value` holds more than `max` values (every object, array, key's value and item counts); iterative, stops at max. */
export function moreValuesThan(value: unknown, max: number): boolean {
  const stack: unknown[] = [value];
  let seen = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (++seen + stack.length > max) return true;
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) for (const item of v) stack.push(item);
    else for (const key in v) stack.push((v as Record<string, unknown>)[key]);
  }
  return false;
}
