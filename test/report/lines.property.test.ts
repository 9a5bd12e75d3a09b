// The line reader takes untrusted bytes of any size: whatever the file holds and wherever the chunk
// boundaries fall, it hands over exactly the lines a plain split would, skips and counts the too-long ones,
// and starting mid-file passes over the cut first line.
import { closeSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../src/report/lines.js';
import { tmpProject } from '../helpers.js';

const file = path.join(tmpProject(), 'log.jsonl');
const options = { seed: 2626, numRuns: 200, interruptAfterTimeLimit: 6_000 };

function read(bytes: Buffer, opts: Parameters<typeof readLines>[2]) {
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  try {
    const lines: string[] = [];
    const counts = readLines(fd, (l) => lines.push(l), opts);
    return { lines, counts };
  } finally {
    closeSync(fd);
  }
}

/** What a plain split gives: lines of the text, without the empty piece after a final newline. */
function naive(text: string, maxLineBytes: number) {
  const pieces = text.split('\n');
  if (pieces.at(-1) === '') pieces.pop();
  const kept = pieces.filter((p) => Buffer.byteLength(p) <= maxLineBytes).map((p) => p.replace(/\r$/, ''));
  return { kept, tooLong: pieces.length - pieces.filter((p) => Buffer.byteLength(p) <= maxLineBytes).length, lines: pieces.length };
}

// Text with many newlines, CRs and multi-byte characters, so boundaries cut characters and lines alike.
const text = fc.array(fc.oneof(fc.constantFrom('\n', '\r\n', 'é', '🙂', '{"v":1}', ''), fc.string({ maxLength: 12 })), { maxLength: 60 }).map((parts) => parts.join(''));

describe('readLines', () => {
  it('gives the lines a plain split gives, for any chunk size and line limit', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 40 }), (t, chunkBytes, maxLineBytes) => {
        const { lines, counts } = read(Buffer.from(t, 'utf8'), { chunkBytes, maxLineBytes });
        const want = naive(t, maxLineBytes);
        expect(lines).toEqual(want.kept);
        expect(counts.tooLong).toBe(want.tooLong);
        expect(counts.lines).toBe(want.lines);
        expect(counts.bytes).toBe(Buffer.byteLength(t));
      }),
      options,
    );
  });

  it('from an offset: the line cut by it is passed over, a line starting at it is kept', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.integer({ min: 1, max: 16 }), (t, at, chunkBytes) => {
        const bytes = Buffer.from(t, 'utf8');
        const start = bytes.length === 0 ? 0 : at % (bytes.length + 1);
        const { lines } = read(bytes, { start, chunkBytes, maxLineBytes: 1 << 20 });
        const atLineStart = start === 0 || bytes[start - 1] === 0x0a;
        let from = start;
        if (!atLineStart) {
          const nl = bytes.indexOf(0x0a, start);
          from = nl === -1 ? bytes.length : nl + 1;
        }
        expect(lines).toEqual(naive(bytes.subarray(from).toString('utf8'), 1 << 20).kept);
      }),
      options,
    );
  });

  it('a line far over the limit is skipped in bounded memory and the next line is whole', () => {
    const big = Buffer.alloc(8 * 1024 * 1024, 0x41);
    const { lines, counts } = read(Buffer.concat([Buffer.from('first\n'), big, Buffer.from('\nlast\n')]), { maxLineBytes: 1024, chunkBytes: 4096 });
    expect(lines).toEqual(['first', 'last']);
    expect(counts.tooLong).toBe(1);
  });
});
