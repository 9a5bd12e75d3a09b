// Options of `schema-pin`, checked by zod (errors carry the key path).
import { z } from 'zod';

export const schemaPinOptions = z
  .object({
    /** A pinned tool whose definition changed: `block` takes it away from the model (the pin stays), `warn` says so and pins the new one. */
    changed: z.enum(['block', 'warn']).default('block'),
    /** A tool not pinned before (once the project has pins): `warn` says so and pins it, `block` takes it away until pinned by hand. */
    added: z.enum(['warn', 'block']).default('warn'),
  })
  .strict();

export type SchemaPinOptions = z.output<typeof schemaPinOptions>;
export type SchemaPinOptionsInput = z.input<typeof schemaPinOptions>;
