// RFC 8785 (JCS): the RFC's own test vectors (its section 3.2.2 example, the section 3.2.3 sorting
// example, Appendix B's numbers), and properties over arbitrary JSON: the text parses back to the same
// value, key order never matters, and canonicalizing twice changes nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize, CanonicalizationError } from '../../src/guards/schema-pin/jcs.js';

const PROPS = { seed: 8785, numRuns: 300, interruptAfterTimeLimit: 4000 };

/** An IEEE 754 double from its 16 hex digits, as Appendix B writes them. */
function double(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe('RFC 8785 test vectors', () => {
  it('section 3.2.2: the example with numbers, escapes and literals', () => {
    const input = JSON.parse(String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`);
    expect(canonicalize(input)).toBe(String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`);
  });

  it('section 3.2.3: members sorted by UTF-16 code units', () => {
    const input = JSON.parse(String.raw`{
      "\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis"
    }`);
    // (Object.keys would put "1" first: integer-like names come first in a JS object, so read the text.)
    expect(canonicalize(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('Appendix B: %s → %s', (hex, text) => {
    expect(canonicalize(double(hex))).toBe(text);
  });

  it.each([['7fffffffffffffff'], ['7ff0000000000000'], ['fff0000000000000']])('Appendix B: %s (NaN / Infinity) is refused', (hex) => {
    expect(() => canonicalize(double(hex))).toThrow(CanonicalizationError);
  });
});

describe('what is not I-JSON is refused, with the place named', () => {
  it.each([
    [{ a: '\ud800' }, /\$\.a: a string with a lone surrogate/],
    [{ ['\udc00']: 1 }, /member name/],
    [{ a: [1, undefined] }, /\$\.a\[1\]: a undefined is not a JSON value/],
    [{ a: new Date(0) }, /\$\.a: not a plain JSON object/],
    [{ a: 1n }, /a bigint is not a JSON value/],
  ])('%o', (value, message) => {
    expect(() => canonicalize(value)).toThrow(message);
  });

  it('an over-deep value is an error, not a stack overflow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1200; i++) deep = [deep];
    expect(() => canonicalize(deep)).toThrow(/nests deeper than 1000 levels/);
  });
});

describe('properties', () => {
  const json = fc.jsonValue({ maxDepth: 4 });

  it('the canonical text parses back to the same value (-0 reads as 0)', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(JSON.parse(canonicalize(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      PROPS,
    );
  });

  it('canonicalizing the canonical form again changes nothing', () => {
    fc.assert(
      fc.property(json, (value) => {
        const once = canonicalize(value);
        expect(canonicalize(JSON.parse(once))).toBe(once);
      }),
      PROPS,
    );
  });

  it('member order and whitespace never change the text', () => {
    const reversed = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(reversed) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)])) : v;
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalize(JSON.parse(JSON.stringify(reversed(value), null, 2)))).toBe(canonicalize(value));
      }),
      PROPS,
    );
  });

  it('every double is written as ECMAScript writes it, and reads back exactly', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = canonicalize(n);
        expect(Number(text)).toBe(Object.is(n, -0) ? 0 : n);
        expect(text).toBe(Object.is(n, -0) ? '0' : String(n));
      }),
      PROPS,
    );
  });

  it('strings: no raw control characters, and they round-trip', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const text = canonicalize(s);
        expect(/[\u0000-\u001f]/.test(text)).toBe(false);
        expect(JSON.parse(text)).toBe(s);
      }),
      PROPS,
    );
  });
});
