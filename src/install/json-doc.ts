// Reading and writing an agent's JSON settings: strict parsing that names the file, and output in the
// file's own indentation so that an unchanged key stays byte for byte what it was.
import { HooksError } from '../errors.js';
import { isRecord } from '../json.js';

export type JsonObject = Record<string, unknown>;

/** The file's text as a JSON object (no file, or only whitespace: an empty one); never guesses at broken JSON. */
export function parseSettings(text: string | undefined, file: string): JsonObject {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HooksError(
      'CONFIG_INVALID',
      `${file}: not valid JSON (${(error as Error).message.split('\n')[0]}); fix it first, agent-hooks will not overwrite it`,
      { file },
    );
  }
  if (!isRecord(value)) throw new HooksError('CONFIG_INVALID', `${file}: expected a JSON object at the top level`, { file });
  // The same value again, this time remembering each object's and array's source text, so that what
  // we do not change is written back as it was (a compact entry stays compact).
  try {
    return new SpanParser(text).document() as JsonObject;
  } catch (error) {
    if (error instanceof HooksError) throw new HooksError('CONFIG_INVALID', `${file}: ${error.message}; agent-hooks will not change it`, { file });
    throw error;
  }
}

/** The document as text, indented like `before` (two spaces for a new file), with a final newline. */
export function formatSettings(doc: JsonObject, before: string | undefined): string {
  const indent = (before === undefined ? undefined : /^([ \t]+)\S/m.exec(before)?.[1]) ?? '  ';
  return `${serialize(doc, indent, '')}\n`;
}

/** Each parsed object's and array's exact source text. Values we build anew are not in it. */
const SOURCE = new WeakMap<object, string>();

/** Nesting deeper than this in a settings file is refused (the parser recurses; no agent writes it). */
const MAX_DEPTH = 500;

function serialize(value: unknown, indent: string, at: string): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const kept = SOURCE.get(value);
  if (kept !== undefined) return kept;
  const inner = at + indent;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + serialize(v, indent, inner)).join(',\n')}\n${at}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${serialize(v, indent, inner)}`).join(',\n')}\n${at}}`;
}

const LITERAL = /true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** A JSON parser (for text JSON.parse accepted) that records the source text of every container. */
class SpanParser {
  private at = 0;
  constructor(private readonly text: string) {}

  document(): unknown {
    this.space();
    const value = this.value(0);
    return value;
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new HooksError('CONFIG_INVALID', `nested deeper than ${MAX_DEPTH} levels`);
    const start = this.at;
    const c = this.text[this.at];
    if (c === '{') {
      const obj: Record<string, unknown> = {};
      this.at++;
      this.space();
      if (this.text[this.at] === '}') this.at++;
      else {
        for (;;) {
          this.space();
          const key = this.string();
          this.space();
          this.at++; // ':'
          this.space();
          // Like JSON.parse: "__proto__" is an own key, never the prototype.
          Object.defineProperty(obj, key, { value: this.value(depth + 1), enumerable: true, writable: true, configurable: true });
          this.space();
          if (this.text[this.at++] === '}') break;
        }
      }
      SOURCE.set(obj, this.text.slice(start, this.at));
      return obj;
    }
    if (c === '[') {
      const list: unknown[] = [];
      this.at++;
      this.space();
      if (this.text[this.at] === ']') this.at++;
      else {
        for (;;) {
          this.space();
          list.push(this.value(depth + 1));
          this.space();
          if (this.text[this.at++] === ']') break;
        }
      }
      SOURCE.set(list, this.text.slice(start, this.at));
      return list;
    }
    if (c === '"') return this.string();
    LITERAL.lastIndex = this.at;
    const token = LITERAL.exec(this.text)![0];
    this.at += token.length;
    return JSON.parse(token) as unknown;
  }

  private string(): string {
    const start = this.at;
    this.at++;
    while (this.text[this.at] !== '"') this.at += this.text[this.at] === '\\' ? 2 : 1;
    this.at++;
    return JSON.parse(this.text.slice(start, this.at)) as string;
  }

  private space(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at]!)) this.at++;
  }
}

/** True when both documents serialize the same, key order included. */
export function sameDoc(a: JsonObject, b: JsonObject): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}


/** `doc.hooks`, checked: absent is fine, anything but an object is an error naming the key. */
export function hooksTable(doc: JsonObject, file: string): JsonObject | undefined {
  const hooks = doc.hooks;
  if (hooks === undefined) return undefined;
  if (!isRecord(hooks)) throw new HooksError('CONFIG_INVALID', `${file}: "hooks" is not an object; agent-hooks will not change it`, { file, path: 'hooks' });
  return hooks;
}

/** `hooks[event]`, checked: absent is fine, anything but an array is an error naming the key. */
export function eventList(hooks: JsonObject, event: string, file: string): unknown[] | undefined {
  const list = hooks[event];
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) {
    throw new HooksError('CONFIG_INVALID', `${file}: hooks.${event} is not an array; agent-hooks will not change it`, { file, path: `hooks.${event}` });
  }
  return list;
}

/**
 * The list with our entry: the first entry of ours is replaced in place (so it keeps its position
 * among the user's), further copies of ours are dropped, and with none it is appended.
 */
export function upsert(list: readonly unknown[], isOurs: (entry: unknown) => boolean, desired: unknown): unknown[] {
  const at = list.findIndex(isOurs);
  if (at === -1) return [...list, desired];
  return list.flatMap((entry, i) => (i === at ? [desired] : isOurs(entry) ? [] : [entry]));
}
