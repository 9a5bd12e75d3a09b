// What a CLI command is: its help text, its arguments, and a run function that returns the exit code.
import type { ArgSpec, ParsedArgs } from './args.js';
import type { CliContext } from './context.js';

export interface Command {
  /** The whole `hooks <name> --help` text: usage, options, examples. */
  help: string;
  args: ArgSpec;
  /** Returns the exit code; runner errors are thrown as `HooksError` for `main` to report. */
  run(args: ParsedArgs, ctx: CliContext): Promise<number>;
}
