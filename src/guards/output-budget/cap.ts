// Cuts text to a size, in UTF-8 bytes or in characters (Unicode code points), never inside a
// character: a surrogate pair is one character of 4 bytes; a lone surrogate counts 3 bytes, as the
// U+FFFD it becomes in UTF-8.

export type Unit = 'bytes' | 'chars';
export type Keep = 'head' | 'head-tail';

/** The size in `unit` and the UTF-16 length of the code point at `i`. */
function step(text: string, i: number, unit: Unit): [number, number] {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return [unit === 'bytes' ? 4 : 1, 2];
  }
  return [unit === 'chars' || c < 0x80 ? 1 : c < 0x800 ? 2 : 3, 1];
}

/** The size of `text` in `unit`. */
export function sizeOf(text: string, unit: Unit): number {
  if (unit === 'bytes') return Buffer.byteLength(text, 'utf8');
  let size = 0;
  for (let i = 0; i < text.length; ) {
    const [, len] = step(text, i, unit);
    size++;
    i += len;
  }
  return size;
}

/** The UTF-16 index where the first `budget` units of `text` end (at a code point boundary). */
function headEnd(text: string, budget: number, unit: Unit): number {
  let size = 0;
  let i = 0;
  while (i < text.length) {
    const [s, len] = step(text, i, unit);
    if (size + s > budget) break;
    size += s;
    i += len;
  }
  return i;
}

/** The UTF-16 index where the last `budget` units of `text` start (at a code point boundary). */
function tailStart(text: string, budget: number, unit: Unit): number {
  let size = 0;
  let i = text.length;
  while (i > 0) {
    // A low surrogate ends a pair when the unit before it is a high surrogate.
    const at = i >= 2 && step(text, i - 2, unit)[1] === 2 ? i - 2 : i - 1;
    const [s] = step(text, at, unit);
    if (size + s > budget) break;
    size += s;
    i = at;
  }
  return i;
}

export interface CutResult {
  text: string;
  /** Units cut out (0: the text fit). */
  cut: number;
  /** Where the kept head ends and, for head-tail, where the kept tail starts (UTF-16 indices in the input). */
  points: number[];
}

/**
 * `text` cut to at most `budget` units plus the marker; `marker(cut)` is the note put where the text
 * was cut (at the end for `head`, between the two parts for `head-tail`, which keeps half of the
 * budget from each end).
 */
export function cutText(text: string, budget: number, unit: Unit, keep: Keep, marker: (cut: number) => string, size = sizeOf(text, unit)): CutResult {
  if (size <= budget) return { text, cut: 0, points: [] };
  if (keep === 'head') {
    const end = headEnd(text, budget, unit);
    const kept = text.slice(0, end);
    const cut = size - sizeOf(kept, unit);
    return { text: kept + marker(cut), cut, points: [end] };
  }
  const headBudget = Math.ceil(budget / 2);
  const end = headEnd(text, headBudget, unit);
  const head = text.slice(0, end);
  const headSize = sizeOf(head, unit);
  const start = Math.max(end, tailStart(text, budget - headSize, unit));
  const tail = text.slice(start);
  const cut = size - headSize - sizeOf(tail, unit);
  return { text: head + marker(cut) + tail, cut, points: [end, start] };
}
