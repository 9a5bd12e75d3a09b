// Finds secrets in text and replaces them, leaving every other byte as it was.
import { blankEscapes, rejectedByFilters, SECRET_RULES, type SecretRule } from './rules.js';
// Types only: the engine stays free of zod so that a caller such as the audit log can import it
// without paying for the schema library (zod alone is ~75 ms of start-up on Node 20 here).
import type { RedactSecretsOptionsInput } from './options.js';

const DEFAULT_MARKER = '[REDACTED:{rule}]';

export interface Finding {
  rule: string;
  /** Offsets of the replaced text in the original string (UTF-16 units, as `String#slice`). */
  start: number;
  end: number;
}

export interface RedactTextResult {
  text: string;
  findings: Finding[];
}

export interface Redactor {
  text(text: string): RedactTextResult;
  /** Deep copy-on-write: the same reference back when nothing changed. */
  value<T>(value: T): ValueResult<T>;
}

export interface ValueResult<T> {
  value: T;
  findings: Finding[];
  /** How deep objects and arrays nest in the input (0 for a scalar). */
  depth: number;
}

/** Redacts every secret in `text`. */
export function redactText(text: string, options?: RedactSecretsOptionsInput): RedactTextResult {
  return redactorFor(options).text(text);
}

/** Redacts every string inside `value` (objects and arrays keep their shape); unchanged input comes back as is. */
export function redactValue<T>(value: T, options?: RedactSecretsOptionsInput): T {
  return redactorFor(options).value(value).value;
}

/** Compiles the rules once for a set of options: the guard builds one per run. */
export function createRedactor(options?: RedactSecretsOptionsInput): Redactor {
  const enabled: Partial<Record<string, boolean>> = options?.rules ?? {};
  const rules: SecretRule[] = SECRET_RULES.filter((rule) => enabled[rule.id] !== false);
  // Extra rules are the user's own: no placeholder filter second-guesses them.
  const builtIn = rules.length;
  for (const extra of options?.extra ?? []) {
    // An invalid pattern throws here; config entries were already checked by the options schema.
    const pattern = new RegExp(extra.pattern, 'gd' + (extra.flags ?? ''));
    rules.push({ id: extra.name, keywords: [], pattern });
  }
  const scanner = _keywordScanner(rules);
  const marker = options?.marker ?? DEFAULT_MARKER;
  const markerFor = (rule: string): string => marker.split('{rule}').join(rule);

  // A value some rule judged secret is redacted wherever it appears in the same output, in every
  // form it can take there (as is, JSON-escaped, percent-encoded), not only where the rule saw it:
  // `API_TOKEN=abc…` is found by its label, and the same value two lines down in a JSON body has
  // none. `known` carries the values found in the other strings of a structured output.
  const text = (input: string, known?: ReadonlyMap<string, string>): RedactTextResult => {
    let spans: Finding[] = _chooseSpans(_collect(input, rules, builtIn, scanner));
    if (spans.length > 0 || (known !== undefined && known.size > 0)) {
      let secrets = known ?? new Map<string, string>();
      for (const span of spans) {
        const secret = input.slice(span.start, span.end);
        if (secrets.has(secret)) continue;
        if (secrets === known) secrets = new Map(known);
        (secrets as Map<string, string>).set(secret, span.rule);
      }
      spans = _everywhere(input, spans, secrets);
    }
    if (spans.length === 0) return { text: input, findings: [] };
    let out = '';
    let at = 0;
    for (const span of spans) {
      out += input.slice(at, span.start) + markerFor(span.rule);
      at = span.end;
    }
    return { text: out + input.slice(at), findings: spans.map(({ rule, start, end }) => ({ rule, start, end })) };
  };

  /** The secret values the rules find in `input`, each with the rule that found it. */
  const secretsIn = (input: string, into: Map<string, string>): void => {
    for (const span of _chooseSpans(_collect(input, rules, builtIn, scanner))) {
      const secret = input.slice(span.start, span.end);
      if (!into.has(secret)) into.set(secret, span.rule);
    }
  };

  // Two passes over a structured output: the first gathers every secret value in any string (or
  // key), the second redacts each string with all of them, so a token found by its label in one
  // field is redacted in every other field too. Output with no secret is walked once.
  const value = <T>(root: T): ValueResult<T> => {
    const known = new Map<string, string>();
    const gathered = walk(root, (node) => {
      secretsIn(node, known);
      return node;
    });
    if (known.size === 0) return { value: root, findings: [], depth: gathered.depth };
    const findings: Finding[] = [];
    return { ...walk(root, (node) => {
      const result = text(node, known);
      for (const finding of result.findings) findings.push(finding);
      return result.findings.length === 0 ? node : result.text;
    }), findings };
  };

  // An explicit stack, not recursion: tool output nested 100,000 levels deep is walked like any
  // other, so a secret beside it is still found (a recursive walk overflowed at ~3,000 levels and the
  // secret went through unredacted).
  const walk = <T>(root: T, onString: (node: string) => string): { value: T; depth: number } => {
    if (typeof root === 'string') return { value: onString(root) as T, depth: 0 };
    if (root === null || typeof root !== 'object') return { value: root, depth: 0 };

    interface Frame {
      node: Record<string, unknown> | unknown[];
      keys: string[] | undefined;
      at: number;
      copy: Record<string, unknown> | unknown[] | undefined;
    }
    // Finished nodes map to their result; a node still on the stack maps to itself (a cycle is kept as is).
    const done = new Map<object, unknown>();
    const open = (node: object): Frame | undefined => {
      if (Array.isArray(node)) return { node, keys: undefined, at: 0, copy: undefined };
      if (_isPlainObject(node)) return { node, keys: Object.keys(node), at: 0, copy: undefined };
      return undefined;
    };
    const set = (frame: Frame, key: string | number, next: unknown): void => {
      if (frame.copy === undefined) frame.copy = Array.isArray(frame.node) ? frame.node.slice() : { ...frame.node };
      // defineProperty, not assignment: a `__proto__` key (JSON.parse makes it an own property) would
      // otherwise set the copy's prototype and leave the unredacted string in place.
      Object.defineProperty(frame.copy, key, { value: next, writable: true, enumerable: true, configurable: true });
    };
    const first = open(root);
    if (first === undefined) return { value: root, depth: 0 };
    const stack: Frame[] = [first];
    done.set(root, root);
    let depth = 1;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const length = frame.keys === undefined ? (frame.node as unknown[]).length : frame.keys.length;
      if (frame.at < length) {
        const key = frame.keys === undefined ? frame.at : frame.keys[frame.at]!;
        frame.at++;
        const child = (frame.node as Record<string | number, unknown>)[key];
        if (typeof child === 'string') {
          const next = onString(child);
          if (next !== child) set(frame, key, next);
        } else if (child !== null && typeof child === 'object') {
          if (done.has(child)) {
            const next = done.get(child);
            if (next !== child) set(frame, key, next);
          } else {
            const inner = open(child);
            if (inner !== undefined) {
              done.set(child, child);
              stack.push(inner);
              if (stack.length > depth) depth = stack.length;
            }
          }
        }
        continue;
      }
      stack.pop();
      let result = frame.copy ?? frame.node;
      // A secret can be a key too (`{"ghp_…": 1}`): such keys are renamed, keeping their order.
      if (frame.keys !== undefined) {
        const renamed = frame.keys.map((key) => onString(key));
        if (renamed.some((key, i) => key !== frame.keys![i])) {
          const source = result as Record<string, unknown>;
          const copy: Record<string, unknown> = {};
          for (const [i, key] of frame.keys.entries()) {
            let name = renamed[i]!;
            for (let n = 2; Object.hasOwn(copy, name); n++) name = `${renamed[i]} #${n}`;
            Object.defineProperty(copy, name, { value: source[key], writable: true, enumerable: true, configurable: true });
          }
          result = copy;
        }
      }
      done.set(frame.node, result);
      const parent = stack[stack.length - 1];
      if (parent !== undefined && result !== frame.node) {
        const key = parent.keys === undefined ? parent.at - 1 : parent.keys[parent.at - 1]!;
        set(parent, key, result);
      }
    }
    return { value: done.get(root) as T, depth };
  };

  return { text, value };
}

// --- internal ---

interface Span extends Finding {
  order: number;
  generic: boolean;
}

const defaultCache = new WeakMap<object, Redactor>();
let defaultRedactor: Redactor | undefined;

function redactorFor(options: RedactSecretsOptionsInput | undefined): Redactor {
  if (options === undefined) return (defaultRedactor ??= createRedactor());
  let redactor = defaultCache.get(options);
  if (!redactor) defaultCache.set(options, (redactor = createRedactor(options)));
  return redactor;
}

/**
 * Which keywords occur in a text, in one regex pass (a separate `includes` per keyword cost ~0.7 ms
 * per keyword per MB: over 100 ms on a 1 MB output). The scan tests every position for the longest
 * keyword starting there; keywords inside a found one count as found too.
 */
interface KeywordScanner {
  found(text: string): Set<string>;
}

function _keywordScanner(rules: readonly SecretRule[]): KeywordScanner {
  const exact = new Set<string>();
  const folded = new Set<string>();
  for (const rule of rules) for (const keyword of rule.keywords) (rule.keywordsIgnoreCase ? folded : exact).add(rule.keywordsIgnoreCase ? keyword.toLowerCase() : keyword);
  const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const alternation = (words: Set<string>): string => [...words].sort((a, b) => b.length - a.length).map(escape).join('|');
  const scanners: [RegExp, boolean][] = [];
  // A plain alternation, restarted one character after each match: the same positions a lookahead
  // scan would test, at a fraction of the cost (V8 skips ahead between literal matches).
  if (exact.size > 0) scanners.push([new RegExp(alternation(exact), 'g'), false]);
  if (folded.size > 0) scanners.push([new RegExp(alternation(folded), 'gi'), true]);
  const all = [...new Set([...exact, ...folded])].map((word) => [word, word.toLowerCase()] as const);
  const inside = new Map<string, string[]>();
  for (const [word, lower] of all) {
    const within = all.filter(([other, otherLower]) => other !== word && lower.includes(otherLower)).map(([other]) => other);
    if (within.length > 0) inside.set(word, within);
  }
  return {
    found(text) {
      const found = new Set<string>();
      for (const [scanner, fold] of scanners) {
        scanner.lastIndex = 0;
        for (let match = scanner.exec(text); match !== null; match = scanner.exec(text)) {
          scanner.lastIndex = match.index + 1;
          const word = fold ? match[0].toLowerCase() : match[0];
          if (found.has(word)) continue;
          found.add(word);
          for (const other of inside.get(word) ?? []) found.add(other);
        }
      }
      return found;
    },
  };
}

function _collect(input: string, rules: readonly SecretRule[], builtIn: number, scanner: KeywordScanner): Span[] {
  const spans: Span[] = [];
  const blanked = blankEscapes(input);
  let found: Set<string> | undefined;
  rules.forEach((rule, order) => {
    // Built-in rules read the copy with escapes and colour codes blanked out (same offsets); the
    // user's extra rules and the `raw` ones read the text as it is.
    const subject = order < builtIn && !rule.raw ? blanked : input;
    if (rule.keywords.length > 0) {
      found ??= scanner.found(blanked);
      const present = rule.keywordsIgnoreCase
        ? rule.keywords.some((keyword) => found!.has(keyword.toLowerCase()))
        : rule.keywords.some((keyword) => found!.has(keyword));
      if (!present) return;
    }
    const pattern = rule.pattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(subject); match !== null; match = pattern.exec(subject)) {
      if (match[0] === '') {
        pattern.lastIndex++;
        continue;
      }
      const range = _secretRange(match, rule);
      if (!range || range[1] <= range[0]) continue;
      if (order < builtIn && rejectedByFilters(rule, input.slice(range[0], range[1]))) continue;
      spans.push({ rule: rule.id, start: range[0], end: range[1], order, generic: rule.generic === true });
    }
  });
  return spans;
}

/** Values shorter than this are not looked for elsewhere: too likely to occur by chance. */
const MIN_ECHO = 4;
const echoCache = new WeakMap<ReadonlyMap<string, string>, { pattern: RegExp; rules: Map<string, string> } | null>();

/**
 * Every form a secret value can take in the same output: as is, inside a JSON string (escaped), and
 * percent-encoded (a query string). One alternation, longest first, for all values (one scan).
 */
function _echoMatcher(secrets: ReadonlyMap<string, string>): { pattern: RegExp; rules: Map<string, string> } | null {
  const cached = echoCache.get(secrets);
  if (cached !== undefined) return cached;
  const rules = new Map<string, string>();
  for (const [secret, rule] of secrets) {
    if (secret.length < MIN_ECHO) continue;
    for (const form of [secret, JSON.stringify(secret).slice(1, -1), JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1), _percentEncoded(secret)]) {
      if (!rules.has(form)) rules.set(form, rule);
    }
  }
  const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const matcher = rules.size === 0 ? null : { pattern: new RegExp([...rules.keys()].sort((a, b) => b.length - a.length).map(escape).join('|'), 'g'), rules };
  echoCache.set(secrets, matcher);
  return matcher;
}

function _percentEncoded(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return secret; // a lone surrogate: no encoded form
  }
}

/**
 * The spans the rules chose plus every other occurrence of a secret value; overlapping spans are
 * merged into one (named by the first), so no occurrence is left whole.
 */
function _everywhere(input: string, spans: Finding[], secrets: ReadonlyMap<string, string>): Finding[] {
  const matcher = _echoMatcher(secrets);
  if (matcher === null) return spans;
  const all: Finding[] = spans.slice();
  const { pattern, rules } = matcher;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(input); match !== null; match = pattern.exec(input)) {
    all.push({ rule: rules.get(match[0])!, start: match.index, end: match.index + match[0].length });
  }
  if (all.length === spans.length) return spans;
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  for (const span of all) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start < last.end) {
      if (span.end > last.end) merged[merged.length - 1] = { ...last, end: span.end };
      continue;
    }
    merged.push({ rule: span.rule, start: span.start, end: span.end });
  }
  return merged;
}

function _secretRange(match: RegExpExecArray, rule: SecretRule): [number, number] | undefined {
  const indices = match.indices;
  if (indices?.groups?.secret) return indices.groups.secret;
  if (rule.group !== undefined) return indices?.[rule.group];
  return [match.index, match.index + match[0].length];
}

/**
 * Non-overlapping spans: the earliest start wins, then the longest, then the earlier rule. Spans of
 * generic rules (a label with any value) only fill the gaps the format rules leave, so
 * `token: ghs_…@github.com` reads `github-token`, not the label's rule with a longer span.
 */
function _chooseSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
  const pick = (candidates: Span[], taken: Span[]): Span[] => {
    const chosen: Span[] = [];
    let end = -1;
    for (const span of candidates) {
      if (span.start < end) continue;
      if (taken.some((t) => span.start < t.end && t.start < span.end)) continue;
      chosen.push(span);
      end = span.end;
    }
    return chosen;
  };
  const specific = pick(spans.filter((s) => !s.generic), []);
  const generic = spans.some((s) => s.generic) ? pick(spans.filter((s) => s.generic), specific) : [];
  return generic.length === 0 ? specific : [...specific, ...generic].sort((a, b) => a.start - b.start);
}

function _isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
