// A unified diff of two texts, for `--dry-run`: a line-level longest common subsequence with three
// lines of context. Settings files are small, so the quadratic table is fine and needs no dependency.

const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string };

/** `--- a` / `+++ b` and the hunks; empty when the texts are equal. An absent text is /dev/null. */
export function unifiedDiff(before: string | undefined, after: string | undefined, label: string): string {
  if (before === after) return '';
  const ops = diffLines(lines(before), lines(after));
  const out = [`--- ${before === undefined ? '/dev/null' : `a/${label}`}`, `+++ ${after === undefined ? '/dev/null' : `b/${label}`}`];
  for (const hunk of hunks(ops)) out.push(...hunk);
  return `${out.join('\n')}\n`;
}

function lines(text: string | undefined): string[] {
  if (text === undefined || text === '') return [];
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
}

function diffLines(a: string[], b: string[]): Op[] {
  // lcs[i][j]: length of the common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      // Deletions before insertions, as diff(1) prints them.
      ops.push({ kind: '-', line: a[i++]! });
    } else {
      ops.push({ kind: '+', line: b[j++]! });
    }
  }
  return ops;
}

/** Groups changes that lie within 2×CONTEXT lines of each other into hunks with `@@` headers. */
function hunks(ops: Op[]): string[][] {
  const changed = ops.flatMap((op, k) => (op.kind === ' ' ? [] : [k]));
  const result: string[][] = [];
  let k = 0;
  while (k < changed.length) {
    let end = k;
    while (end + 1 < changed.length && changed[end + 1]! - changed[end]! <= 2 * CONTEXT) end++;
    const from = Math.max(0, changed[k]! - CONTEXT);
    const to = Math.min(ops.length, changed[end]! + CONTEXT + 1);
    // Line numbers where the hunk starts in each text: count what came before it.
    let aStart = 1;
    let bStart = 1;
    for (const op of ops.slice(0, from)) {
      if (op.kind !== '+') aStart++;
      if (op.kind !== '-') bStart++;
    }
    const body = ops.slice(from, to);
    const aLen = body.filter((op) => op.kind !== '+').length;
    const bLen = body.filter((op) => op.kind !== '-').length;
    result.push([`@@ -${aLen === 0 ? aStart - 1 : aStart},${aLen} +${bLen === 0 ? bStart - 1 : bStart},${bLen} @@`, ...body.map((op) => `${op.kind}${op.line}`)]);
    k = end + 1;
  }
  return result;
}
