// Finds secrets in text and replaces them, leaving every other byte as it was.
import { SECRET_RULES, type SecretRule } from './rules.js';
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
  value<T>(value: T): { value: T; findings: Finding[] };
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
  for (const extra of options?.extra ?? []) {
    // An invalid pattern throws here; config entries were already checked by the options schema.
    const pattern = new RegExp(extra.pattern, 'gd' + (extra.flags ?? ''));
    rules.push({ id: extra.name, keywords: [], pattern });
  }
  const marker = options?.marker ?? DEFAULT_MARKER;
  const markerFor = (rule: string): string => marker.split('{rule}').join(rule);

  const text = (input: string): RedactTextResult => {
    const spans = _chooseSpans(_collect(input, rules));
    if (spans.length === 0) return { text: input, findings: [] };
    let out = '';
    let at = 0;
    for (const span of spans) {
      out += input.slice(at, span.start) + markerFor(span.rule);
      at = span.end;
    }
    return { text: out + input.slice(at), findings: spans.map(({ rule, start, end }) => ({ rule, start, end })) };
  };

  const value = <T>(root: T): { value: T; findings: Finding[] } => {
    const findings: Finding[] = [];
    const seen = new Map<object, unknown>();
    const walk = (node: unknown): unknown => {
      if (typeof node === 'string') {
        const result = text(node);
        findings.push(...result.findings);
        return result.findings.length === 0 ? node : result.text;
      }
      if (node === null || typeof node !== 'object') return node;
      if (seen.has(node)) return seen.get(node);
      seen.set(node, node);
      let copy: unknown[] | Record<string, unknown> | undefined;
      if (Array.isArray(node)) {
        let items: unknown[] | undefined;
        node.forEach((item: unknown, i) => {
          const next = walk(item);
          if (next !== item) (items ??= node.slice())[i] = next;
        });
        copy = items;
      } else if (_isPlainObject(node)) {
        let fields: Record<string, unknown> | undefined;
        for (const [key, item] of Object.entries(node)) {
          const next = walk(item);
          if (next !== item) (fields ??= { ...node })[key] = next;
        }
        copy = fields;
      }
      if (copy !== undefined) seen.set(node, copy);
      return copy ?? node;
    };
    return { value: walk(root) as T, findings };
  };

  return { text, value };
}

// --- internal ---

interface Span extends Finding {
  order: number;
}

const defaultCache = new WeakMap<object, Redactor>();
let defaultRedactor: Redactor | undefined;

function redactorFor(options: RedactSecretsOptionsInput | undefined): Redactor {
  if (options === undefined) return (defaultRedactor ??= createRedactor());
  let redactor = defaultCache.get(options);
  if (!redactor) defaultCache.set(options, (redactor = createRedactor(options)));
  return redactor;
}

function _collect(input: string, rules: readonly SecretRule[]): Span[] {
  const spans: Span[] = [];
  let lower: string | undefined;
  rules.forEach((rule, order) => {
    if (rule.keywords.length > 0) {
      const haystack = rule.keywordsIgnoreCase ? (lower ??= input.toLowerCase()) : input;
      if (!rule.keywords.some((keyword) => haystack.includes(keyword))) return;
    }
    const pattern = rule.pattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(input); match !== null; match = pattern.exec(input)) {
      if (match[0] === '') {
        pattern.lastIndex++;
        continue;
      }
      const range = _secretRange(match, rule);
      if (range && range[1] > range[0]) spans.push({ rule: rule.id, start: range[0], end: range[1], order });
    }
  });
  return spans;
}

function _secretRange(match: RegExpExecArray, rule: SecretRule): [number, number] | undefined {
  const indices = match.indices;
  if (indices?.groups?.secret) return indices.groups.secret;
  if (rule.group !== undefined) return indices?.[rule.group];
  return [match.index, match.index + match[0].length];
}

/** Non-overlapping spans: the earliest start wins, then the longest, then the earlier rule. */
function _chooseSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
  const chosen: Span[] = [];
  let end = -1;
  for (const span of spans) {
    if (span.start < end) continue;
    chosen.push(span);
    end = span.end;
  }
  return chosen;
}

function _isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
