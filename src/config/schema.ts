// The config schema (zod): the single source of truth for `.hooksrc.json`, its types and its JSON Schema.
import { z } from 'zod';

const seconds = z.number().positive().max(3600);
const globs = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

export const HandlerSchema = z
  .strictObject({
    id: z.string().regex(/^[\w.:@/-]+$/, 'use letters, digits and . _ - : @ /').optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    builtin: z.string().min(1).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
    match: globs.optional(),
    if: z.record(z.string(), globs).optional(),
    priority: z.number().int().optional(),
    timeout: seconds.optional(),
    onFailure: z.enum(['block', 'continue']).optional(),
    parallel: z.boolean().optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().min(1).optional(),
    enabled: z.boolean().optional(),
  })
  .superRefine((h, ctx) => {
    if (h.command !== undefined && h.builtin !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'use either "command" or "builtin", not both', path: ['builtin'] });
    }
    if (h.args !== undefined && h.command === undefined) {
      ctx.addIssue({ code: 'custom', message: '"args" needs "command"', path: ['args'] });
    }
    if (h.options !== undefined && h.builtin === undefined) {
      ctx.addIssue({ code: 'custom', message: '"options" needs "builtin"', path: ['options'] });
    }
  });

export const DefaultsSchema = z.strictObject({
  timeout: seconds.optional(),
  onFailure: z.enum(['block', 'continue']).optional(),
  env: z.record(z.string(), z.string()).optional(),
});

export const ConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  defaults: DefaultsSchema.optional(),
  /** Event (any spelling) → hooks. Event names are checked by the resolver, which knows the catalog. */
  hooks: z.record(z.string(), z.array(HandlerSchema)).optional(),
});

/** One hook entry as written in a config file. */
export type HandlerConfig = z.input<typeof HandlerSchema>;
/** A whole config file. */
export type HooksConfig = z.input<typeof ConfigSchema>;

/** Types a config written in JS/TS (`hooks.config.mjs`): `export default defineConfig({...})`. */
export function defineConfig(config: HooksConfig): HooksConfig {
  return config;
}
