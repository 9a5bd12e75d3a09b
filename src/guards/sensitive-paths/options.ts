// Options of `sensitive-paths`, checked by zod (errors carry the key path). Loaded only to check a config.
import { z } from 'zod';
import { KINDS, type Kind } from './rules.js';

const action = z.union([z.boolean(), z.enum(['block', 'ask'])]);

export const sensitivePathsOptions = z
  .object({
    /** Extra path globs to block (read and write), e.g. `~/.config/acme/**` or `secrets/**`. */
    extra: z.array(z.string().min(1)).default([]),
    /** Path globs that are always allowed; they win over every built-in rule and over `extra`. */
    allow: z.array(z.string().min(1)).default([]),
    /** Home directory used for `~`, `$HOME` and the home-anchored rules; defaults to `os.homedir()`. */
    home: z.string().min(1).optional(),
    /** Per kind: `true`/`"block"` (default), `"ask"` (the agent asks the user), `false` (off). */
    categories: z
      .object(Object.fromEntries(KINDS.map((k) => [k, action.optional()])) as Record<Kind, z.ZodOptional<typeof action>>)
      .strict()
      .optional(),
    /** A path or command the guard cannot judge (unparsable, too complex a glob, an internal error). */
    unverifiable: z.enum(['block', 'ask', 'allow']).optional(),
    /** Reading shell profiles (`~/.bashrc`, `~/.zshrc`, ...): blocked by default, as the design has it (profiles export keys). */
    shellProfileReads: z.enum(['block', 'allow']).optional(),
    /** Reading `/etc/passwd` and `/etc/group`: blocked by default, as the design has it. */
    systemFileReads: z.enum(['block', 'allow']).optional(),
  })
  .strict();

export type SensitivePathsOptions = z.output<typeof sensitivePathsOptions>;
export type SensitivePathsOptionsInput = z.input<typeof sensitivePathsOptions>;
