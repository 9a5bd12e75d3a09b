// The page's filters, read from a query string the browser sends (untrusted: any bytes a local page
// could put there). Every value is bounded and checked here, once; the store only binds them.

export interface Filters {
  project?: string;
  session?: string;
  agent?: string;
  decision?: string;
  hook?: string;
  /** Only events with an id below this (paging back through history). */
  before?: number;
  /** How many events at most (1..500). */
  limit: number;
}

export const FILTER_KEYS = ['project', 'session', 'agent', 'decision', 'hook'] as const;
export const DECISIONS = ['continue', 'allow', 'ask', 'block', 'modify', 'halt'] as const;
const MAX_VALUE = 1024;
export const MAX_LIMIT = 500;

/** The filters, or one line saying which parameter is wrong. Unknown parameters are refused too. */
export function parseFilters(query: URLSearchParams): Filters | { problem: string } {
  const filters: Filters = { limit: 200 };
  const seen = new Set<string>();
  for (const [key, value] of query) {
    if (seen.has(key)) return { problem: `the parameter "${printable(key)}" is given twice` };
    seen.add(key);
    if (value.length > MAX_VALUE) return { problem: `the parameter "${printable(key)}" is longer than ${MAX_VALUE} characters` };
    if (key === 'limit' || key === 'before') {
      if (!/^[0-9]{1,15}$/.test(value)) return { problem: `the parameter "${key}" must be a whole number` };
      const n = Number(value);
      if (key === 'limit') {
        if (n < 1 || n > MAX_LIMIT) return { problem: `the parameter "limit" must be between 1 and ${MAX_LIMIT}` };
        filters.limit = n;
      } else filters.before = n;
      continue;
    }
    if (!(FILTER_KEYS as readonly string[]).includes(key)) return { problem: `unknown parameter "${printable(key)}"; expected ${FILTER_KEYS.join(', ')}, before or limit` };
    if (value === '') continue;
    if (value.includes('\0')) return { problem: `the parameter "${key}" holds a NUL` };
    if (key === 'decision' && !(DECISIONS as readonly string[]).includes(value)) return { problem: `the parameter "decision" must be one of ${DECISIONS.join(', ')}` };
    filters[key as (typeof FILTER_KEYS)[number]] = value;
  }
  return filters;
}

function printable(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}...` : clean;
}
