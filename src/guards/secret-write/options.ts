// Options of `secret-write`, checked by zod (errors carry the key path).
import { z } from 'zod';
import { SECRET_RULE_IDS } from '../redact-secrets/rules.js';

export const secretWriteOptions = z
  .object({
    /** What a hard-coded credential gets: `block` (default) or `ask` (the user decides). */
    decision: z.enum(['block', 'ask']).default('block'),
    /** Turn built-in rules off (or back on) by id, as in redact-secrets. */
    rules: z.partialRecord(z.enum(SECRET_RULE_IDS), z.boolean()).default({}),
    /** Let writes into test fixtures through (test/, fixtures/, __tests__/, testdata/, *.test.*, *_test.go, …). */
    allowTestPaths: z.boolean().default(true),
    /** More paths that may hold credentials: substrings of the path as written (e.g. `docs/examples/`). */
    allowPaths: z.array(z.string().min(1)).default([]),
  })
  .strict();

export type SecretWriteOptions = z.output<typeof secretWriteOptions>;
export type SecretWriteOptionsInput = z.input<typeof secretWriteOptions>;
