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
}

/** True when colour should be used on a stream: a TTY, and NO_COLOR unset. */
export function wantsColour(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  return isTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}
