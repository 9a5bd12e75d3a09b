// The read-only tools of an `agent` hook's verifier: Read, Grep and Glob over the project, named and
// shaped as Claude Code 2.1.332 gives them to its hook agents (so one scripted model drives both). Both
// the repository and the model are untrusted: every path is confined to the project root by realpath
// (no `..`, symlink or absolute escape), a file the sensitive-paths guard refuses to read is refused
// (what a tool returns goes to a model provider), only regular files are opened (never a FIFO or a
// device, and without following a link planted at the name), and sizes are capped. A refusal is the
// tool's answer to the model, never an exception. File text is redacted (redact-secrets' rules) before it is
// shown or searched: a path rule cannot see a token in a source file, or a hard link the agent made to a key
// outside the project (its name and realpath are the project's), and a Grep must not be a match oracle on it.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isRecord } from '../../json.js';
import { globToRegExp, judgePath } from '../../guards/sensitive-paths.js';
import { createRedactor, type Redactor } from '../../guards/redact-secrets/engine.js';
import { grepTexts } from './grep-worker.js';

/** Bytes of one tool result given back to the model; the rest is cut with a note. */
export const TOOL_RESULT_LIMIT = 32 * 1024;
/** Largest file Read or Grep opens. */
export const FILE_SIZE_LIMIT = 4 * 1024 * 1024;
/** Entries one Glob or Grep walk visits before it stops. */
export const WALK_LIMIT = 20_000;
/** Bytes of file text one Grep scans in all. */
const GREP_BYTES_LIMIT = 32 * 1024 * 1024;
/** Lines one Read returns when no `limit` is given (Claude Code's default). */
const READ_LINES = 2000;
/** Characters of one line Read returns. */
const LINE_CHARS = 2000;
/** Paths one Glob, or files one Grep, lists. */
const LIST_LIMIT = 100;
/** Folders never walked: version control and dependencies. */
const SKIPPED_DIRS = new Set(['.git', '.hg', '.svn', 'node_modules']);

export const TOOL_NAMES = ['Read', 'Grep', 'Glob'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
/** The tool the verifier answers with, as in Claude Code. */
export const ANSWER_TOOL = 'StructuredOutput';

export interface ToolSpec {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

/** The tools offered to the model: Claude Code's Read, Grep, Glob (their core arguments) and StructuredOutput. */
export const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'Read',
    description: 'Reads a file of the project. file_path is absolute or relative to the project root; offset (1-based line) and limit (lines) read part of a long file. Lines come numbered as cat -n numbers them.',
    schema: {
      type: 'object',
      properties: { file_path: { type: 'string', description: 'The file to read' }, offset: { type: 'number', description: 'The line to start at' }, limit: { type: 'number', description: 'How many lines to read' } },
      required: ['file_path'],
      additionalProperties: false,
    },
  },
  {
    name: 'Grep',
    description: 'Searches file contents of the project with a regular expression (JavaScript syntax). output_mode: "files_with_matches" (default), "content" (matching lines with numbers) or "count".',
    schema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'The regular expression' },
        path: { type: 'string', description: 'File or folder to search; default the project root' },
        glob: { type: 'string', description: 'Only files whose path matches this glob, e.g. "*.ts" or "src/**/*.js"' },
        output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count'] },
        '-i': { type: 'boolean', description: 'Case insensitive' },
        head_limit: { type: 'number', description: 'At most this many lines or files' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
  {
    name: 'Glob',
    description: 'Lists the project files whose path matches a glob such as "**/*.ts" or "src/*.json".',
    schema: {
      type: 'object',
      properties: { pattern: { type: 'string', description: 'The glob' }, path: { type: 'string', description: 'The folder to search; default the project root' } },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
  {
    name: ANSWER_TOOL,
    description: 'Use this tool to return your verification result. You MUST call this tool exactly once at the end of your response.',
    schema: {
      type: 'object',
      properties: { ok: { type: 'boolean', description: 'Whether the condition was met' }, reason: { type: 'string', description: 'Reason, if the condition was not met' } },
      required: ['ok'],
      additionalProperties: false,
    },
  },
];

export type ToolCall =
  | { name: 'Read'; filePath: string; offset?: number; limit?: number }
  | { name: 'Grep'; pattern: string; path?: string; glob?: string; mode: 'content' | 'files_with_matches' | 'count'; ignoreCase: boolean; headLimit?: number }
  | { name: 'Glob'; pattern: string; path?: string };

/** Longest string argument taken (a path, a pattern, a glob). */
const ARGUMENT_CHARS = 4096;

/**
 * Reads a tool call's arguments as the model sent them (an object, or for OpenAI-compatible servers a
 * JSON string). Total: anything malformed is a problem to tell the model, never a throw.
 */
export function readToolCall(name: string, input: unknown): { ok: true; call: ToolCall } | { ok: false; problem: string } {
  let args: unknown = input;
  if (typeof input === 'string') {
    try {
      args = input.trim() === '' ? {} : JSON.parse(input);
    } catch {
      return { ok: false, problem: `the arguments of ${name} are not JSON` };
    }
  }
  if (!isRecord(args)) return { ok: false, problem: `the arguments of ${name} are not a JSON object` };
  const text = (key: string, required: boolean): string | undefined | Error => {
    const value = args[key];
    if (value === undefined || value === null) return required ? new Error(`${name} needs "${key}"`) : undefined;
    if (typeof value !== 'string' || value === '') return new Error(`${name}: "${key}" must be a non-empty string`);
    if (value.length > ARGUMENT_CHARS || value.includes('\0')) return new Error(`${name}: "${key}" is longer than ${ARGUMENT_CHARS} characters or holds a NUL`);
    return value;
  };
  const count = (key: string): number | undefined | Error => {
    const value = args[key];
    if (value === undefined || value === null) return undefined;
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : new Error(`${name}: "${key}" must be a whole number, 0 or more`);
  };
  const first = (...values: unknown[]) => values.find((v): v is Error => v instanceof Error);
  if (name === 'Read') {
    const filePath = text('file_path', true);
    const offset = count('offset');
    const limit = count('limit');
    const wrong = first(filePath, offset, limit);
    if (wrong !== undefined) return { ok: false, problem: wrong.message };
    return { ok: true, call: { name, filePath: filePath as string, ...(offset === undefined ? {} : { offset: offset as number }), ...(limit === undefined ? {} : { limit: limit as number }) } };
  }
  if (name === 'Grep') {
    const pattern = text('pattern', true);
    const where = text('path', false);
    const glob = text('glob', false);
    const headLimit = count('head_limit');
    const mode = args.output_mode ?? 'files_with_matches';
    const ignoreCase = args['-i'] ?? false;
    const wrong = first(pattern, where, glob, headLimit);
    if (wrong !== undefined) return { ok: false, problem: wrong.message };
    if (mode !== 'content' && mode !== 'files_with_matches' && mode !== 'count') return { ok: false, problem: 'Grep: "output_mode" must be content, files_with_matches or count' };
    if (typeof ignoreCase !== 'boolean') return { ok: false, problem: 'Grep: "-i" must be a boolean' };
    return {
      ok: true,
      call: { name, pattern: pattern as string, mode, ignoreCase, ...(where === undefined ? {} : { path: where as string }), ...(glob === undefined ? {} : { glob: glob as string }), ...(headLimit === undefined ? {} : { headLimit: headLimit as number }) },
    };
  }
  if (name === 'Glob') {
    const pattern = text('pattern', true);
    const where = text('path', false);
    const wrong = first(pattern, where);
    if (wrong !== undefined) return { ok: false, problem: wrong.message };
    return { ok: true, call: { name, pattern: pattern as string, ...(where === undefined ? {} : { path: where as string }) } };
  }
  return { ok: false, problem: `no tool named ${JSON.stringify(name.slice(0, 100))}; the tools are ${[...TOOL_NAMES, ANSWER_TOOL].join(', ')}` };
}

export interface ToolContext {
  /** The project root, as given (it is resolved by realpath here). */
  root: string;
  home?: string;
  /** When the whole loop must end (ms since epoch, Date.now()). */
  deadline: number;
  /** Files outside the root that Read may open all the same (the Stop event's own transcript). */
  alsoReadable?: readonly string[];
}

export interface ToolResult {
  text: string;
  isError: boolean;
}

/** Runs one tool call. Never throws: a refusal or a problem is the result's text, marked as an error. */
export async function runTool(call: ToolCall, context: ToolContext): Promise<ToolResult> {
  let root: string;
  try {
    root = realpathSync.native(context.root);
  } catch {
    return refuse(`the project root ${context.root} cannot be read`);
  }
  const home = context.home ?? os.homedir();
  try {
    if (call.name === 'Read') return read(call, root, home, context);
    if (call.name === 'Glob') return await glob(call, root, home, context);
    return await grep(call, root, home, context);
  } catch (error) {
    return refuse(`${call.name} failed: ${(error as Error).message}`);
  }
}

// --- internal ---

function refuse(text: string): ToolResult {
  return { text, isError: true };
}

/**
 * Where `asked` really is, when that is inside the root (or one of the extra readable files); else why
 * not. The check is on the realpath: a link inside the project to a place outside is outside.
 */
function confine(asked: string, root: string, context: ToolContext): { ok: true; real: string; shown: string } | { ok: false; problem: string } {
  const absolute = path.resolve(root, asked);
  let real: string;
  try {
    real = realpathSync.native(absolute);
  } catch {
    return { ok: false, problem: `${asked}: no such file or folder in the project` };
  }
  // The transcript as the agent CLI wrote it: a `.jsonl` file, not a link planted at its name (the agent runs
  // as the user and can swap its own transcript for a link to any file the path rules do not name).
  const extra = (context.alsoReadable ?? []).some((file) => {
    try {
      return !lstatSync(file).isSymbolicLink() && real.endsWith('.jsonl') && realpathSync.native(file) === real;
    } catch {
      return false;
    }
  });
  if (!extra && real !== root && !real.startsWith(root + path.sep)) return { ok: false, problem: `${asked}: outside the project (${root}); the verifier's tools read the project only` };
  return { ok: true, real, shown: extra ? real : path.relative(root, real) || '.' };
}

/** Why the sensitive-paths guard would refuse reading `file`, or undefined. */
function sensitive(file: string, root: string, home: string): string | undefined {
  const verdict = judgePath(file, { cwd: root, home, access: 'read' });
  return verdict.verdict === 'allow' ? undefined : verdict.reason;
}

/**
 * A regular file's bytes, opened without following a link and without blocking on a FIFO; else why not.
 * Where the kernel says the open file is must still be `file`: a folder on the way swapped for a link
 * after the realpath check (the agent runs as the same user) would be caught here (Linux: /proc/self/fd).
 */
function readRegular(file: string): { ok: true; bytes: Buffer } | { ok: false; problem: string } {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const opened = openedPath(fd);
    if (opened !== undefined && opened !== file) return { ok: false, problem: 'the path changed while it was being opened' };
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { ok: false, problem: 'not a regular file' };
    if (stats.size > FILE_SIZE_LIMIT) return { ok: false, problem: `larger than ${FILE_SIZE_LIMIT} bytes` };
    const bytes = Buffer.alloc(stats.size);
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return { ok: true, bytes: bytes.subarray(0, got) };
  } catch (error) {
    return { ok: false, problem: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The path of an open file as the kernel has it, where the system says (Linux); else undefined. */
function openedPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function read(call: Extract<ToolCall, { name: 'Read' }>, root: string, home: string, context: ToolContext): ToolResult {
  const where = confine(call.filePath, root, context);
  if (!where.ok) return refuse(where.problem);
  const secret = sensitive(where.real, root, home) ?? (where.real === path.resolve(root, call.filePath) ? undefined : sensitive(path.resolve(root, call.filePath), root, home));
  if (secret !== undefined) return refuse(`${call.filePath}: not read: ${secret} (what the verifier reads goes to the model provider)`);
  const file = readRegular(where.real);
  if (!file.ok) return refuse(`${call.filePath}: not read: ${file.problem}`);
  if (file.bytes.includes(0)) return refuse(`${call.filePath}: a binary file; not read`);
  const lines = redactor().text(file.bytes.toString('utf8')).text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const start = Math.max(1, call.offset ?? 1);
  const end = Math.min(lines.length, start - 1 + (call.limit ?? READ_LINES));
  if (lines.length === 0) return { text: `${where.shown} is empty`, isError: false };
  if (start > lines.length) return { text: `${where.shown} has ${lines.length} lines; offset ${start} is past its end`, isError: false };
  const out: string[] = [];
  for (let n = start; n <= end; n++) {
    const line = lines[n - 1]!;
    out.push(`${String(n).padStart(6)}\t${line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}… [line cut]` : line}`);
  }
  if (end < lines.length) out.push(`[${lines.length - end} more lines; read on with offset ${end + 1}]`);
  return { text: cap(out.join('\n')), isError: false };
}

interface Walked {
  files: { real: string; rel: string }[];
  stopped?: string;
}

/** The regular files under `dir` (inside the root), without following links, skipping .git and node_modules. */
function walk(dir: string, root: string, deadline: number): Walked {
  const files: Walked['files'] = [];
  const stack = [dir];
  let visited = 0;
  while (stack.length > 0) {
    const current = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const entry of entries) {
      if (++visited > WALK_LIMIT) return { files, stopped: `stopped after ${WALK_LIMIT} entries` };
      if (Date.now() > deadline) return { files, stopped: 'stopped: out of time' };
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) stack.push(full);
      } else if (entry.isFile()) files.push({ real: full, rel: path.relative(root, full) });
    }
  }
  files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { files };
}

function folder(asked: string | undefined, root: string, context: ToolContext): { ok: true; real: string } | { ok: false; problem: string } {
  if (asked === undefined) return { ok: true, real: root };
  const where = confine(asked, root, { ...context, alsoReadable: [] });
  if (!where.ok) return where;
  return { ok: true, real: where.real };
}

/**
 * Which of `rels` the model's glob matches. A glob's regex backtracks too: `*a*a*a*a*a*a*a*a*a*a*a*ab` takes
 * seconds on a 40-letter name and hours on a longer one, on the thread that runs it, past every timer. So it
 * runs in the grep worker (ended halfway to the deadline), each path one line. A glob without a folder
 * matches a file's name anywhere, as Claude Code's Grep `glob` does.
 */
async function matchGlob(glob: string, rels: readonly string[], deadline: number): Promise<{ ok: true; matched: Set<number> } | { ok: false; problem: string }> {
  const re = globToRegExp(glob.replace(/^\.\//, ''), { brackets: 'exact' });
  // A newline in a file name would split its line; it cannot be part of a glob match anyway.
  const flat = (p: string) => p.replaceAll('\n', '\uFFFF');
  const texts = rels.map((rel, i) => ({ rel: String(i), text: glob.includes('/') ? flat(rel) : `${flat(path.basename(rel))}\n${flat(rel)}` }));
  const found = await grepTexts(re.source, re.flags.replace(/[gy]/g, ''), texts, Math.max(1, (deadline - Date.now()) / 2));
  if (found.kind === 'timeout') return { ok: false, problem: 'the glob took too long to match and was stopped' };
  if (found.kind === 'error') return { ok: false, problem: `the glob could not be matched: ${found.message}` };
  return { ok: true, matched: new Set(found.matches.map((m) => Number(m.rel))) };
}

async function glob(call: Extract<ToolCall, { name: 'Glob' }>, root: string, home: string, context: ToolContext): Promise<ToolResult> {
  const base = folder(call.path, root, context);
  if (!base.ok) return refuse(base.problem);
  const walked = walk(base.real, root, context.deadline);
  const test = await matchGlob(call.pattern, walked.files.map((f) => path.relative(base.real, f.real)), context.deadline);
  if (!test.ok) return refuse(`Glob: ${test.problem}`);
  const found = walked.files.filter((f, i) => test.matched.has(i) && sensitive(f.real, root, home) === undefined).map((f) => f.rel);
  const lines = found.slice(0, LIST_LIMIT);
  if (found.length > LIST_LIMIT) lines.push(`[${found.length - LIST_LIMIT} more; narrow the pattern]`);
  if (walked.stopped !== undefined) lines.push(`[the walk ${walked.stopped}]`);
  return { text: lines.length === 0 ? 'No files found' : cap(lines.join('\n')), isError: false };
}

async function grep(call: Extract<ToolCall, { name: 'Grep' }>, root: string, home: string, context: ToolContext): Promise<ToolResult> {
  const flags = call.ignoreCase ? 'i' : '';
  try {
    new RegExp(call.pattern, flags);
  } catch (error) {
    return refuse(`Grep: the pattern is not a JavaScript regular expression: ${(error as Error).message}`);
  }
  const base = folder(call.path, root, context);
  if (!base.ok) return refuse(base.problem);
  let candidates: Walked;
  if (lstatSync(base.real).isDirectory()) candidates = walk(base.real, root, context.deadline);
  else candidates = { files: [{ real: base.real, rel: path.relative(root, base.real) }] };
  let selected: Set<number> | undefined;
  if (call.glob !== undefined) {
    const test = await matchGlob(call.glob, candidates.files.map((f) => path.relative(base.real, f.real) || path.basename(f.real)), context.deadline);
    if (!test.ok) return refuse(`Grep: ${test.problem}`);
    selected = test.matched;
  }
  const texts: { rel: string; text: string }[] = [];
  const redact = redactor();
  let bytes = 0;
  let stopped = candidates.stopped;
  for (const [i, file] of candidates.files.entries()) {
    if (selected !== undefined && !selected.has(i)) continue;
    if (sensitive(file.real, root, home) !== undefined) continue;
    const got = readRegular(file.real);
    if (!got.ok || got.bytes.includes(0)) continue;
    if (bytes + got.bytes.length > GREP_BYTES_LIMIT) {
      stopped = `stopped after ${GREP_BYTES_LIMIT} bytes of files`;
      break;
    }
    bytes += got.bytes.length;
    texts.push({ rel: file.rel, text: redact.text(got.bytes.toString('utf8')).text });
  }
  // The pattern is the model's: a backtracking one could run for ever, so it runs in a worker that is
  // ended halfway to the deadline, leaving the model time to answer (a regex cannot be interrupted on this thread).
  const found = await grepTexts(call.pattern, flags, texts, Math.max(1, (context.deadline - Date.now()) / 2));
  if (found.kind === 'timeout') return refuse('Grep: the pattern took too long and was stopped');
  if (found.kind === 'error') return refuse(`Grep failed: ${found.message}`);
  const limit = call.headLimit ?? (call.mode === 'content' ? 500 : LIST_LIMIT);
  let lines: string[];
  if (call.mode === 'files_with_matches') lines = found.matches.map((m) => m.rel);
  else if (call.mode === 'count') lines = found.matches.map((m) => `${m.rel}:${m.lines.length}`);
  else lines = found.matches.flatMap((m) => m.lines.map(([n, line]) => `${m.rel}:${n}:${line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line}`));
  const shown = lines.slice(0, limit);
  if (lines.length > limit) shown.push(`[${lines.length - limit} more]`);
  if (stopped !== undefined) shown.push(`[the search ${stopped}]`);
  return { text: shown.length === 0 ? 'No matches found' : cap(shown.join('\n')), isError: false };
}

let shared: Redactor | undefined;
/** The default redact-secrets rules, compiled once per process. */
function redactor(): Redactor {
  return (shared ??= createRedactor());
}

function cap(text: string): string {
  if (Buffer.byteLength(text, 'utf8') <= TOOL_RESULT_LIMIT) return text;
  const cut = Buffer.from(text, 'utf8').subarray(0, TOOL_RESULT_LIMIT).toString('utf8').replace(/\uFFFD$/, '');
  return `${cut}\n[cut at ${TOOL_RESULT_LIMIT} bytes]`;
}
