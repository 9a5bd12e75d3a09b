// The guard's options, as written under `{ "builtin": "command-safety", "options": { … } }`.
import { z } from 'zod';

export const CATEGORIES = [
  'filesystem-destruction',
  'disk',
  'permissions',
  'auth-files',
  'remote-code',
  'backdoor',
  'fork-bomb',
  'git-hook-bypass',
  'docker-wipe',
] as const;

export type Category = (typeof CATEGORIES)[number];

/** Every category is on unless set to false. */
const categoriesSchema = z
  .object(Object.fromEntries(CATEGORIES.map((c) => [c, z.boolean().optional()])) as Record<Category, z.ZodOptional<z.ZodBoolean>>)
  .strict();

export const commandSafetyOptionsSchema = z
  .object({
    categories: categoriesSchema.optional(),
    /** Globs (`*`, `?`) on each normalized simple command (`terraform destroy*`): always blocked. */
    deny: z.array(z.string().min(1)).optional(),
    /** Globs on each normalized simple command that exempt it from the built-in categories. */
    allow: z.array(z.string().min(1)).optional(),
    /** What to do with a command that cannot be parsed or verified within the limits. */
    unverifiable: z.enum(['block', 'allow']).optional(),
  })
  .strict();

export type CommandSafetyOptions = z.infer<typeof commandSafetyOptionsSchema>;
