// Guard `output-budget` (postToolUse): strips terminal escapes from tool output and caps it at a
// size, with a marker saying how much was cut. Order, inside the guard: strip escapes, then (only in
// the strings it cuts) redact secrets, then cut, so a secret that straddles the cut is redacted
// whole before the cut and never survives in part, whichever of the two guards runs first.
import type { Guard, HandlerFn, ReplyObject } from '../types.js';
import { stripAnsi } from './output-budget/ansi.js';
import { cutText, sizeOf } from './output-budget/cap.js';
import type { OutputBudgetOptions } from './output-budget/options.js';
import { mapLeaves, stringLeaves } from './output-budget/walk.js';
import { createRedactor } from './redact-secrets/engine.js';

export { stripAnsi } from './output-budget/ansi.js';
export { cutText, sizeOf } from './output-budget/cap.js';
export type { OutputBudgetOptions, OutputBudgetOptionsInput } from './output-budget/options.js';

const DEFAULTS: OutputBudgetOptions = {
  max: 32_768,
  unit: 'bytes',
  keep: 'head-tail',
  ansi: true,
  marker: '\n[… {cut} {unit} cut by agent-hooks output-budget …]\n',
  redact: true,
};

export const outputBudget: Guard<OutputBudgetOptions> = {
  id: 'output-budget',
  summary: 'Strips terminal escapes from tool output and caps it at a size (bytes or characters), marking what was cut',
  events: ['postToolUse'],
  options: async () => (await import('./output-budget/options.js')).outputBudgetOptions,
  create(given) {
    const options: OutputBudgetOptions = { ...DEFAULTS, ...(given ?? {}) };
    const budget = createBudget(options);
    const handler: HandlerFn = (input, context) => {
      if (context.event !== 'postToolUse' || input.tool_response === undefined) return undefined;
      return budget(input.tool_response);
    };
    return handler;
  },
};

/** The budget as a function of one tool output: a `modify` reply, or undefined when nothing changed. */
export function createBudget(options: OutputBudgetOptions): (output: unknown) => ReplyObject | undefined {
  const redactor = options.redact === false ? undefined : createRedactor(options.redact === true ? undefined : options.redact);
  const marker = (cut: number): string => options.marker.split('{cut}').join(String(cut)).split('{unit}').join(options.unit);
  return (output) => {
    let escapes = 0;
    const stripped = options.ansi
      ? mapLeaves(output, (leaf) => {
          const result = stripAnsi(leaf);
          escapes += result.removed;
          return result.text;
        })
      : output;
    const sizes = stringLeaves(stripped).map((leaf) => sizeOf(leaf, options.unit));
    const fair = shareOf(sizes, options.max);
    // Short strings are structure more often than text (MCP's "type": "text", a mime type, a path):
    // no string is cut below MIN_SHARE, even when very many of them would make the share smaller.
    const share = fair === undefined ? undefined : Math.max(fair, MIN_SHARE);
    let cutFrom = 0;
    let cutTotal = 0;
    let secrets = 0;
    const capped =
      share === undefined
        ? stripped
        : mapLeaves(stripped, (leaf, i) => {
            if (sizes[i]! <= share) return leaf;
            let text = leaf;
            if (redactor !== undefined) {
              const redacted = redactor.text(leaf);
              secrets += redacted.findings.length;
              text = redacted.text;
            }
            const result = cutText(text, share, options.unit, options.keep, marker);
            if (result.cut > 0) {
              cutFrom++;
              cutTotal += result.cut;
            }
            return result.text;
          });
    if (capped === output) return undefined;
    const parts: string[] = [];
    if (escapes > 0) parts.push(`stripped ${escapes} escape sequence(s)`);
    if (secrets > 0) parts.push(`redacted ${secrets} secret(s) before cutting`);
    if (cutFrom > 0) parts.push(`cut ${cutTotal} ${options.unit} from ${cutFrom} string(s) to fit ${options.max}`);
    return { decision: 'modify', updatedOutput: capped, reason: `output-budget: ${parts.join('; ') || 'rewrote the output'}` };
  };
}

/** No string is cut shorter than this (in the budget's unit). */
export const MIN_SHARE = 64;

/**
 * The most each string may keep so that all of them fit in `budget` together: strings smaller than
 * an equal share keep all they have, and the rest share what remains equally (water-filling).
 * Undefined when everything fits.
 */
export function shareOf(sizes: readonly number[], budget: number): number | undefined {
  let total = 0;
  for (const s of sizes) total += s;
  if (total <= budget) return undefined;
  const sorted = [...sizes].sort((a, b) => a - b);
  let remaining = budget;
  for (let k = 0; k < sorted.length; k++) {
    const left = sorted.length - k;
    if (sorted[k]! * left > remaining) return Math.floor(remaining / left);
    remaining -= sorted[k]!;
  }
  return undefined;
}
