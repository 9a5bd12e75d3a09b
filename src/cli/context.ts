// What a CLI command may touch: passed in, so tests can run commands in-process.

export interface CliContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  readStdin(): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  signal: AbortSignal;
  /** stdin is a terminal a person can answer on (for y/N questions). */
  stdinIsTTY?: boolean;
  /** Asks one question on the terminal and returns the answer line. */
  prompt?(question: string): Promise<string>;
  /**
   * What the runner left out of its environment (a project .env's variables, src/config/project-env.ts), already
   * printed on stderr: `hooks run` also gives them as warnings in its answer, which the agent shows the user.
   */
  notes?: readonly string[];
}

/**
 * True when colour should be used on a stream: NO_COLOR set means never; FORCE_COLOR set means always
 * (CI logs that render colour), unless it is 0 or false; else on a terminal that is not dumb. The
 * order is kleur's, which paints.
 */
export function wantsColour(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  return isTTY && env.TERM !== 'dumb';
}
