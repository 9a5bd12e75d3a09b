// The command-safety guard: blocks destructive shell commands, judged on a real parse.
import type { Guard, HookInput, ReplyObject } from '../types.js';
import type { JudgeContext } from './command-safety/context.js';
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
  summary: 'Blocks destructive shell commands (rm -rf /, dd to disks, curl | sh, fork bombs, …) judged on a real parse',
  events: ['preToolUse'],
  match: ['exec'],
  options: async () => (await import('./command-safety/options.js')).commandSafetyOptionsSchema,
  create(options: CommandSafetyOptions) {
    return (input: HookInput): ReplyObject | undefined => {
      const command = input.tool_input?.command;
      if (typeof command !== 'string') return undefined;
      const judgement = judge(command, options);
      return judgement.verdict === 'block' ? { decision: 'block', reason: judgement.reason } : undefined;
    };
  },
};
