// What a hook itself gives the model or the user as text (its context, its reason, its message), held to
// a number of characters. Claude Code keeps at most 10,000 characters of a hook's output; a reply over it
// is warned about (dialects/claude-answer.ts), and output-budget's `hookOutput` option cuts it here.
// Kept apart from the guard so the engine can apply it without loading the guard's redactor.
import { cutText, sizeOf } from './cap.js';

/** Claude Code's cap on the text of one hook's output, in characters. */
export const CLAUDE_HOOK_OUTPUT_CAP = 10_000;

/** The reply fields whose text reaches the model or the user. */
const FIELDS = ['additionalContext', 'reason', 'systemMessage'] as const;
type Field = (typeof FIELDS)[number];
type Texts = Partial<Record<Field, string>>;

/** The fields of a reply over `cap` characters, with their sizes. */
export function overCap(reply: Texts, cap = CLAUDE_HOOK_OUTPUT_CAP): { field: Field; size: number }[] {
  return FIELDS.flatMap((field) => {
    const text = reply[field];
    if (text === undefined || text.length <= cap) return [];
    const size = sizeOf(text, 'chars');
    return size > cap ? [{ field, size }] : [];
  });
}

/** The reply with each field cut to `cap` characters, marker included, and a note per cut. */
export function capHookOutput<R extends Texts & { notes?: string[] }>(reply: R, cap: number): R {
  const over = overCap(reply, cap);
  if (over.length === 0) return reply;
  const out: R = { ...reply, notes: [...(reply.notes ?? [])] };
  for (const { field, size } of over) {
    const marker = (cut: number) => `\n[… ${cut} chars cut by agent-hooks output-budget (hookOutput: ${cap}) …]`;
    const room = Math.max(0, cap - marker(size).length);
    out[field] = cutText(reply[field]!, room, 'chars', 'head', marker, size).text as R[Field];
    out.notes!.push(`gave ${size} characters of ${field}; output-budget (hookOutput: ${cap}) cut it to ${cap}`);
  }
  return out;
}
