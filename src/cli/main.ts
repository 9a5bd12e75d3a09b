// The CLI entry: argv → command → exit code. The only place that calls process.exit.
import { HooksError, isHooksError } from '../errors.js';
import { didYouMean } from '../suggest.js';
import type { CliContext } from './context.js';
import { parseArgs, type ArgSpec } from './args.js';

const VERSION = '0.1.0';

const USAGE = `agent-hooks ${VERSION}: guards and automation around AI coding agents

Usage:
  hooks run [event] [options] < event.json   run the configured hooks on one event

Events: pre-tool-use, post-tool-use, user-prompt-submit, stop, subagent-stop, pre-compact,
        session-start, session-end, notification, post-tool-use-failure
        (config keys like preToolUse and Claude Code names like PreToolUse work too)

Options for run:
  --dialect <name>     claude-code | native (default: detected from the payload)
  --config <path>      use this file as the project config instead of searching
  --verbose            one line per hook on stderr: id, outcome, time, where it came from
  --on-error <policy>  continue (default) | block: what a runner error (bad config, bad event) does

Environment:
  HOOKS_SKIP=id,id     skip these hooks for this run
  HOOKS_DISABLE=1      run no hooks (says so on stderr)
  HOOKS_ON_ERROR=block same as --on-error block

Exit codes: 0 proceed, 2 block, 1 the runner's own error (one line on stderr).

Example:
  hooks run pre-tool-use --config .hooksrc.example.json < hooks-examples/events/pre-tool-use.json
`;

const RUN_ARGS: ArgSpec = {
  positional: ['event'],
  flags: { dialect: 'string', config: 'string', verbose: 'boolean', 'on-error': 'string', help: 'boolean' },
};

const COMMANDS = ['run', 'help'];

/** Runs the CLI and returns the exit code; never throws. */
export async function cli(argv: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = argv;
  let onError: 'block' | 'continue' = ctx.env.HOOKS_ON_ERROR === 'block' ? 'block' : 'continue';
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      ctx.stdout(USAGE);
      return command === undefined ? 1 : 0;
    }
    if (command === '--version' || command === '-v') {
      ctx.stdout(`${VERSION}\n`);
      return 0;
    }
    if (command === 'run') {
      const args = parseArgs(rest, RUN_ARGS);
      if (args.flags.help === true) {
        ctx.stdout(USAGE);
        return 0;
      }
      const policy = args.flags['on-error'];
      if (policy !== undefined) {
        if (policy !== 'block' && policy !== 'continue') throw usage(`--on-error: expected block or continue, got "${String(policy)}"`);
        onError = policy;
      }
      const { runCommand } = await import('./run.js');
      return await runCommand(
        {
          ...(args.positional.event === undefined ? {} : { event: args.positional.event }),
          ...(typeof args.flags.dialect === 'string' ? { dialect: args.flags.dialect } : {}),
          ...(typeof args.flags.config === 'string' ? { config: args.flags.config } : {}),
          verbose: args.flags.verbose === true,
          onError,
        },
        ctx,
      );
    }
    throw usage(`unknown command "${command}"${didYouMean(command, COMMANDS)}; run "hooks --help"`);
  } catch (error) {
    const message = isHooksError(error) ? error.message : `internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`;
    ctx.stderr(`agent-hooks: ${message.split('\n')[0]}\n`);
    if (!isHooksError(error) && ctx.env.HOOKS_DEBUG) ctx.stderr(`${String((error as Error)?.stack)}\n`);
    // A broken config must never silently disable guards: with --on-error block it blocks.
    return onError === 'block' ? 2 : 1;
  }
}

/** The process entry: wires real stdio and signals, and exits. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<never> {
  const controller = new AbortController();
  let signalled: NodeJS.Signals | undefined;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      signalled = sig;
      controller.abort(new Error(sig));
    });
  }
  const code = await cli(argv, {
    cwd: process.cwd(),
    env: process.env,
    readStdin,
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stderrIsTTY: process.stderr.isTTY === true,
    signal: controller.signal,
  });
  const exitCode = signalled === undefined ? code : 128 + (SIGNAL_NUMBERS[signalled] ?? 1);
  // Let stdout drain (it may be a pipe) before exiting.
  process.stdout.write('', () => process.exit(exitCode));
  return new Promise<never>(() => {});
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw usage('stdin: expected one JSON event; pipe it in: hooks run pre-tool-use < event.json');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function usage(message: string): HooksError {
  return new HooksError('USAGE', message);
}
