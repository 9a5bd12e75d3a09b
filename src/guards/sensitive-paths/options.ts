// Options of `sensitive-paths`, checked by zod (errors carry the key path). Loaded only to check a config.
import { z } from 'zod';

export const sensitivePathsOptions = z
  .object({
    /** Extra path globs to block (read and write), e.g. `~/.config/acme/**` or `secrets/**`. */
    extra: z.array(z.string().min(1)).default([]),
    /** Path globs that are always allowed; they win over every built-in rule and over `extra`. */
    allow: z.array(z.string().min(1)).default([]),
    /** Home directory used for `~`, `$HOME` and the home-anchored rules; defaults to `os.homedir()`. */
    home: z.string().min(1).optional(),
  })
  .strict();

export type SensitivePathsOptions = z.output<typeof sensitivePathsOptions>;
export type SensitivePathsOptionsInput = z.input<typeof sensitivePathsOptions>;
