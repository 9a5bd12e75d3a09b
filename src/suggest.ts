// "Did you mean ...?" for unknown names: the closest candidate by edit distance, if it is close.

/** The candidate closest to `word`, or undefined when none is plausibly a typo of it. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const candidate of candidates) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** ` (did you mean "x"?)` or nothing. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const hit = closest(word, candidates);
  return hit === undefined ? '' : ` (did you mean "${hit}"?)`;
}

// --- internal ---

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
