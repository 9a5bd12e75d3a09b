// What a tool call is about to put into files: (path, text) pairs read from the tool input of the
// canonical write/edit/apply_patch tools and from the shell's file writers.
import { analyzeShell } from '../shell/analyze.js';
import { staticStdout, stdinBodies } from '../shell/code-runners.js';
import { isInterpreter, programName } from '../shell/program.js';
import type { SimpleCommand } from '../shell/types.js';

export interface Written {
  /** The file as the tool names it; `undefined` when it cannot be told (a shell command that failed to parse). */
  path: string | undefined;
  text: string;
}

const PATH_FIELDS = ['file_path', 'path', 'filePath', 'notebook_path', 'target_file', 'filename'] as const;
// Claude Write `content`, str_replace_editor `file_text`, Cursor `code_edit`; Edit/MultiEdit
// `new_string`, str_replace_editor `new_str`/`insert_text`, NotebookEdit `new_source`.
const TEXT_FIELDS = ['content', 'contents', 'file_text', 'text', 'code_edit', 'new_string', 'newString', 'new_str', 'insert_text', 'new_source', 'replacement'] as const;
/** Tool input past this many edits or bytes is read up to there (the rest is still checked by length). */
const MAX_EDITS = 1000;

/** The texts a tool call writes, by canonical tool name; the shell's come with `shellError` when it could not be parsed. */
export function writtenBy(tool: string, input: unknown): { written: Written[]; shellError?: string } {
  const args = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  if (tool === 'apply_patch') return { written: patchWrites(args) };
  if (tool === 'exec') {
    const command = Array.isArray(args.command) && args.command.every((a) => typeof a === 'string') ? args.command.join(' ') : args.command;
    return typeof command === 'string' ? shellWrites(command) : { written: [] };
  }
  return { written: fieldWrites(args) };
}

function fieldWrites(args: Record<string, unknown>): Written[] {
  const out: Written[] = [];
  const pathOf = (o: Record<string, unknown>): string | undefined => PATH_FIELDS.map((f) => o[f]).find((v): v is string => typeof v === 'string' && v !== '');
  const path = pathOf(args);
  for (const field of TEXT_FIELDS) {
    const value = args[field];
    if (typeof value === 'string' && value !== '') out.push({ path, text: value });
  }
  for (const list of [args.edits, args.files]) {
    if (!Array.isArray(list)) continue;
    for (const item of list.slice(0, MAX_EDITS)) {
      if (item === null || typeof item !== 'object') continue;
      const edit = item as Record<string, unknown>;
      for (const field of TEXT_FIELDS) {
        const value = edit[field];
        if (typeof value === 'string' && value !== '') out.push({ path: pathOf(edit) ?? path, text: value });
      }
    }
  }
  return out;
}

/** Codex's patch format: the added lines (`+…`) of each `*** Add File:` / `*** Update File:` section. */
function patchWrites(args: Record<string, unknown>): Written[] {
  const text = [args.command, args.input, args.patch].find((v): v is string => typeof v === 'string');
  const out: Written[] = [];
  if (text !== undefined) {
    let path: string | undefined;
    let added: string[] = [];
    const flush = (): void => {
      if (added.length > 0) out.push({ path, text: added.join('\n') });
      added = [];
    };
    for (const line of text.split('\n')) {
      const header = /^\*\*\* (?:Add File|Update File|Move to): (.+?)\s*$/.exec(line);
      if (header) {
        flush();
        path = header[1];
      } else if (line.startsWith('+')) added.push(line.slice(1));
    }
    flush();
  }
  return [...out, ...fieldWrites(args)];
}

const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>']);

/**
 * Shell writers: `echo … > f`, `printf … >> f`, `cat <<EOF > f`, `… | tee [-a] f`, `dd of=f`. The text
 * is what the command prints when that is known statically, else its own source (which holds any
 * literal credential it would print), plus heredoc and here-string bodies.
 */
function shellWrites(command: string): { written: Written[]; shellError?: string } {
  const analysis = analyzeShell(command);
  if (!analysis.ok) {
    // Unparseable: judged as a whole when it looks like it writes a file, so nothing slips through.
    return /(?:^|[^<>&0-9])>{1,2}|\btee\b|\bdd\b[^\n]*\bof=/.test(command) ? { written: [{ path: undefined, text: command }], shellError: analysis.error } : { written: [], shellError: analysis.error };
  }
  const out: Written[] = [];
  for (const cmd of analysis.commands) {
    out.push(...interpreterWrites(cmd));
    const targets = fileTargets(cmd);
    if (targets.length === 0) continue;
    const readsStdin = cmd.argv[0] === 'tee' || cmd.argv[0] === 'dd' || cmd.argv[0] === 'sponge' || (cmd.argv[0] === 'cat' && cmd.argv.length === 1);
    const texts: string[] = [];
    if (readsStdin) {
      texts.push(...stdinBodies(cmd, cmd.pipedFrom));
      for (const from of cmd.pipedFrom) texts.push(from.source);
    } else {
      texts.push(staticStdout(cmd) ?? cmd.source);
    }
    for (const redirect of cmd.redirects) if (redirect.body !== undefined) texts.push(redirect.body);
    const text = [...new Set(texts)].join('\n');
    for (const path of targets) out.push({ path, text });
  }
  return { written: out };
}

function fileTargets(cmd: SimpleCommand): string[] {
  const targets = cmd.redirects.filter((r) => WRITE_OPS.has(r.op) && !r.target.startsWith('&')).map((r) => r.target);
  const program = cmd.argv[0];
  if (program === 'tee' || program === 'sponge') targets.push(...cmd.argv.slice(1).filter((a) => !a.startsWith('-')));
  if (program === 'dd') for (const a of cmd.argv.slice(1)) if (a.startsWith('of=')) targets.push(a.slice(3));
  return targets.filter((t) => t !== '' && !/^\/dev\/(?:null|stdout|stderr|tty|fd\/[12])$/.test(t));
}

const CODE_FLAGS = /^-(?:[a-zA-Z]*[ceErpx]|-eval|-print|-command)$/;
/** A file write in Python, JavaScript, Ruby, Perl or PHP code; the group is the path when it is a literal. */
const CODE_WRITE =
  /\b(?:open|writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|openSync|File\.write|File\.open|IO\.write|file_put_contents|fopen)\s*\(\s*(?:(["'])((?:\\.|(?!\1)[^\\\n])*)\1)?|\b(?:Path|pathlib\.Path)\s*\(\s*(["'])((?:\\.|(?!\3)[^\\\n])*)\3\s*\)\s*\.\s*write_(?:text|bytes)|\.write_(?:text|bytes)\s*\(/g;
/** The call writes (not a plain `open(f)`/`File.open(f)`/`fopen(f)` read): a write mode, or a write API. */
const WRITE_MODE = /^(?:open|File\.open|fopen|openSync)$/;

/**
 * `python3 -c "open('f','w').write('…')"`, `node -e "fs.writeFileSync('f', '…')"`: code that writes a
 * file is read whole (its literals hold any credential it writes); the path is the call's first
 * literal when it has one, else unknown (never exempt).
 */
function interpreterWrites(cmd: SimpleCommand): Written[] {
  const program = cmd.argv[0];
  if (program === undefined || cmd.dynamicProgram || !isInterpreter(programName(program))) return [];
  const codes: string[] = [];
  cmd.argv.forEach((a, i) => {
    if (i > 0 && CODE_FLAGS.test(a) && cmd.argv[i + 1] !== undefined) codes.push(cmd.argv[i + 1]!);
    const joined = i > 0 ? /^--(?:eval|print|command)=(.+)$/s.exec(a) : null;
    if (joined) codes.push(joined[1]!);
  });
  for (const r of cmd.redirects) if (r.body !== undefined) codes.push(r.body);
  const out: Written[] = [];
  for (const code of codes.slice(0, 16)) {
    if (code.length > 256 * 1024) {
      out.push({ path: undefined, text: code });
      continue;
    }
    const paths: (string | undefined)[] = [];
    for (const m of code.matchAll(CODE_WRITE)) {
      const call = /^[\w.]+/.exec(m[0])?.[0] ?? '';
      // `open(f)` reads; with a mode holding w/a/x/+ (Perl: `>`, `>>`) after it, or any other API here, it writes.
      const after = code.slice(m.index + m[0].length, m.index + m[0].length + 200);
      if (WRITE_MODE.test(call) && !/^[^)]*?,\s*(?:mode\s*=\s*)?["'](?:[^"']*[wax+]|\+?>>?)/.test(after)) continue;
      paths.push(m[2] ?? m[4]);
    }
    for (const path of new Set(paths)) out.push({ path, text: code });
  }
  return out;
}
