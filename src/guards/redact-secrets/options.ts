// Options of `redact-secrets`, checked by zod (errors carry the key path).
import { z } from 'zod';
import { SECRET_RULE_IDS } from './rules.js';

const ALLOWED_FLAGS = /^[imsu]*$/;

const extraRule = z
  .object({
    /** Rule id shown in the marker and the reason, e.g. `acme-token`. */
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    /** A JavaScript regex source; a named group `secret` limits the replacement to that group. */
    pattern: z.string().min(1),
    /** Extra regex flags among i, m, s, u (g and d are always added). */
    flags: z.string().regex(ALLOWED_FLAGS, 'only i, m, s and u').optional(),
  })
  .strict()
  .superRefine((rule, ctx) => {
    try {
      new RegExp(rule.pattern, 'gd' + (rule.flags ?? ''));
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: `invalid regex: ${(error as Error).message}` });
    }
  });

export const redactSecretsOptions = z
  .object({
    /** Turn built-in rules off (or back on) by id, e.g. `{ "url-password": false }`. */
    rules: z.partialRecord(z.enum(SECRET_RULE_IDS), z.boolean()).default({}),
    /** Extra patterns, run after the built-in rules. */
    extra: z.array(extraRule).default([]),
    /** Replacement text; `{rule}` becomes the rule id. */
    marker: z.string().min(1).default('[REDACTED:{rule}]'),
  })
  .strict();

export type RedactSecretsOptions = z.output<typeof redactSecretsOptions>;
export type RedactSecretsOptionsInput = z.input<typeof redactSecretsOptions>;
