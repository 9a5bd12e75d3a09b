// The fast paths of the engine (label rules started at their word, the Buffer-based escape
// blanking and keyword pass), each held to a plain reference on seeded random text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECRET_RULES } from '../../src/guards/redact-secrets.js';
import { blankEscapes, ESCAPES } from '../../src/guards/redact-secrets/rules.js';
import { _keywordIndex } from '../../src/guards/redact-secrets/engine.js';

// The two label rules start their regex at the secret word (speed: see rules.ts). These are their
// earlier forms, which started at the name's first letter; on any text the secrets both find must
// be the same, so the rewrite costs no recall and adds no false positive.
const SECRET_NAME =
  '(?:pass(?:word|wd|phrase)|(?<![A-Za-z])pass|pwd|secret|token|apikey|credentials?|creds|auth|(?<![A-Za-z])pat|' +
  '(?:api|access|auth|private|signing|encryption|master|secret|license|sdk|admin|app|account|service|shared|consumer|' +
  'mobile|server|write|ingest|management|deploy|bot|client|webhook)[_.-]?key|client[_.-]?secret)' +
  '(?:[_.-]?(?:key|value|base|b64|base64|str|string))?';
const ASSIGN = String.raw`\\?["'\x60]?(?:[ \t]*:?[ \t]*(?:string|str|String|&str)(?![\w]))?[ \t]*(?::{1,3}=|\?=|\|\|=|=>|[:=])`;
const REFERENCE: Record<string, RegExp> = {
  'secret-assignment': new RegExp(
    String.raw`${SECRET_NAME}${ASSIGN}[ \t]*(?:\\?["'\x60])?(?<secret>[^\s"'\x60\\,;<>(){}\[\]|&]{8,1000})(?![^\s"'\x60\\,;<>(){}\[\]|&])`,
    'gdi',
  ),
  'service-key-assignment': new RegExp(
    String.raw`(?<![A-Za-z0-9_])(?!(?:cache|primary|foreign|sort|partition|idempotency|public|hash|object|storage|i18n|translation|lookup|unique|composite|shard|routing|message|dedup|etag|row|column|index|map|dict|react|group|item|node|entry|field|hot|short|ssh|gpg|pgp|host|ca|cert|sign)(?:[_.-]|(?=[KTS])))(?<name>[A-Za-z][A-Za-z0-9]{2,30})(?:[_.-]|(?<=[a-z0-9])(?=[KTS]))(?:key|token|secret)\\?["'\x60]?[ \t]*(?::{1,3}=|=>|[:=])[ \t]*(?:\\?["'\x60])?(?<secret>[A-Za-z0-9_.+/~=-]{16,200})(?![^\s"'\x60\\,;<>(){}\[\]|&])`,
    'gdi',
  ),
};

/** The secret spans a pattern finds, as the engine reads them (a `g` scan, the `secret` group). */
function secrets(pattern: RegExp, text: string): string[] {
  const out: string[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const range = match.indices!.groups!.secret!;
    out.push(`${range[0]}-${range[1]}`);
  }
  return out;
}

// Text made of the pieces these regexes care about: names, separators, operators, quotes, values.
const piece = fc.constantFrom(
  'api', 'API', 'access', 'client', 'Client', 'cache', 'sort', 'stripe', 'my', 'db', 'x', 'ssh', 'pass', 'Pass', 'password',
  'PASSWORD', 'passwd', 'passphrase', 'pwd', 'secret', 'Secret', 'token', 'Token', 'TOKEN', 'key', 'Key', 'KEY', 'apikey',
  'cred', 'creds', 'credentials', 'auth', 'pat', 'PAT', 'value', 'b64', 'str', 'string', 'String', '&str', '_', '-', '.', ' ',
  '\t', '\n', '=', ':', ':=', '::=', '=>', '?=', '||=', '"', "'", '`', '\\', ',', '(', ')',
  'hX9kQ2mZ7vR4tL8w', 'Zq81nB5cR7yT3uJ0pL6s', 'a1b2c3d4', 'S3cr3tV4lu3!x', '$TOKEN', 'false', 'sk_live_9aB8cD7eF6gH5iJ4',
);
const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));

describe('redact-secrets anchored label rules', () => {
  for (const [id, reference] of Object.entries(REFERENCE)) {
    const rule = SECRET_RULES.find((r) => r.id === id)!;
    it(`${id}: finds the same secrets as its earlier form`, () => {
      expect(rule).toBeDefined();
      // A fixed case each way first, so the property cannot pass on texts that never match.
      const sample = 'export CLIENT_SECRET="Zq81nB5cR7yT3uJ0pL6s"; stripeKey: hX9kQ2mZ7vR4tL8wa1b2 cache_key=Zq81nB5cR7yT3uJ0pL6s';
      expect(secrets(rule.pattern, sample)).toEqual(secrets(reference, sample));
      expect(secrets(rule.pattern, sample).length).toBeGreaterThan(0);
      fc.assert(
        fc.property(text, (input) => {
          expect(secrets(rule.pattern, input)).toEqual(secrets(reference, input));
        }),
        { seed: 20261127, numRuns: 3000, interruptAfterTimeLimit: 8_000 },
      );
    });
  }
});

// blankEscapes jumps from backslash to backslash in a Buffer; its definition is one `replace` over
// ESCAPES (and DEL for every character outside Latin-1), as it was written before.
describe('redact-secrets blankEscapes', () => {
  const reference = (text: string): string =>
    text.replace(/[^\x00-\xff]/g, '\x7f').replace(new RegExp(ESCAPES.source, 'g'), (escape) => '\\'.repeat(escape.length));
  const part = fc.constantFrom(
    '\\', '\\\\', '\\n', '\\t', '\\r', '\\0', '\\b', '\\v', '\\f', '\\e', '\\x1b', '\\x1B', '\\033', '\\u001b', '\\u001B', '\\u00e9',
    '\\u12', '\x1b', '\x1b[', '[', '31', ';', '?', '1', 'm', 'K', '0', 'u', 'x', 'n', 'a', ' ', '"', '\n', '✓', 'é', '\u{1F600}', 'ghp_',
  );
  it('matches its definition on any mix of escapes, colour codes and wide characters', () => {
    expect(blankEscapes('a\\n\x1b[31mb✓\\u001b[0m')).toBe('a' + '\\'.repeat(2 + 5) + 'b\x7f' + '\\'.repeat(9));
    fc.assert(
      fc.property(fc.oneof(fc.array(part, { maxLength: 60 }).map((p) => p.join('')), fc.string({ unit: 'binary', maxLength: 200 })), (text) => {
        const blanked = blankEscapes(text);
        expect(blanked).toBe(reference(text));
        expect(blanked.length).toBe(text.length);
      }),
      { seed: 20261127, numRuns: 5000, interruptAfterTimeLimit: 8_000 },
    );
  });
});

// The keyword pass reads a Latin-1 Buffer through a pair table and a third-character filter; it
// must find every occurrence a plain search finds (case folded for the `keywordsIgnoreCase` rules).
describe('redact-secrets keyword index', () => {
  const index = _keywordIndex(SECRET_RULES);
  const reference = (text: string): Map<string, number[]> => {
    const out = new Map<string, number[]>();
    const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
    for (const rule of SECRET_RULES) {
      for (const keyword of rule.keywords) {
        const key = rule.keywordsIgnoreCase ? 'i:' + keyword.toLowerCase() : 'c:' + keyword;
        const hay = rule.keywordsIgnoreCase ? lower : text;
        const word = rule.keywordsIgnoreCase ? keyword.toLowerCase() : keyword;
        if (out.has(key)) continue;
        const hits: number[] = [];
        for (let at = hay.indexOf(word); at >= 0; at = hay.indexOf(word, at + 1)) hits.push(at);
        if (hits.length > 0) out.set(key, hits);
      }
    }
    return out;
  };
  const sorted = (map: Map<string, number[]>) => [...map].sort(([a], [b]) => (a < b ? -1 : 1));
  const keywords = [...new Set(SECRET_RULES.flatMap((rule) => rule.keywords))];
  const part = fc.oneof(
    fc.constantFrom(...keywords),
    fc.constantFrom(...keywords).map((k) => k.toUpperCase()),
    fc.constantFrom(...keywords).map((k) => k.slice(0, -1)),
    fc.string({ unit: 'binary-ascii', maxLength: 6 }),
  );
  it('finds every occurrence a plain search finds, at the text edges too', () => {
    expect(sorted(index.find('ghp_ PASSWORD=x sk-SK'))).toEqual(sorted(reference('ghp_ PASSWORD=x sk-SK')));
    expect(index.find('xSK').get('c:SK')).toEqual([1]);
    // The pass reads two bytes per step: every keyword at an even and an odd offset, at both
    // ends of the text, from a Buffer at an odd byte offset too (its 16-bit view needs a copy).
    for (const keyword of keywords) {
      for (const text of [keyword, 'x' + keyword, 'xy' + keyword + 'z', ' ' + keyword.toUpperCase() + '  ']) {
        expect(sorted(index.find(text)), JSON.stringify(text)).toEqual(sorted(reference(text)));
        const odd = Buffer.from('_' + text, 'latin1').subarray(1);
        expect(sorted(index.findBytes(Buffer.from(odd))), JSON.stringify(text)).toEqual(sorted(reference(text)));
        if (odd.byteOffset % 2 === 1) expect(sorted(index.findBytes(odd))).toEqual(sorted(reference(text)));
      }
    }
    fc.assert(
      fc.property(fc.array(part, { maxLength: 30 }).map((p) => p.join('')), (text) => {
        expect(sorted(index.find(text))).toEqual(sorted(reference(text)));
      }),
      { seed: 20261127, numRuns: 2000, interruptAfterTimeLimit: 8_000 },
    );
  });
});

// Rules marked `startsAtKeyword` are tried only at their keywords' hits: every match a scan of the
// whole text finds must start at one.
describe('redact-secrets rules that start at a keyword', () => {
  const marked = SECRET_RULES.filter((rule) => rule.startsAtKeyword === true);
  // Pieces of the two token rules tried at their hits (Vault's `s.…`, Asana's `2/…:…`) beside the labels'.
  const tokenPiece = fc.constantFrom(
    's.', 'b.', 'r.', 'hvs.', 'hvr.', 'is.', '2/', '1/', '/', ':', '.', '_', '-', ' ', 'x', '1204567891234567', '12045678',
    'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'Ab3dE5fG7hJ9kL1mN3pQ5rS7', 'Zq81nB5cR7yT3uJ0pL6s',
    '2/1204567891234567:a1b2c3d4e5f60718293a4b5c6d7e8f90', '1/1204567891234567/12045678912:', 's.Ab3dE5fG7hJ9kL1mN3pQ5rS7',
  );
  const mixed = fc.oneof(text, fc.array(tokenPiece, { maxLength: 40 }).map((parts) => parts.join('')));
  it('has the label rules marked, and each of their matches starts at a keyword', () => {
    expect(marked.map((rule) => rule.id).sort()).toEqual(['asana-token', 'hashicorp-vault-token', 'secret-assignment', 'service-key-assignment']);
    for (const rule of marked) {
      const startsAtKeyword = (text: string, at: number): boolean =>
        rule.keywords.some((k) => (rule.keywordsIgnoreCase ? text.slice(at, at + k.length).toLowerCase() === k.toLowerCase() : text.startsWith(k, at)));
      let matched = 0;
      fc.assert(
        fc.property(mixed, (input) => {
          const pattern = new RegExp(rule.pattern.source, rule.pattern.flags);
          for (let match = pattern.exec(input); match !== null; match = pattern.exec(input)) {
            matched++;
            expect(startsAtKeyword(input, match.index), `${rule.id} at ${match.index} in ${JSON.stringify(input)}`).toBe(true);
          }
        }),
        { seed: 20261127, numRuns: 3000, interruptAfterTimeLimit: 8_000 },
      );
      expect(matched, rule.id).toBeGreaterThan(0);
    }
  });
});
