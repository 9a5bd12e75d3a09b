// What a CLI command may touch: passed in, so tests can run commands in-process.

export interface CliContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  readStdin(): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
  stderrIsTTY: boolean;
  signal: AbortSignal;
}
