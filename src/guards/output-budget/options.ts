// Options of `output-budget`, checked by zod (errors carry the key path).
import { z } from 'zod';
import { redactSecretsOptions } from '../redact-secrets/options.js';

export const DEFAULT_MAX = 32_768;
export const DEFAULT_MARKER = '\n[… {cut} {unit} cut by agent-hooks output-budget …]\n';

export const outputBudgetOptions = z
  .object({
    /** The most text the model gets from one tool call, summed over every string of the output. */
    max: z.number().int().min(1).max(1_000_000_000).default(DEFAULT_MAX),
    /** What `max` counts: UTF-8 bytes (the default) or characters (Unicode code points). */
    unit: z.enum(['bytes', 'chars']).default('bytes'),
    /** Keep the beginning and the end (half of the budget each, the default), or the beginning only. */
    keep: z.enum(['head', 'head-tail']).default('head-tail'),
    /** Strip terminal escape sequences (colours, cursor moves, titles, hyperlinks) first. */
    ansi: z.boolean().default(true),
    /** The note left where text was cut; `{cut}` is how much, `{unit}` is bytes or chars. */
    marker: z.string().min(1).max(1000).refine((m) => m.includes('{cut}'), 'must contain {cut}').default(DEFAULT_MARKER),
    /**
     * Redact secrets (redact-secrets' rules, or these redact-secrets options) around each cut before
     * cutting, so that no secret is ever cut in half. `false` turns it off.
     */
    redact: z.union([z.boolean(), redactSecretsOptions]).default(true),
    /**
     * Also hold what each hook gives the model or the user (its additionalContext, reason,
     * systemMessage), on every event, to this many characters; 10000 is Claude Code's own cap.
     */
    hookOutput: z.number().int().min(100).max(1_000_000_000).optional(),
  })
  .strict();

export type OutputBudgetOptions = z.output<typeof outputBudgetOptions>;
export type OutputBudgetOptionsInput = z.input<typeof outputBudgetOptions>;
