// The CLI entry: argv → command → exit code. The only place that calls process.exit.
import { HooksError, isHooksError } from '../errors.js';
import { didYouMean } from '../suggest.js';
import { parseArgs } from './args.js';
import type { Command } from './command.js';
import type { CliContext } from './context.js';

import { VERSION } from '../version.js';
import { EVENT_LIMITS, eventTooLarge } from '../json.js';

interface CommandEntry {
  summary: string;
  /** Loaded on use: `hooks run` never pays for the other commands. */
  load: () => Promise<Command>;
}

const COMMANDS: Record<string, CommandEntry> = {
  run: { summary: 'run the configured hooks on one event from stdin', load: async () => (await import('./commands/run.js')).command },
  explain: { summary: 'show which hooks run for an event, why the others do not, and how the decision came about', load: async () => (await import('./commands/explain.js')).command },
  list: { summary: 'show the merged config per event, with the layer each hook came from', load: async () => (await import('./commands/list.js')).command },
  doctor: { summary: 'find the mistakes that fail silently: missing commands, dead matchers, long timeouts', load: async () => (await import('./commands/doctor.js')).command },
  init: { summary: 'write a starter .hooksrc.json and an example guard', load: async () => (await import('./commands/init.js')).command },
  schema: { summary: "print the config's JSON Schema", load: async () => (await import('./commands/schema.js')).command },
  guard: { summary: 'run one first-party guard as a standalone hook (no config needed)', load: async () => (await import('./commands/guard.js')).command },
  test: { summary: 'run test cases (event + expected decision) through the engine', load: async () => (await import('./commands/test.js')).command },
  sample: { summary: 'print a realistic sample event, ready to pipe into hooks run', load: async () => (await import('./commands/sample.js')).command },
  install: { summary: "write an agent's hook settings so every event calls hooks run", load: async () => (await import('./commands/install.js')).command },
  uninstall: { summary: "remove the entries hooks install wrote from an agent's settings", load: async () => (await import('./commands/uninstall.js')).command },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  hooks ${name.padEnd(width)}  ${c.summary}`);
  return `agent-hooks ${VERSION}: guards and automation around AI coding agents

Usage:
${lines.join('\n')}

Run "hooks <command> --help" for a command's options and examples.

Environment: HOOKS_SKIP=id,id skips hooks; HOOKS_DISABLE=1 runs none; HOOKS_ON_ERROR=block
turns the runner's own errors into blocks.
`;
}

/** Runs the CLI and returns the exit code; never throws. */
export async function cli(argv: string[], ctx: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  let onError: 'block' | 'continue' = ctx.env.HOOKS_ON_ERROR === 'block' ? 'block' : 'continue';
  try {
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      const topic = name === 'help' ? rest[0] : undefined;
      if (topic !== undefined) return await cli([topic, '--help'], ctx);
      ctx.stdout(usage());
      return name === undefined ? 1 : 0;
    }
    if (name === '--version' || name === '-v') {
      ctx.stdout(`${VERSION}\n`);
      return 0;
    }
    const entry = COMMANDS[name];
    if (entry === undefined) {
      throw new HooksError('USAGE', `unknown command "${name}"${didYouMean(name, Object.keys(COMMANDS))}; run "hooks --help"`);
    }
    const command = await entry.load();
    const spec = { ...command.args, flags: { ...command.args.flags, help: 'boolean' as const, 'on-error': 'string' as const } };
    const args = parseArgs(rest, spec);
    if (args.flags.help === true) {
      ctx.stdout(command.help);
      return 0;
    }
    const policy = args.flags['on-error'];
    if (policy !== undefined) {
      if (policy !== 'block' && policy !== 'continue') throw new HooksError('USAGE', `--on-error: expected block or continue, got "${String(policy)}"`);
      onError = policy;
    }
    return await command.run(args, ctx);
  } catch (error) {
    const message = isHooksError(error) ? error.message : `internal error: ${error instanceof Error ? error.message : String(error)}`;
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
  // Hooks run in process groups of their own, so a signal to the runner does not reach them: the abort
  // kills them (TERM, then KILL). A second signal must not kill the runner before that is done, or the
  // groups would live on: repeats are ignored, and the run ends within the kill grace.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      if (signalled !== undefined) return;
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
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    signal: controller.signal,
  });
  // An interrupted run that answered "block" keeps exit 2: 128+N would read as "proceed" to every agent.
  const exitCode = signalled === undefined || code === 2 ? code : 128 + (SIGNAL_NUMBERS[signalled] ?? 1);
  // Let stdout drain (it may be a pipe) before exiting.
  process.stdout.write('', () => process.exit(exitCode));
  return new Promise<never>(() => {});
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new HooksError('USAGE', 'stdin: expected one JSON event; pipe it in, e.g. hooks run pre-tool-use < event.json');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Bounded: past the limit the rest is drained (the agent is still writing) but not kept.
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size <= EVENT_LIMITS.maxBytes) chunks.push(chunk as Buffer);
  }
  if (size > EVENT_LIMITS.maxBytes) throw eventTooLarge(size);
  return Buffer.concat(chunks).toString('utf8');
}
