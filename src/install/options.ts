// What the install commands take from the command line and the CLI context.
import os from 'node:os';
import { HooksError } from '../errors.js';
import type { Scope, Where } from './target.js';

/** `--project` (the default) or `--user`; both is a usage error. */
export function scopeOf(flags: Record<string, string | boolean | undefined>): Scope {
  if (flags.project === true && flags.user === true) throw new HooksError('USAGE', '--project and --user: choose one');
  return flags.user === true ? 'user' : 'project';
}

/** The folders a settings path depends on; the home folder comes from the passed-in environment. */
export function whereOf(ctx: { cwd: string; env: NodeJS.ProcessEnv }): Where {
  return { cwd: ctx.cwd, env: ctx.env, home: ctx.env.HOME || ctx.env.USERPROFILE || os.homedir() };
}
