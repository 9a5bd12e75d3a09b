// Property tests for reading a hook's reply (issue 10): any bytes, any exit code, any size.
// Invariants: no exception; exit 2 is always a block; a well-formed JSON block is always a block (or a halt),
// whatever stderr holds; a failure's message is one line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventSpec } from '../../src/events/catalog.js';
import { readProcessEnd, type ProcessEnd } from '../../src/reply/interpret.js';
import { counted, settings } from './settings.js';

const specs = ['preToolUse', 'postToolUse', 'userPromptSubmit', 'stop', 'sessionStart'].map((n) => eventSpec(n as never));
const spec = fc.constantFrom(...specs);
/** Bytes a hook may write: text, JSON-ish text, raw bytes, BOMs, and all of them glued. */
const chunk = fc.oneof(
  fc.string(),
  fc.json(),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('latin1')),
  fc.constantFrom('\uFEFF', '\n', '{', '}', '{"decision":"block"}', '\u0000', 'checking...\n', '\r\n'),
);
const bytes = fc.oneof(
  fc.array(chunk, { maxLength: 6 }).map((parts) => Buffer.from(parts.join(''), 'utf8')),
  fc.uint8Array({ maxLength: 200 }),
  fc.tuple(fc.constantFrom([0xff, 0xfe], [0xfe, 0xff], [0xef, 0xbb, 0xbf], [0x80], []), fc.json()).map(([bom, text]) => Buffer.concat([Buffer.from(bom), Buffer.from(text)])),
);
const exitCode = fc.oneof(fc.constantFrom(0, 1, 2, 126, 127, 130, 137, 143, 255), fc.integer({ min: 0, max: 255 }));
const dropped = fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: undefined });

const exited = fc.record({ exitCode, stdout: bytes, stderr: bytes, stderrDropped: dropped }).map(
  (e): ProcessEnd => ({ kind: 'exited', exitCode: e.exitCode, stdout: e.stdout, stderr: e.stderr, ...(e.stderrDropped === undefined ? {} : { stderrDropped: e.stderrDropped }) }),
);
const other: fc.Arbitrary<ProcessEnd> = fc.oneof(
  fc.record({ kind: fc.constant('timeout' as const), timeoutMs: fc.double({ min: 0, max: 1e7, noNaN: true }) }),
  fc.record({ kind: fc.constant('signal' as const), signal: fc.constantFrom('SIGKILL', 'SIGTERM'), stderr: fc.string() }),
  fc.record({ kind: fc.constant('not-found' as const), message: fc.string() }),
  fc.record({ kind: fc.constant('too-large' as const), stream: fc.constantFrom('stdout' as const, 'stderr' as const), limit: fc.nat() }),
  fc.constant({ kind: 'cancelled' as const }),
);

describe('fuzz: reply reading', () => {
  it('never throws; exit 2 always blocks; failures are one line', () => {
    const { wrapped, report } = counted('reply reading (any end)', (end: ProcessEnd, s: (typeof specs)[number]) => {
      const reading = readProcessEnd(end, s);
      if (end.kind === 'exited' && end.exitCode === 2) expect(reading.ok && ['block', 'halt'].includes(reading.reply.decision)).toBe(true);
      if (!reading.ok) expect(reading.failure.message).not.toMatch(/[\n\r]/);
    });
    fc.assert(fc.property(fc.oneof(exited, other), spec, (e, s) => void wrapped(e, s)), settings(3000));
    report();
  });

  it('a well-formed JSON block is a block whatever surrounds it (stderr, its size, a BOM, whitespace, exit code)', () => {
    const block = fc.record(
      {
        decision: fc.constantFrom('block', 'deny'),
        reason: fc.string(),
        additionalContext: fc.string(),
        systemMessage: fc.string(),
        suppressOutput: fc.boolean(),
      },
      { requiredKeys: ['decision'] },
    );
    const claudeDeny = fc.record({ reason: fc.string() }).map((r) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: r.reason } }));
    const { wrapped, report } = counted('reply reading (JSON block)', (reply: object, pad: string, bom: boolean, code: number, stderr: Uint8Array, drop: number | undefined) => {
      const stdout = Buffer.from(`${bom ? '\uFEFF' : ''}${pad}${JSON.stringify(reply)}${pad}`);
      const reading = readProcessEnd({ kind: 'exited', exitCode: code, stdout, stderr, ...(drop === undefined ? {} : { stderrDropped: drop }) }, specs[0]!);
      expect(reading.ok && ['block', 'halt'].includes(reading.reply.decision)).toBe(true);
    });
    fc.assert(
      fc.property(fc.oneof(block, claudeDeny), fc.constantFrom('', ' ', '\n', '\t\r\n'), fc.boolean(), fc.constantFrom(0, 1, 2, 3, 42, 255), fc.uint8Array({ maxLength: 300 }), dropped, (...a) => void wrapped(...a)),
      settings(3000),
    );
    report();
  });
});
