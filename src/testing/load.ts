// Finds and reads test case files (JSON or YAML): one case, a list, or `{ "cases": [...] }`.
// Every error names the case file and the key path, as config errors do.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { readDataFile } from '../config/load.js';
import { detectDialect, getDialect } from '../dialects/index.js';
import { isRecord } from '../json.js';
import { HooksError, isHooksError } from '../errors.js';
import { findEvent } from '../events/catalog.js';
import { sampleEvent } from '../events/samples.js';
import type { HookEvent } from '../types.js';
import { didYouMean } from '../suggest.js';
import { unknownInputField } from './fields.js';
import {
  CaseFileSchema,
  CaseSchema,
  ExpectationSchema,
  FileRefSchema,
  SampleRefSchema,
  type EventSource,
  type TestCase,
} from './case.js';

export const DEFAULT_CASE_DIR = 'hooks-tests';
const CASE_EXTENSIONS = new Set(['.json', '.yaml', '.yml']);

/** How a case file was written: `--update` writes it back in the same shape. */
export interface CaseFile {
  file: string;
  format: 'json' | 'yaml';
  /** The whole file as read; the cases' `raw` objects live inside it. */
  data: unknown;
  cases: TestCase[];
}

export interface LoadCasesOptions {
  /** Where relative paths and the default folder are resolved, and error paths are shown from. */
  cwd: string;
  /** `--config`: the config of every case that names none. */
  config?: string;
}

/**
 * The case files under `paths` (files, or folders searched recursively for .json/.yaml/.yml),
 * default `hooks-tests/`. Config files in the folder (names containing `hooksrc`) are not cases.
 */
export async function findCaseFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  const roots = paths.length > 0 ? paths : [DEFAULT_CASE_DIR];
  const files: string[] = [];
  for (const given of roots) {
    const abs = path.resolve(cwd, given);
    const info = await stat(abs).catch(() => undefined);
    if (info === undefined) {
      const hint = paths.length === 0 ? '; pass case files or folders, or create it (see docs/testing.md)' : '';
      throw new HooksError('USAGE', `${given}: no such file or folder${hint}`);
    }
    if (info.isFile()) files.push(abs);
    else files.push(...(await walk(abs)));
  }
  const unique = [...new Set(files)];
  if (unique.length === 0) {
    throw new HooksError('USAGE', `${roots.join(', ')}: no test case files (.json, .yaml, .yml)`);
  }
  return unique;
}

/** Reads and validates one case file. */
export async function loadCaseFile(file: string, options: LoadCasesOptions): Promise<CaseFile> {
  const shown = showPath(file, options.cwd);
  let data: unknown;
  try {
    data = await readDataFile(file);
  } catch (error) {
    throw new HooksError('CONFIG_UNREADABLE', (error as Error).message.replace(file, shown), { file });
  }
  const format = /\.ya?ml$/i.test(file) ? 'yaml' : 'json';
  const fail = (key: string, message: string): never => {
    throw new HooksError('CONFIG_INVALID', `${shown}: ${key === '' ? '' : `${key}: `}${message}`, { file, path: key });
  };

  let entries: { key: string; raw: unknown }[];
  let defaults: { config?: string; env?: Record<string, string> } = {};
  if (Array.isArray(data)) {
    entries = data.map((raw, i) => ({ key: `[${i}]`, raw }));
  } else if (isRecord(data) && 'cases' in data) {
    const parsed = CaseFileSchema.safeParse(data);
    if (!parsed.success) fail(...firstIssue(parsed.error, ''));
    defaults = parsed.data!;
    entries = parsed.data!.cases.map((raw, i) => ({ key: `cases[${i}]`, raw }));
  } else if (isRecord(data)) {
    entries = [{ key: '', raw: data }];
  } else {
    return fail('', 'expected a test case object, a list of cases, or { "cases": [...] }');
  }
  if (entries.length === 0) fail('', 'no test cases');

  const dir = path.dirname(file);
  const cases: TestCase[] = [];
  for (const { key, raw } of entries) {
    const parsed = CaseSchema.safeParse(raw);
    if (!parsed.success) fail(...firstIssue(parsed.error, key));
    const c = parsed.data!;
    const event = await eventSource(c, dir, (sub, message) => fail(join(key, sub), message));
    const config = c.config ?? defaults.config;
    // A case, not the whole file: the other cases still run, and this one fails with the reason.
    const unknown = event.kind === 'sample' ? unknownInputField(event.sample, event.tool, event.input) : undefined;
    const configFile = config !== undefined ? path.resolve(dir, config) : options.config === undefined ? undefined : path.resolve(options.cwd, options.config);
    cases.push({
      name: c.name,
      file,
      key,
      event,
      ...(configFile === undefined ? {} : { config: configFile }),
      ...(c.hook === undefined ? {} : { hook: c.hook }),
      env: { ...defaults.env, ...c.env },
      judge: Object.fromEntries(Object.entries(c.judge ?? {}).map(([id, answer]) => [id, typeof answer === 'string' ? answer : JSON.stringify(answer)])),
      ...(c.expect === undefined ? {} : { expect: c.expect }),
      ...(unknown === undefined ? {} : { invalid: `${join(key, '.event.input')}.${unknown} (the case would run on the sample's default input, testing something else)` }),
      raw: raw as Record<string, unknown>,
    });
  }
  return { file, format, data, cases };
}

/** A path as the user should see it: relative to the working directory when inside it. */
export function showPath(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

// --- internal ---

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) out.push(...(await walk(abs)));
    } else if (CASE_EXTENSIONS.has(path.extname(entry.name).toLowerCase()) && !entry.name.includes('hooksrc')) {
      out.push(abs);
    }
  }
  return out;
}

type Fail = (subPath: string, message: string) => never;

/**
 * The case's event by its form: a sample reference, a file reference, or an inline payload. File and
 * inline payloads are any agent's, built into the event as `hooks run` would (`dialect`, else detected).
 * `fail` takes the key path under the case (`.event.file`, `.dialect`).
 */
async function eventSource(c: { event: Record<string, unknown>; dialect?: string | undefined; eventName?: string | undefined }, dir: string, fail: Fail): Promise<EventSource> {
  const event = c.event;
  if ('sample' in event) {
    const parsed = SampleRefSchema.safeParse(event);
    if (!parsed.success) fail(`.event${issueAt(parsed.error)[0]}`, issueAt(parsed.error)[1]);
    const ref = parsed.data!;
    // A sample is Claude Code's payload for the event it names: nothing to detect or name.
    for (const key of ['dialect', 'eventName'] as const) {
      if (c[key] !== undefined) fail(`.${key}`, `applies to file and inline events only; a sample is Claude Code's "${ref.sample}" event`);
    }
    // Generating it once here turns an unknown event or tool into a load error with a key path: the
    // event's when it is unknown (whatever the message says), else the tool's.
    try {
      sampleEvent(ref.sample, { cwd: dir, ...pick(ref, ['tool', 'input', 'fields']) });
    } catch (error) {
      fail(findEvent(ref.sample) === undefined || ref.tool === undefined ? '.event.sample' : '.event.tool', (error as Error).message);
    }
    return { kind: 'sample', sample: ref.sample, ...pick(ref, ['tool', 'input', 'fields']) };
  }
  let payload: Record<string, unknown> = event;
  let sub = '.event';
  if ('file' in event) {
    const parsed = FileRefSchema.safeParse(event);
    if (!parsed.success) fail(`.event${issueAt(parsed.error)[0]}`, issueAt(parsed.error)[1]);
    const file = path.resolve(dir, parsed.data!.file);
    let data: unknown;
    try {
      data = await readDataFile(file);
    } catch (error) {
      fail('.event.file', (error as Error).message);
    }
    if (!isRecord(data)) fail('.event.file', `${parsed.data!.file}: expected one JSON object`);
    payload = data as Record<string, unknown>;
    sub = '.event.file';
  }
  const source: EventSource = { kind: 'payload', payload, ...pick(c, ['dialect', 'eventName']) };
  try {
    payloadEvent(source);
  } catch (error) {
    const message = (error as Error).message;
    if (isHooksError(error) && error.code === 'DIALECT_UNKNOWN') fail('.dialect', message);
    // The event named by the case (as on `hooks run <event>`) is reported as `event: ...`.
    if (c.eventName !== undefined && /^event: /.test(message)) fail('.eventName', message.replace(/^event: /, ''));
    if (/^no event named/.test(message)) {
      fail(sub, 'expected {"sample": "<event>", ...}, {"file": "<path>"} or an agent\'s payload that names its event (else name it with "eventName" on the case)');
    }
    fail(sub, message.replace(/^stdin: /, '').replace('the command line says', '"eventName" says'));
  }
  return source;
}

/** A file or inline payload as the event `hooks run` would make of it: through its dialect. */
export function payloadEvent(source: Extract<EventSource, { kind: 'payload' }>): HookEvent {
  const dialect = source.dialect === undefined ? detectDialect(source.payload) : getDialect(source.dialect);
  return dialect.toEvent(source.payload, source.eventName);
}

// Every key a case file may use, for "did you mean" on a typo.
const KNOWN_KEYS = [
  ...new Set([CaseSchema, CaseFileSchema, ExpectationSchema, SampleRefSchema, FileRefSchema].flatMap((schema) => Object.keys(schema.shape))),
];

/** The first zod issue as [key path under `base`, message]. */
function firstIssue(error: z.ZodError, base: string): [string, string] {
  const [sub, message] = issueAt(error);
  return [join(base, sub), message];
}

/** The first zod issue as [sub path (`.expect.decision`), message]; unknown keys get a suggestion. */
function issueAt(error: z.ZodError): [string, string] {
  const issue = error.issues[0]!;
  const parts: PropertyKey[] = [...issue.path];
  let message = issue.message.replace(/^Invalid (input|option): /, '');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    parts.push(key);
    message = `unknown key${didYouMean(key, KNOWN_KEYS)}`;
  }
  return [parts.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join(''), message];
}

/** Joins a base key path and a sub path: `cases[2]` + `.expect` → `cases[2].expect`; `` + `.expect` → `expect`. */
function join(base: string, sub: string): string {
  const joined = `${base}${sub.startsWith('.') || sub.startsWith('[') || sub === '' ? sub : `.${sub}`}`;
  return joined.startsWith('.') ? joined.slice(1) : joined;
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}
