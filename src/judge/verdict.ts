// Reads a judge model's answer as Claude Code 2.1.332 reads a prompt hook's (checked in its bundle): the
// text, trimmed, with one surrounding Markdown code fence removed, must be one JSON object whose `ok` is
// a boolean; `reason` a string and `impossible` a boolean when present. Anything else (prose, a refusal,
// two objects, prose around the object) is a bad reply: never an allow. Pure and total: it never throws.

export interface Verdict {
  ok: boolean;
  reason?: string;
  /** The model says the condition can never hold (Claude Code ends a Stop loop on it). */
  impossible?: boolean;
}

export type VerdictReading = { ok: true; verdict: Verdict } | { ok: false; problem: string };

/** Characters of the answer quoted in a problem. */
const QUOTE = 120;

export function readVerdict(answer: string): VerdictReading {
  const text = unfence(answer);
  if (text === '') return bad('the model answered nothing');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return bad(`the model's answer is not one JSON object: ${quote(text)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad(`the model's answer is JSON but not an object: ${quote(text)}`);
  const fields = value as Record<string, unknown>;
  if (typeof fields.ok !== 'boolean') return bad(`the model's answer has no boolean "ok": ${quote(text)}`);
  // JSON.parse keeps the last of two "ok" keys: `{"ok": false, ..., "ok": true}` would read as an allow.
  if (topLevelKeys(text).filter((key) => key === 'ok').length > 1) return bad(`the model's answer has more than one "ok": ${quote(text)}`);
  if (fields.reason !== undefined && typeof fields.reason !== 'string') return bad(`the model's "reason" is not a string: ${quote(text)}`);
  if (fields.impossible !== undefined && typeof fields.impossible !== 'boolean') return bad(`the model's "impossible" is not a boolean: ${quote(text)}`);
  return {
    ok: true,
    verdict: {
      ok: fields.ok,
      ...(typeof fields.reason === 'string' ? { reason: fields.reason } : {}),
      ...(fields.impossible === true ? { impossible: true } : {}),
    },
  };
}

// --- internal ---

function unfence(answer: string): string {
  return answer.trim().replace(/^```[a-zA-Z]*\s*/, '').replace(/\s*```$/, '').trim();
}

/** The keys of a JSON object's own top level, duplicates kept; `text` is known to parse as an object. */
function topLevelKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      // A string at depth 1 followed by a colon is a key of the object itself.
      let next = end + 1;
      while (next < text.length && ' \t\n\r'.includes(text[next]!)) next++;
      if (depth === 1 && text[next] === ':') keys.push(JSON.parse(text.slice(i, end + 1)) as string);
      i = end;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return keys;
}

function bad(problem: string): VerdictReading {
  return { ok: false, problem };
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return JSON.stringify(line.length > QUOTE ? `${line.slice(0, QUOTE)}…` : line);
}
