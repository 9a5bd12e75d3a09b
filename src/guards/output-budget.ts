// Guard `output-budget` (postToolUse): strips terminal escapes from tool output and caps it at a
// size, with a marker saying how much was cut. Order, inside the guard: strip escapes, then (only in
// a window around each cut) redact secrets, then cut, so a secret that straddles the cut is redacted
// whole before the cut and never survives in part, whichever of the two guards runs first.
import type { Guard, HandlerFn, ReplyObject } from '../types.js';
import { stripAnsi } from './output-budget/ansi.js';
import { type CutResult, cutText, sizeOf } from './output-budget/cap.js';
import type { OutputBudgetOptions } from './output-budget/options.js';
import { mapLeaves, stringLeaves } from './output-budget/walk.js';
import { createRedactor, type Redactor } from './redact-secrets/engine.js';

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
export function createBudget(options: OutputBudgetOptions, margin = REDACT_MARGIN): (output: unknown) => ReplyObject | undefined {
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
            let result: CutResult;
            if (redactor === undefined) result = cutText(leaf, share, options.unit, options.keep, marker);
            else {
              const redacted = redactThenCut(leaf, share, options, marker, redactor, margin);
              secrets += redacted.secrets;
              result = redacted;
            }
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

/**
 * How far around each cut the budget redacts (UTF-16 units each way). A secret that crosses a cut is
 * redacted whole when it is shorter than half of this (PEM private keys are under 5,000); the rest of
 * a string is left to redact-secrets, so a 10 MB output costs one window, not 10 MB of rules.
 */
export const REDACT_MARGIN = 65_536;

/**
 * Redacts `text` around the places it will be cut, then cuts it. The cut is made on the redacted text;
 * if a cut then falls less than half a margin from the edge of a redacted window (redaction shrank or
 * grew the text that much), the whole string is redacted instead.
 */
function redactThenCut(
  text: string,
  share: number,
  options: OutputBudgetOptions,
  marker: (cut: number) => string,
  redactor: Redactor,
  margin: number,
): CutResult & { secrets: number } {
  const whole = (): CutResult & { secrets: number } => {
    const redacted = redactor.text(text);
    return { ...cutText(redacted.text, share, options.unit, options.keep, marker), secrets: redacted.findings.length };
  };
  const planned = cutText(text, share, options.unit, options.keep, marker).points;
  // Windows around each planned cut, merged when they touch.
  const windows: [number, number][] = [];
  for (const p of planned) {
    const start = Math.max(0, p - margin);
    const end = Math.min(text.length, p + margin);
    const last = windows[windows.length - 1];
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
  }
  if (windows.length === 1 && windows[0]![0] === 0 && windows[0]![1] === text.length) return whole();
  let rebuilt = '';
  let at = 0;
  let secrets = 0;
  const placed: [number, number][] = [];
  for (const [start, end] of windows) {
    rebuilt += text.slice(at, start);
    const redacted = redactor.text(text.slice(start, end));
    secrets += redacted.findings.length;
    placed.push([rebuilt.length, rebuilt.length + redacted.text.length]);
    rebuilt += redacted.text;
    at = end;
  }
  rebuilt += text.slice(at);
  const result = cutText(rebuilt, share, options.unit, options.keep, marker);
  const half = margin / 2;
  const safe = result.points.every((p) =>
    placed.some(([start, end]) => (p - start >= half || start === 0) && (end - p >= half || end === rebuilt.length) && p >= start && p <= end),
  );
  return safe ? { ...result, secrets } : whole();
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
