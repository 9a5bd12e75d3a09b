// The metadata store's reader takes untrusted bytes (a torn write, a planted file, another version's
// format): whatever the file holds, it answers a bag within the limits or an empty bag and a problem.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bagProblem, mergeBag, METADATA_LIMITS } from '../../src/metadata/bag.js';
import { fileStore, metadataDir, readSessionFile, sessionFile } from '../../src/metadata/store.js';
import { isolatedEnv, tmpProject } from '../helpers.js';

const dir = tmpProject();
const env = isolatedEnv(dir);
const folder = metadataDir(env);
mkdirSync(folder, { recursive: true, mode: 0o700 });
const SESSION = 'prop-session';
const file = sessionFile(folder, SESSION);
const options = { seed: 1313, numRuns: 300, interruptAfterTimeLimit: 8_000 };

function read(bytes: string | Uint8Array) {
  writeFileSync(file, bytes, { mode: 0o600 });
  return readSessionFile(file, SESSION);
}

function expectSane(result: { bag: unknown; problem?: string }) {
  expect(bagProblem(result.bag)).toBeUndefined();
  if (result.problem !== undefined) {
    expect(result.bag).toEqual({});
    expect(result.problem).not.toMatch(/[\r\n]/);
    expect(result.problem).toContain(file);
  }
}

describe('readSessionFile never throws and never hands out an unusable bag', () => {
  it('for arbitrary bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => expectSane(read(bytes))), options);
  });

  it('for arbitrary JSON', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => expectSane(read(JSON.stringify(value) ?? 'null'))), options);
  });

  it('for files of the right shape holding arbitrary bags (deep, large, hostile keys)', () => {
    const bag = fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'prototype')), fc.jsonValue({ maxDepth: 40 }), { maxKeys: 8 });
    fc.assert(
      fc.property(bag, fc.constantFrom(SESSION, 'other'), (metadata, sessionId) => {
        const result = read(JSON.stringify({ v: 1, sessionId, updatedAt: 'x', metadata }));
        expectSane(result);
        if (sessionId !== SESSION) expect(result.problem).toContain('another session');
        expect(Object.getPrototypeOf(result.bag)).toBe(Object.prototype);
      }),
      options,
    );
  });

  it('for a bag nested past the limit, and a file past the size bound', () => {
    const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
    expect(read(`{"v":1,"sessionId":"${SESSION}","metadata":{"deep":${deep}}}`).problem).toContain('nests deeper');
    expect(read(JSON.stringify({ v: 1, sessionId: SESSION, metadata: { big: 'x'.repeat(METADATA_LIMITS.maxBytes * 7) } })).problem).toContain('larger than any bag');
  });
});

describe('mergeBag', () => {
  it('keeps __proto__ a plain key and never changes a prototype', () => {
    const merged = mergeBag({}, JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(merged).sort()).toEqual(['__proto__', 'a']);
  });

  it('the saved bag reads back as merged, for arbitrary changes', async () => {
    const store = fileStore(env);
    const change = fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 3 })), { maxKeys: 5 });
    await fc.assert(
      fc.asyncProperty(fc.array(change, { maxLength: 4 }), async (changes) => {
        const id = `merge-${Math.random()}`;
        let expected: Record<string, unknown> = {};
        for (const c of changes) {
          const next = mergeBag(expected, c);
          const problem = await store.save(id, c);
          if (bagProblem(next) === undefined) {
            expect(problem).toBeUndefined();
            expected = next;
          } else expect(problem).toContain('not saved');
        }
        expect(store.load(id).bag).toEqual(JSON.parse(JSON.stringify(expected)));
        store.remove(id);
      }),
      { seed: 1313, numRuns: 60, interruptAfterTimeLimit: 8_000 },
    );
  });
});

it('the session file name never leaves the folder, whatever the id', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (id) => {
      const name = sessionFile(folder, id);
      expect(path.dirname(name)).toBe(folder);
      expect(path.basename(name)).toMatch(/^[0-9a-f]{64}\.json$/);
    }),
    options,
  );
});
