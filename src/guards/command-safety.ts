// The command-safety guard: blocks destructive shell commands, judged on a real parse.
import { firstAbsolute, projectDirOf, sandboxProjectOf } from '../sandbox/project.js';
import type { Guard, GuardContext, HookInput, ReplyObject } from '../types.js';
import type { JudgeContext } from './command-safety/context.js';
import { readGitAliases } from './command-safety/git-config.js';
import { type Judgement, judge } from './command-safety/judge.js';
import type { CommandSafetyOptions } from './command-safety/options.js';

// Types only: the schema (and zod) loads through `options()`, never with the guard.
export type { Category, CommandSafetyOptions } from './command-safety/options.js';
export type { Judgement } from './command-safety/judge.js';
export type { JudgeContext } from './command-safety/context.js';

/**
 * Judges one shell command run in `context` (working directory, project root, home). Pure and
 * synchronous: the same command, options and context always give the same verdict, with no
 * filesystem or network access. Never throws.
 */
export function judgeCommand(command: string, options?: CommandSafetyOptions, context?: JudgeContext): Judgement {
  return judge(command, options, undefined, context);
}

export const commandSafety: Guard<CommandSafetyOptions> = {
  id: 'command-safety',
  summary: 'Blocks destructive shell commands (rm -rf /, git reset --hard, deletes outside the project, curl | sh, …) judged on a real parse',
  events: ['preToolUse'],
  match: ['exec'],
  options: async () => (await import('./command-safety/options.js')).commandSafetyOptionsSchema,
  create(options: CommandSafetyOptions, guardContext?: GuardContext) {
    const env = guardContext?.env ?? {};
    const home = firstAbsolute(env.HOME);
    const tmpDir = firstAbsolute(env.TMPDIR);
    return (input: HookInput): ReplyObject | undefined | Promise<ReplyObject | undefined> => {
      // A throw here would be reported as a failed hook and the command would run: never throw.
      try {
        const command = commandOf(input);
        if (command === undefined) return undefined;
        if (typeof command !== 'string') return unreadable(options, command.problem);
        const cwd = firstAbsolute(input.cwd);
        const projectDir = projectDirOf(cwd, guardContext);
        // `git p` may be an alias for `push --force`: only a command that mentions git pays for the reads.
        const gitAliases = /git/i.test(command) ? readGitAliases(cwd, home, env) : undefined;
        const context: JudgeContext = {
          ...(cwd !== undefined ? { cwd } : {}),
          ...(projectDir !== undefined ? { projectDir } : {}),
          ...(home !== undefined ? { home } : {}),
          ...(tmpDir !== undefined ? { tmpDir } : {}),
          ...(gitAliases !== undefined ? { gitAliases } : {}),
        };
        const judgement = judge(command, options, undefined, context);
        if (judgement.verdict === 'allow') return undefined;
        if (judgement.routed === undefined) return { decision: judgement.verdict === 'route' ? 'block' : judgement.verdict, reason: judgement.reason };
        return route(judgement, input, options, { projectDir: sandboxProjectOf(guardContext), cwd, env });
      } catch (error) {
        return unreadable(options, `the guard failed (${error instanceof Error ? error.message : String(error)})`);
      }
    };
  },
};

/**
 * A judgement whose findings all go to a sandbox: the command, wrapped (an `ask` keeps asking, about
 * the wrapped command). No sandbox here: blocked, with the findings as the reason.
 */
async function route(
  judgement: Exclude<Judgement, { verdict: 'allow' }>,
  input: HookInput,
  options: CommandSafetyOptions,
  where: { projectDir: string | undefined; cwd: string | undefined; env: NodeJS.ProcessEnv },
): Promise<ReplyObject> {
  const routedReasons = (judgement.routed ?? []).join('; ');
  try {
    const { routeToSandbox } = await import('../sandbox/index.js');
    const routed = await routeToSandbox(input.tool_input as Record<string, unknown>, options.sandbox ?? {}, where);
    if (!routed.ok) return { decision: 'block', reason: `${routedReasons}; it would run in a sandbox, but ${routed.reason}` };
    const reason = judgement.verdict === 'ask' ? `${judgement.reason}; runs in ${routed.kind} for: ${routedReasons}` : `${routedReasons}; runs in ${routed.kind}`;
    return { decision: judgement.verdict === 'ask' ? 'ask' : 'modify', updatedInput: routed.updatedInput, additionalContext: routed.context, reason };
  } catch (error) {
    return { decision: 'block', reason: `${routedReasons}; it would run in a sandbox, but routing failed (${error instanceof Error ? error.message : String(error)})` };
  }
}

/**
 * The command of an exec tool call: a string, an argv array (joined with shell quoting), absent
 * (nothing to judge), or something else, which cannot be judged.
 */
function commandOf(input: HookInput): string | { problem: string } | undefined {
  const toolInput: unknown = input.tool_input;
  if (toolInput === undefined || toolInput === null) return undefined;
  if (typeof toolInput !== 'object' || Array.isArray(toolInput)) return { problem: 'tool_input is not an object' };
  if (!Object.hasOwn(toolInput, 'command')) return undefined;
  const command: unknown = (toolInput as Record<string, unknown>).command;
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.length <= 10_000 && command.every((a) => typeof a === 'string')) {
    return command.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
  }
  return { problem: `tool_input.command is ${Array.isArray(command) ? 'an array of non-strings' : command === null ? 'null' : `a ${typeof command}`}` };
}

function unreadable(options: CommandSafetyOptions, problem: string): ReplyObject | undefined {
  const mode = options.unverifiable ?? 'block';
  if (mode === 'allow') return undefined;
  return { decision: mode, reason: `command-safety: unverifiable: could not be verified: ${problem}` };
}

