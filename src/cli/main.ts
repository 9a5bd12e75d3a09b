// The CLI entry: argv → command → exit code. The only place that calls process.exit.
import { fstatSync, readSync, writeSync } from 'node:fs';
import { HooksError, isHooksError } from '../errors.js';
import { didYouMean } from '../suggest.js';
import { parseArgs, suggestFlag } from './args.js';
import type { Command } from './command.js';
import type { CliContext } from './context.js';

import { VERSION } from '../version.js';
import { EVENT_LIMITS, eventTooLarge } from '../json.js';
import { compromisedBlocks, withoutPlantedEnv } from '../config/project-env.js';

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
  report: { summary: 'what was blocked, asked, rewritten and failed over the last days, from the audit log', load: async () => (await import('./commands/report.js')).command },
  init: { summary: 'write a starter .hooksrc.json, an example guard and starter test cases', load: async () => (await import('./commands/init.js')).command },
  schema: { summary: "print the config's JSON Schema", load: async () => (await import('./commands/schema.js')).command },
  guard: { summary: 'run one first-party guard as a standalone hook (no config needed)', load: async () => (await import('./commands/guard.js')).command },
  test: { summary: 'run test cases (event + expected decision) through the engine', load: async () => (await import('./commands/test.js')).command },
  sample: { summary: 'print a realistic sample event, ready to pipe into hooks run', load: async () => (await import('./commands/sample.js')).command },
  install: { summary: "write an agent's hook settings so every event calls hooks run", load: async () => (await import('./commands/install.js')).command },
  import: { summary: "copy a Claude Code settings file's hooks into .hooksrc.json", load: async () => (await import('./commands/import.js')).command },
  uninstall: { summary: "remove the entries hooks install wrote from an agent's settings", load: async () => (await import('./commands/uninstall.js')).command },
  trust: { summary: "review a project's config and trust it to run (its exact bytes)", load: async () => (await import('./commands/trust.js')).command },
  untrust: { summary: "forget the trust given to a project's config", load: async () => (await import('./commands/untrust.js')).command },
  serve: { summary: 'one resident server for every event (HTTP on 127.0.0.1, a Unix socket): start, stop, status', load: async () => (await import('./commands/serve.js')).command },
  mcp: { summary: 'an MCP gateway: run the hooks on the tools/list and tools/call of one MCP server', load: async () => (await import('./commands/mcp.js')).command },
};

function usage(): string {
  const entries: [string, string][] = [
    ...Object.entries(COMMANDS).map(([name, c]): [string, string] => [name, c.summary]),
    ['completion', 'print shell completion for bash, zsh or fish ("hooks completion bash --help")'],
    ['--version', 'print the version (also -V)'],
    ['--help', 'this text; "npx agent-hooks <command> --help" for a command\'s options and examples'],
  ];
  const width = Math.max(...entries.map(([n]) => n.length));
  const lines = entries.map(([name, summary]) => `  hooks ${name.padEnd(width)}  ${summary}`);
  return `agent-hooks ${VERSION}: guards and automation around AI coding agents

Usage:
${lines.join('\n')}

The program is installed as two commands, agent-hooks and hooks (the short name). In a project
where agent-hooks is a devDependency, type "npx agent-hooks <command>": "npx hooks" would fetch
an unrelated package named hooks from the registry.

Environment:
  HOOKS_SKIP=id,id      skip these hooks for one run
  HOOKS_DISABLE=1       run no hooks (says so on stderr)
  HOOKS_ON_ERROR=block  turn the runner's own errors (bad config, bad event) into blocks
  NO_COLOR=1            no colour (output that is not a terminal has none anyway)
  FORCE_COLOR=1         colour even off a terminal (a CI log); NO_COLOR wins
  HOOKS_DEBUG=1         a stack trace on stderr for internal errors
`;
}

/** Runs the CLI and returns the exit code; never throws. */
export async function cli(argv: string[], ctx: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  // Agents that load a project's .env into their own environment (Gemini CLI) hand it to the runner too.
  const planted = withoutPlantedEnv(ctx.env, ctx.cwd);
  if (planted.problems.length > 0) {
    for (const problem of planted.problems) ctx.stderr(`agent-hooks: ${problem}\n`);
    ctx = { ...ctx, env: planted.env, notes: planted.problems };
  }
  if (planted.compromised !== undefined) {
    const refused = compromisedAnswer(name, rest);
    ctx.stderr(`agent-hooks: ${planted.compromised}${refused === undefined ? '' : `; ${refused.why}`}\n`);
    if (refused !== undefined) return refused.code;
  }
  let onError: 'block' | 'continue' = ctx.env.HOOKS_ON_ERROR === 'block' ? 'block' : 'continue';
  try {
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      const topic = name === 'help' ? rest[0] : undefined;
      if (topic !== undefined) return await cli([topic, '--help'], ctx);
      ctx.stdout(usage());
      return name === undefined ? 1 : 0;
    }
    if (name === '--version' || name === '-V' || name === '-v') {
      ctx.stdout(`${VERSION}\n`);
      return 0;
    }
    if (name === 'completion') return await completion(rest, ctx);
    const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (entry === undefined) {
      if (name.startsWith('-')) {
        throw new HooksError('USAGE', `unknown option ${name}${suggestFlag(name.replace(/^-+/, ''), ['version', 'help'])}; run "npx agent-hooks --help"`);
      }
      throw new HooksError('USAGE', `unknown command "${name}"${didYouMean(name, Object.keys(COMMANDS))}; run "npx agent-hooks --help"`);
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

/**
 * What a command does once a project `.env` has acted on this process before its code ran (planted.compromised):
 * an event's answer may be blocked (compromisedBlocks), and a server or MCP gateway is not started from such a
 * process, as it would answer for every session.
 */
function compromisedAnswer(name: string | undefined, rest: string[]): { code: number; why: string } | undefined {
  if (name === 'serve' || name === 'mcp') {
    if (name === 'serve' && ['stop', 'status', 'page', 'token'].includes(rest[0] ?? '')) return undefined;
    return { code: 1, why: `hooks ${name} does not start from it` };
  }
  if (name !== 'run' && name !== 'guard') return undefined;
  const at = rest.findIndex((a) => a === '--dialect' || a.startsWith('--dialect='));
  const dialect = at === -1 ? undefined : rest[at]!.includes('=') ? rest[at]!.slice('--dialect='.length) : rest[at + 1];
  return compromisedBlocks(dialect, name === 'run' ? rest[0] : undefined) ? { code: 2, why: 'this event is blocked' } : undefined;
}

/** `hooks completion <shell>`: every command's flags, read from the commands themselves. */
async function completion(argv: string[], ctx: CliContext): Promise<number> {
  const { COMPLETION_HELP, SHELLS, completionScript } = await import('./completion.js');
  const [shell, ...extra] = argv;
  if (shell === '--help' || shell === '-h') {
    ctx.stdout(COMPLETION_HELP);
    return 0;
  }
  if (shell === undefined || !(SHELLS as readonly string[]).includes(shell) || extra.length > 0) {
    const got = shell === undefined ? '' : `, got "${[shell, ...extra].join(' ')}"`;
    throw new HooksError('USAGE', `hooks completion: expected one of ${SHELLS.join(', ')}${got}${shell === undefined ? '' : didYouMean(shell, [...SHELLS])}`);
  }
  const { GUARD_IDS } = await import('../guards/index.js');
  const words: Record<string, readonly string[]> = { guard: GUARD_IDS, serve: ['start', 'stop', 'status', 'page', 'token'], help: [...Object.keys(COMMANDS), 'completion'] };
  const entries = [];
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const command = await entry.load();
    entries.push({ name, summary: entry.summary, flags: Object.keys(command.args.flags).map((f) => `--${f}`), words: [...(words[name] ?? [])] });
  }
  entries.push({ name: 'completion', summary: 'print shell completion for bash, zsh or fish', flags: [], words: [...SHELLS] });
  ctx.stdout(completionScript(shell as (typeof SHELLS)[number], entries));
  return 0;
}

export interface MainOptions {
  /** Called once the answer is written, before the process exits (the launcher keeps its code cache here). Must not throw. */
  beforeExit?: () => void | Promise<void>;
}

/** The process entry: wires real stdio and signals, and exits. */
export async function main(argv: string[] = process.argv.slice(2), options: MainOptions = {}): Promise<never> {
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
  const [stdinIsTTY, stdoutIsTTY, stderrIsTTY] = await Promise.all([isTerminal(0), isTerminal(1), isTerminal(2)]);
  const code = await cli(argv, {
    cwd: process.cwd(),
    env: process.env,
    readStdin: () => readStdin(stdinIsTTY),
    stdout: (text) => output.write(1, text),
    stderr: (text) => output.write(2, text),
    stdoutIsTTY,
    stderrIsTTY,
    signal: controller.signal,
    stdinIsTTY,
    prompt,
  });
  // An interrupted run that answered "block" keeps exit 2: 128+N would read as "proceed" to every agent.
  const exitCode = signalled === undefined || code === 2 ? code : 128 + (SIGNAL_NUMBERS[signalled] ?? 1);
  try {
    await options.beforeExit?.();
  } catch {
    // Only ever a cache: the answer is out, and the exit code stands.
  }
  output.flush(() => process.exit(exitCode));
  return new Promise<never>(() => {});
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/**
 * stdout and stderr written with plain writes: process.stdout on a pipe builds a net.Socket, and
 * loading the stream machinery for it costs about as much as a builtin guard's whole run. A
 * non-blocking descriptor that is full (EAGAIN) hands the rest, and every later write to it, to the
 * stream, so the order of the bytes is kept. A reader that went away (EPIPE) gets nothing, as before.
 */
const output = {
  toStream: new Set<number>(),
  write(fd: 1 | 2, text: string): void {
    if (text === '') return;
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    if (!this.toStream.has(fd)) {
      try {
        while (done < bytes.length) done += writeSync(fd, bytes, done);
        return;
      } catch (error) {
        // A throw means nothing of that call went out: the bytes from `done` on are still owed.
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      }
      this.toStream.add(fd);
    }
    (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(done));
  },
  /** Calls `then` once every stream the writes fell back to has drained: exit() drops what a pipe has queued. */
  flush(then: () => void): void {
    let pending = this.toStream.size;
    if (pending === 0) return then();
    for (const fd of this.toStream) (fd === 1 ? process.stdout : process.stderr).write('', () => --pending === 0 && then());
  },
};

/** True for a terminal; fstat first, so a pipe (the agents' case) never loads the tty module. */
async function isTerminal(fd: number): Promise<boolean> {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  const { isatty } = await import('node:tty');
  return isatty(fd);
}

async function prompt(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/**
 * The event from stdin, bounded: past the limit the rest is drained (the agent is still writing) but
 * not kept. Read with plain blocking reads (no stream machinery); a non-blocking or odd descriptor
 * falls back to process.stdin for the rest.
 */
async function readStdin(isTTY: boolean): Promise<string> {
  if (isTTY) {
    throw new HooksError('USAGE', 'stdin: expected one JSON event; pipe it in, e.g. npx agent-hooks run pre-tool-use < event.json');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const keep = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= EVENT_LIMITS.maxBytes) chunks.push(chunk);
  };
  let viaStream = false;
  const buffer = Buffer.allocUnsafe(64 * 1024);
  try {
    for (;;) {
      const n = readSync(0, buffer, 0, buffer.length, null);
      if (n === 0) break;
      keep(Buffer.from(buffer.subarray(0, n)));
    }
  } catch (error) {
    // EOF on a closed descriptor reads as the end; anything else (EAGAIN: non-blocking) goes on through the stream.
    viaStream = (error as NodeJS.ErrnoException).code !== 'EOF';
  }
  if (viaStream) for await (const chunk of process.stdin) keep(chunk as Buffer);
  if (size > EVENT_LIMITS.maxBytes) throw eventTooLarge(size);
  return Buffer.concat(chunks).toString('utf8');
}
// For the launcher (src/cli/launch.ts).
export { codeParts } from '../code-parts.js';
export { jsConfigImporter } from '../config/load.js';
export { vendored, vendorRunner } from '../vendor/load.js';
// For the library entry (dist/bundle/library.mjs, written by scripts/bundle.mjs): the package ships
// its code once, in this bundle. Imported on demand, so a CLI run never evaluates what only the
// library API needs.
export const library = () => import('../index.js');
