// A missing script is `not-found`, whatever its interpreter does about it: python3 exits 2 (which would read
// as a block, with "can't open file" as the reason) and node exits 1 (a useless `exit-1`). Two checks: before
// the run, the script argument of a plain `<interpreter> <script>` command; after it, the interpreter's own
// "cannot open" answer. Both are conservative: anything they cannot read with certainty runs as written.
import { existsSync } from 'node:fs';
import path from 'node:path';

const INTERPRETER = /^(?:python[\d.]*|pypy[\d.]*|node|nodejs|bash|sh|dash|zsh|ksh|ruby|perl|php|deno|bun|tsx|ts-node|lua)$/;
/** Options after which the next word is code, a module or a subcommand's text, not a script file. */
const NO_SCRIPT = new Set(['-c', '-m', '-e', '-E', '-p', '-r', '--eval', '--print', 'eval', '-x', 'x', 'repl', 'test', 'install', 'add', 'exec', 'task']);
/** Options that take the next word as their value. */
const TAKES_VALUE = new Set(['-W', '-X', '--require', '--import', '--loader', '--experimental-loader', '--conditions', '-C', '--config', '--env-file', '-I', '-O']);
/** Subcommands that take a script next (`deno run x.ts`, `bun run x.ts`, `tsx watch x.ts`). */
const RUNS = new Set(['run', 'watch']);
const SCRIPT_LIKE = /[/\\]|\.(?:py|pyw|js|mjs|cjs|ts|mts|cts|tsx|jsx|sh|bash|zsh|rb|pl|pm|php|lua)$/i;
/** Anything a shell would expand or treat as syntax: the words are then not what the program receives. */
const SHELL_SYNTAX = /[$`(){}[\]*?;&|<>!~#'"\\]/;

/** "script <path> not found" when a plain interpreter command names a script file that does not exist. */
export function missingScript(command: string, args: string[] | undefined, cwd: string): string | undefined {
  const words = args === undefined ? shellWords(command) : [command, ...args];
  if (words === undefined) return undefined;
  let i = 0;
  // `FOO=1 python3 x.py`: assignments before the program.
  while (args === undefined && i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  const program = words[i];
  if (program === undefined || !INTERPRETER.test(path.basename(program))) return undefined;
  for (i++; i < words.length; i++) {
    const word = words[i]!;
    if (NO_SCRIPT.has(word)) return undefined;
    if (TAKES_VALUE.has(word)) {
      i++;
      continue;
    }
    if (RUNS.has(word)) continue;
    if (word.startsWith('-')) continue;
    if (!SCRIPT_LIKE.test(word)) return undefined;
    const file = path.resolve(cwd, word);
    return existsSync(file) ? undefined : `script ${word} not found (looked for ${file})`;
  }
  return undefined;
}

/** The interpreter's own "cannot open the script" answer, read as `not-found` when that file is indeed missing. */
export function missingScriptAnswer(exitCode: number, stderr: Uint8Array, cwd: string): string | undefined {
  if (exitCode !== 1 && exitCode !== 2) return undefined;
  // The answer is in the first lines; a huge stderr is a hook's own output.
  const text = Buffer.from(stderr.subarray(0, 4096)).toString('utf8');
  const python = /can't open file '([^'\n]+)': \[Errno 2\] No such file or directory/.exec(text);
  const node = /^Error(?: \[ERR_MODULE_NOT_FOUND\])?: Cannot find module '([^'\n]+)'/m.exec(text);
  const named = exitCode === 2 ? python?.[1] : node?.[1];
  if (named === undefined || !path.isAbsolute(path.resolve(cwd, named))) return undefined;
  const file = path.resolve(cwd, named);
  if (existsSync(file)) return undefined;
  return `script ${file} not found (the interpreter could not open it)`;
}

/** The words of a command with no shell syntax beyond spaces; undefined when it has any. */
function shellWords(command: string): string[] | undefined {
  const trimmed = command.trim();
  if (trimmed === '' || SHELL_SYNTAX.test(trimmed) || /[\n\r]/.test(trimmed)) return undefined;
  return trimmed.split(/[ \t]+/);
}
