// Matches a model's regular expression in a worker thread: a JavaScript RegExp cannot be interrupted,
// and a pattern such as `(a+)+$` backtracks for ever on the thread that runs it, past any timer. The
// worker is ended at the deadline. Its code is a string (eval), so the bundle needs no second file.
import { Worker } from 'node:worker_threads';

export type GrepEnd = { kind: 'found'; matches: { rel: string; lines: [number, string][] }[] } | { kind: 'timeout' } | { kind: 'error'; message: string };

/** Matching lines kept per file; enough for any listing the tool gives. */
const LINES_PER_FILE = 1000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.pattern, workerData.flags);
const matches = [];
for (const file of workerData.texts) {
  const lines = [];
  const all = file.text.split('\\n');
  for (let i = 0; i < all.length && lines.length < ${LINES_PER_FILE}; i++) if (re.test(all[i])) lines.push([i + 1, all[i]]);
  if (lines.length > 0) matches.push({ rel: file.rel, lines });
}
parentPort.postMessage(matches);
`;

export function grepTexts(pattern: string, flags: string, texts: { rel: string; text: string }[], timeoutMs: number): Promise<GrepEnd> {
  return new Promise((resolve) => {
    let settled = false;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern, flags, texts }, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    const finish = (end: GrepEnd) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(end);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), Math.min(timeoutMs, 10_000));
    worker.on('message', (matches: { rel: string; lines: [number, string][] }[]) => finish({ kind: 'found', matches }));
    worker.on('error', (error) => finish({ kind: 'error', message: error.message }));
    worker.on('exit', () => finish({ kind: 'error', message: 'the search ended without an answer' }));
  });
}
