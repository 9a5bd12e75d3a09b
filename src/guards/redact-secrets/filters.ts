// Second looks at a match: is it a documentation placeholder, a reference, or too regular to be a key?
// Every rule's match goes through `isPlaceholder`; the generic rules (a secret-ish name with any
// value) also need `looksSecret`, because their regex alone says nothing about the value.

// Words docs and templates put where a key goes. Matched anywhere in the secret, case-insensitive:
// a random base62 token contains one of them with negligible probability.
const PLACEHOLDER_WORDS =
  /example|x{4}|\*{3}|\.\.\.|\u2026|<[^>]*>|\$\{|\{\{|%[sd]|your[_-]?(?:api|secret|token|key|pass)|placeholder|replace[_-]?me|insert[_-]?|changeme|dummy|redacted|not[_-]?a[_-]?real/i;

const SEQUENCE = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * True for `ghp_xxxx…`, `AKIAIOSFODNN7EXAMPLE`, `<your-token>`, `${TOKEN}`, an all-same-character or
 * sequential body (`aaaa…`, `0123456789abcdef…`). The body is the longest run of letters and digits,
 * so a fixed prefix (`ghp_`, `xoxb-`) never counts against a token.
 */
export function isPlaceholder(secret: string): boolean {
  if (PLACEHOLDER_WORDS.test(secret)) return true;
  const body = longestAlnumRun(secret);
  if (body.length < 8) return false;
  if (new Set(body.toLowerCase()).size <= 3) return true;
  return longestSequence(body.toLowerCase()) * 2 >= body.length;
}

/**
 * For values found only by their name (`API_KEY=…`, `"password": "…"`): a literal that looks
 * generated, not a word, a reference, a path, a number or an identifier.
 */
export function looksSecret(value: string): boolean {
  if (value.length < 8 || value.length > 1000) return false;
  // References and code: `$VAR`, `%VAR%`, `process.env.X`, `os.environ[...]`, `getToken()`, `a.b.c`.
  // Checked before the placeholder filter: on plain logs most label matches are such references.
  if (/^[$%@&!~]|^(?:process\.env|os\.environ|env|secrets|vars|config|settings|self|this)\b|[()]|\?\.|\|\||&&/i.test(value)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  if (isPlaceholder(value)) return false;
  // Paths, URLs (their passwords have their own rule), e-mail addresses, numbers, versions, dates.
  if (/^(?:\.{0,2}\/|~\/|[A-Za-z]:\\|[a-z][a-z0-9+.-]*:\/\/)/i.test(value)) return false;
  if (/^[\w.+-]+@[\w-]+\.[\w.-]+$/.test(value)) return false;
  if (/^[v\d][\d.:_-]*$/i.test(value)) return false;
  // Identifiers and words: `secretValue2`, `refresh_token_expired`, `Bearer`, `string`.
  // A long run of letters alone counts when it is as varied as generated text (random base52 or
  // lower-case keys score > 4 bits per character; words and camelCase names score less).
  if (/^[A-Za-z_-]+\d{0,3}$/.test(value)) {
    const generated = /^[A-Za-z]+$/.test(value) && value.length >= 20 && entropy(value) >= 3.8 && (!/[A-Z]/.test(value.slice(1)) || mixedCaseChanges(value) >= 6);
    if (!generated) return false;
  }
  const hasDigit = /\d/.test(value);
  const hasLetter = /[A-Za-z]/.test(value);
  const hasSymbol = /[^A-Za-z0-9_.-]/.test(value);
  if (!(hasLetter && (hasDigit || hasSymbol)) && !(hasLetter && value.length >= 20)) return false;
  return entropy(value) >= 3;
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** A loop over char codes, not `split`: this runs on every match a rule's filters look at. */
function longestAlnumRun(text: string): string {
  let bestStart = 0;
  let bestLength = 0;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) continue;
    if (i - start > bestLength) {
      bestStart = start;
      bestLength = i - start;
    }
    start = i + 1;
  }
  return text.slice(bestStart, bestStart + bestLength);
}

/** Longest run of characters that each follow the previous one in 0-9a-z (9 → a, z → 0 wrap too). */
function longestSequence(text: string): number {
  let best = 1;
  let run = 1;
  for (let i = 1; i < text.length; i++) {
    const prev = SEQUENCE.indexOf(text[i - 1]!);
    const cur = SEQUENCE.indexOf(text[i]!);
    const step = prev >= 0 && cur >= 0 && (cur === prev + 1 || (prev === 9 && cur === 0) || (prev === 35 && cur === 0));
    run = step ? run + 1 : 1;
    if (run > best) best = run;
  }
  return best;
}

function mixedCaseChanges(text: string): number {
  let changes = 0;
  for (let i = 1; i < text.length; i++) {
    const a = /[A-Z]/.test(text[i - 1]!);
    const b = /[A-Z]/.test(text[i]!);
    if (a !== b) changes++;
  }
  return changes;
}

/** Words docs use for a password in examples (`user:password@`, `-u admin:secret`). */
export function isPasswordWord(value: string): boolean {
  return /^(?:pass(?:word|wd)?|pwd|pw|p|x|secret|changeme|token|admin|root|test|guest|\$[A-Za-z_]\w*|\$\{[^}]*\}|%[A-Z_]+%)$/i.test(value);
}
