// diffJson: per-key lines, - for expected, + for actual.
import { describe, expect, it } from 'vitest';
import { diffJson, renderDiff } from '../../src/testing/diff.js';

const diff = (a: unknown, b: unknown) => renderDiff(diffJson(a, b));

describe('diffJson', () => {
  it('equal values are context lines only', () => {
    expect(diff({ a: 1 }, { a: 1 })).toBe('  {"a":1}');
  });

  it('objects are compared key by key, nested objects open up', () => {
    expect(diff({ decision: 'allow', updatedInput: { command: 'ls', d: 'x' } }, { decision: 'block', updatedInput: { command: 'ls -l', d: 'x' } })).toBe(
      [
        '  {',
        '-   "decision": "allow"',
        '+   "decision": "block"',
        '    "updatedInput": {',
        '-     "command": "ls"',
        '+     "command": "ls -l"',
        '      "d": "x"',
        '    }',
        '  }',
      ].join('\n'),
    );
  });

  it('a key on one side only is one line', () => {
    expect(diff({ a: 1, b: 2 }, { a: 1, c: 3 })).toBe(['  {', '    "a": 1', '-   "b": 2', '+   "c": 3', '  }'].join('\n'));
  });

  it('arrays are aligned by their longest common run', () => {
    expect(diff(['a', 'b', 'c'], ['a', 'c', 'd'])).toBe(['  [', '    "a"', '-   "b"', '    "c"', '+   "d"', '  ]'].join('\n'));
  });

  it('different types are a whole replacement', () => {
    expect(diff({ v: [1] }, { v: 'x' })).toBe(['  {', '-   "v": [1]', '+   "v": "x"', '  }'].join('\n'));
    expect(diff(1, 2)).toBe('- 1\n+ 2');
  });

  it('paints removed and added lines when asked', () => {
    const out = renderDiff(diffJson({ a: 1 }, { a: 2 }), { removed: (s) => `<${s}>`, added: (s) => `[${s}]` });
    expect(out).toContain('<-   "a": 1>');
    expect(out).toContain('[+   "a": 2]');
  });
});
