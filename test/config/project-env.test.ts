// dotenvValue: a project `.env` read as dotenv (and Gemini CLI) reads it, to tell a planted variable from the
// user's own (test/judge/project-env.test.ts and test/cli/planted-env.test.ts hold what each refuses).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dotenvValue } from '../../src/config/project-env.js';

describe('dotenvValue', () => {
  it('reads the forms dotenv reads: export, quotes, comments, the last assignment', () => {
    expect(dotenvValue('A=1\nexport B="two words"\nC=3 # note\nB=\'last\'\n', 'B')).toBe('last');
    expect(dotenvValue('C=3 # note', 'C')).toBe('3');
    expect(dotenvValue('AB=1', 'A')).toBeUndefined();
    expect(dotenvValue(undefined, 'A')).toBeUndefined();
    // As dotenv 16: a # ends an unquoted value, a comment may follow a quoted one, `KEY: value`, \n in "".
    expect(dotenvValue('U=http://x/#frag', 'U')).toBe('http://x/');
    expect(dotenvValue('U="http://x/" # c', 'U')).toBe('http://x/');
    expect(dotenvValue('U: http://x/', 'U')).toBe('http://x/');
    expect(dotenvValue('U="a\\nb"', 'U')).toBe('a\nb');
    expect(dotenvValue('-:\nU=http://x/', 'U')).toBeUndefined();
  });

  it('property: never throws, and finds a value it was given', () => {
    const value = fc.stringMatching(/^[A-Za-z0-9:/._-]{1,40}$/);
    fc.assert(
      // Noise without quotes or ':': in dotenv a quote opened on one line, or a `KEY:` at a line's end, takes in
      // the next line (then the value is not the file's for Gemini CLI either; the example cases pin that reading).
      fc.property(fc.stringMatching(/^[^'"`:]{0,300}$/), value, fc.constantFrom('', 'export ', '  '), fc.constantFrom('', '"', "'"), (noise, v, prefix, quote) => {
        dotenvValue(noise, 'ANTHROPIC_BASE_URL');
        expect(dotenvValue(`${noise}\n${prefix}ANTHROPIC_BASE_URL=${quote}${v}${quote}\n`, 'ANTHROPIC_BASE_URL')).toBe(v);
      }),
      { seed: 25, numRuns: 300, interruptAfterTimeLimit: 4000 },
    );
  });
});
