// The command-safety guard: blocks destructive shell commands, judged on a real parse.
import type { Guard, HookInput, ReplyObject } from '../types.js';
import { type Judgement, judge } from './command-safety/judge.js';
import type { CommandSafetyOptions } from './command-safety/options.js';

// Types only: the schema (and zod) loads through `options()`, never with the guard.
export type { Category, CommandSafetyOptions } from './command-safety/options.js';
export type { Judgement } from './command-safety/judge.js';

/**
 * Judges one shell command. Pure and synchronous: the same command and options always give the
 * same verdict, with no filesystem or network access.
 */
export function judgeCommand(command: string, options?: CommandSafetyOptions): Judgement {
  return judge(command, options);
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
