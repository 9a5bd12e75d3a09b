// Which files a hook's command runs from the project: the program when it is spelled as a path
// (`./hook.sh`, `tools/guard`, `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`), the script of a known
// interpreter (`python3 -u guard.py`, `node x.mjs`, `bash x.sh`, `deno run -A x.ts`, `npx tsx x.ts`), a
// file sourced by the shell (`. ./env.sh`), a preload (`node -r ./setup.js`), the package.json behind
// `npm run`, and a bare program found through a PATH that points into the project. Read with the shell
// layer of the guards (every simple command, `bash -c` and `env`/`timeout`/`nohup` wrappers unwrapped).
// Used by `hooks trust` only, never on the run path. It errs towards covering more: a word that is not a
// file in the end is recorded as missing, and a file created there later makes the config untrusted.
import path from 'node:path';
import { analyzeShell } from '../guards/shell/analyze.js';
import { programName } from '../guards/shell/program.js';
import type { ShellWord } from '../guards/shell/types.js';

export interface ScriptRef {
  /** As the command spells it, for messages. */
  word: string;
  /** Where it resolves (absolute). */
  file: string;
  /** A JavaScript/TypeScript module: its relative imports are covered too. */
  js: boolean;
  /** Spelled as an absolute path (not through `$CLAUDE_PROJECT_DIR`): outside the project, it is not the project's. */
  absolute: boolean;
}

export interface CommandScripts {
  scripts: ScriptRef[];
  /** What could not be followed: a script word computed at run time, a command that does not parse. One phrase each. */
  unknown: string[];
  /** Python modules run by name (`python3 -m pkg.mod`) and the folder the interpreter puts first on `sys.path` (the hook's). */
  pythonModules?: { name: string; cwd: string }[];
}

export interface CommandToRead {
  command: string;
  args?: string[];
  shell?: 'powershell';
}

export interface ReadOptions {
  /** The hook's working directory: where relative paths resolve. */
  cwd: string;
  /** What `$CLAUDE_PROJECT_DIR` and `$HOOKS_PROJECT_DIR` stand for. */
  projectDir: string;
  /** The hook's own PATH, when its config sets one: entries into the project make bare programs files of the project. */
  path?: string;
}

/** The project files a hook's command runs (see the header). Never throws. */
export function scriptsOfCommand(run: CommandToRead, options: ReadOptions): CommandScripts {
  const out: CommandScripts = { scripts: [], unknown: [] };
  if (run.args !== undefined) {
    // Exec form: no shell, so no expansion either; the words are what the program gets.
    readArgv([run.command, ...run.args].map((value) => ({ value, known: true })), options.cwd, options, out);
    return dedupe(out);
  }
  if (run.shell === 'powershell') {
    out.unknown.push(`"${run.command}": a PowerShell command is not read`);
    return out;
  }
  const analysis = analyzeShell(run.command);
  if (!analysis.ok) {
    out.unknown.push(`"${run.command}": ${analysis.error}`);
    return out;
  }
  for (const command of analysis.commands) {
    if (command.words.length === 0) continue;
    const cwd = command.cwd === undefined || command.cwd.startsWith('~') ? options.cwd : path.resolve(options.cwd, command.cwd);
    // The walker names a wrapped program after its wrappers; the words are the program's own.
    readArgv(command.words.map((w) => wordValue(w, options.projectDir)), cwd, options, out);
  }
  return dedupe(out);
}

// --- internal ---

interface Arg {
  value: string;
  /** The value is what the program gets (no unknown expansion left in it). */
  known: boolean;
  /** Spelled through `$CLAUDE_PROJECT_DIR` / `$HOOKS_PROJECT_DIR`. */
  project?: boolean;
}

const PROJECT_VARIABLE = /^\$(?:\{(?:CLAUDE|HOOKS)_PROJECT_DIR\}|(?:CLAUDE|HOOKS)_PROJECT_DIR(?![A-Za-z0-9_]))/;

/** A shell word's value, with a leading `$CLAUDE_PROJECT_DIR` / `$HOOKS_PROJECT_DIR` put in. */
function wordValue(word: ShellWord, projectDir: string): Arg {
  if (word.literal && word.glob !== true && word.alternatives === undefined) return { value: word.value, known: true };
  if (word.glob === true || word.alternatives !== undefined || word.opaque !== undefined || word.unknownCommands) return { value: word.text, known: false };
  const value = word.value.replace(PROJECT_VARIABLE, projectDir.replaceAll('$', '$$$$'));
  return value !== word.value && !/[$`]/.test(value.slice(projectDir.length)) ? { value, known: true, project: true } : { value: word.text, known: false };
}

interface Interpreter {
  /** Options after which no script comes (the code is inline, or a module by name). */
  inline: readonly string[];
  /** Options that take the next word as their value. */
  value: readonly string[];
  /** Options whose value is a Python module run by name (`-m pkg.mod`), found from the working folder. */
  module?: readonly string[];
  /** Options whose value is a file it runs too (a preload, an rc file). */
  file?: readonly string[];
  /** Subcommands before the script (`deno run`), skipped; any other first word of these is not a script. */
  subcommands?: readonly string[];
  /** Only a word spelled as a file is a script (`bun run lint` runs a package.json script). */
  fileLike?: boolean;
  js?: boolean;
}

const SHELL: Interpreter = { inline: ['-c', '-s'], value: ['-o', '+o', '-O', '+O'], file: ['--rcfile', '--init-file'] };
const PYTHON: Interpreter = { inline: ['-c', '-'], module: ['-m'], value: ['-W', '-X', '--check-hash-based-pycs'] };
const NODE: Interpreter = {
  inline: ['-e', '--eval', '-p', '--print', '-'],
  value: ['--conditions', '-C', '--input-type', '--title', '--env-file', '--inspect-port', '--stack-size', '--max-old-space-size', '--experimental-default-type', '--watch-path'],
  file: ['-r', '--require', '--import', '--loader', '--experimental-loader'],
  js: true,
};
const JS_RUNNER: Interpreter = { inline: ['-e', '--eval', '-p', '--print'], value: ['--tsconfig', '-C', '--conditions'], file: ['-r', '--require', '--import'], subcommands: ['watch'], js: true };

const INTERPRETERS: [RegExp, Interpreter][] = [
  [/^(?:sh|bash|dash|zsh|ksh|mksh|ash|yash|bash\d.*)$/, SHELL],
  [/^(?:python[\d.]*|pypy[\d.]*)$/, PYTHON],
  [/^(?:node|nodejs)$/, NODE],
  [/^(?:tsx|ts-node|ts-node-esm|esno|vite-node|jiti)$/, JS_RUNNER],
  [/^deno$/, { inline: ['eval', 'repl', '-'], value: ['-c', '--config', '--import-map', '--lock', '--cert', '--location', '--seed', '--v8-flags', '--env-file'], subcommands: ['run', 'serve', 'test'], js: true }],
  [/^bun$/, { inline: ['-e', '--eval', '-p', '--print', 'x', 'add', 'install', 'i', 'remove', 'update', 'create', 'init', 'link', 'pm', 'repl'], value: ['--cwd', '--config', '-c', '--env-file', '--preload'], file: ['-r', '--preload'], subcommands: ['run', 'test'], fileLike: true, js: true }],
  [/^perl[\d.]*$/, { inline: ['-e', '-E'], value: ['-I', '-M', '-m', '-x'] }],
  [/^ruby[\d.]*$/, { inline: ['-e'], value: ['-I', '-r', '-C', '-E', '--encoding'] }],
  [/^php[\d.]*$/, { inline: ['-r', '-a'], value: ['-c', '-d', '-z'], file: ['-f'] }],
  [/^lua[\d.]*$/, { inline: ['-e', '-', '-i'], value: ['-l'] }],
];

/** Runners of other programs: what follows their own options is a command line of its own. */
const LAUNCHERS: [RegExp, { subcommands: readonly string[]; needsSubcommand: boolean; value: readonly string[] }][] = [
  [/^npx$/, { subcommands: [], needsSubcommand: false, value: ['-p', '--package', '-c', '--call', '-w', '--workspace'] }],
  [/^npm$/, { subcommands: ['exec', 'x'], needsSubcommand: true, value: ['-p', '--package', '-c', '--call', '-w', '--workspace'] }],
  [/^(?:pnpm|yarn)$/, { subcommands: ['exec', 'dlx'], needsSubcommand: true, value: ['--filter', '-F', '-C', '--dir', '--cwd'] }],
  [/^bunx$/, { subcommands: [], needsSubcommand: false, value: ['-p', '--package'] }],
  [/^uv$/, { subcommands: ['run'], needsSubcommand: true, value: ['--with', '-p', '--python', '--project', '--directory', '--env-file', '--group', '--extra'] }],
  [/^uvx$/, { subcommands: [], needsSubcommand: false, value: ['--with', '-p', '--python', '--from'] }],
];

/** Package managers whose `run <name>` runs a script out of package.json. */
const PACKAGE_SCRIPTS = /^(?:npm|pnpm|yarn|bun)$/;
const JS_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/i;
const SCRIPT_FILE = /\.(?:py|pyw|[cm]?[jt]s|[jt]sx|sh|bash|zsh|rb|pl|pm|php|lua)$/i;

function readArgv(argv: Arg[], cwd: string, options: ReadOptions, out: CommandScripts, depth = 0): void {
  if (argv.length === 0 || depth > 4) return;
  const [program, ...rest] = argv as [Arg, ...Arg[]];
  const add = (arg: Arg, js: boolean) => {
    if (!arg.known) out.unknown.push(`${arg.value}: computed when the hook runs, so not covered`);
    else if (arg.value !== '' && arg.value !== '-') {
      out.scripts.push({ word: arg.value, file: path.resolve(cwd, arg.value), js: js || JS_FILE.test(arg.value), absolute: path.isAbsolute(arg.value) && arg.project !== true });
    }
  };
  if (!program.known) {
    out.unknown.push(`${program.value}: a program computed when the hook runs, so not covered`);
    return;
  }
  const name = programName(program.value);
  if (program.value.includes('/')) add(program, false);
  else if (program.value === '.' || program.value === 'source') {
    if (rest[0] !== undefined) add(rest[0], false);
    return;
  } else for (const file of pathCandidates(program.value, cwd, options)) out.scripts.push({ word: program.value, file, js: false, absolute: false });

  const sub = rest[0]?.value;
  if (PACKAGE_SCRIPTS.test(name) && sub !== undefined && !sub.startsWith('-') && !['exec', 'dlx', 'x', 'install', 'i', 'add', 'ci'].includes(sub) && (name !== 'bun' || !JS_FILE.test(sub))) {
    // What `npm run x` (`yarn x`, `pnpm x`, `npm test`) runs is package.json's to say.
    if (name !== 'npm' || ['run', 'run-script', 'test', 'start', 'restart', 'stop'].includes(sub)) {
      out.scripts.push({ word: 'package.json', file: path.resolve(cwd, 'package.json'), js: false, absolute: false });
      if (name !== 'bun') return;
    }
  }
  const launcher = LAUNCHERS.find(([re]) => re.test(name))?.[1];
  if (launcher !== undefined && (!launcher.needsSubcommand || (sub !== undefined && launcher.subcommands.includes(sub)))) {
    let i = 0;
    if (sub !== undefined && launcher.subcommands.includes(sub)) i++;
    for (; i < rest.length && rest[i]!.value.startsWith('-'); i++) {
      if (rest[i]!.value === '--') {
        i++;
        break;
      }
      if (launcher.value.includes(rest[i]!.value)) i++;
    }
    const next = rest.slice(i);
    // `npx ./x.js`, `uv run x.py`: a file to run; a bare name is a package's program, not the project's.
    if (next[0] !== undefined && next[0].known && !next[0].value.includes('/') && SCRIPT_FILE.test(next[0].value)) add(next[0], false);
    else readArgv(next, cwd, { ...options, path: undefined }, out, depth + 1);
    return;
  }
  const interpreter = INTERPRETERS.find(([re]) => re.test(name))?.[1];
  if (interpreter === undefined) return;
  let subcommandSeen = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, attached] = splitOption(arg.value);
    if (interpreter.inline.includes(arg.value) || interpreter.inline.includes(flag)) return;
    if (interpreter.module?.includes(flag)) {
      const value = attached === undefined ? rest[i + 1] : { value: attached, known: arg.known };
      if (value === undefined) return;
      if (!value.known) out.unknown.push(`-m ${value.value}: a module computed when the hook runs, so not covered`);
      else (out.pythonModules ??= []).push({ name: value.value, cwd });
      return;
    }
    if (interpreter.file?.includes(flag)) {
      const value = attached === undefined ? rest[++i] : { value: attached, known: arg.known };
      // A JS preload named as a package (`-r dotenv/config`) is not the project's.
      if (value !== undefined && (interpreter.js !== true || value.value.startsWith('.') || value.value.startsWith('/') || !value.known)) add(value, interpreter.js === true);
      continue;
    }
    if (interpreter.value.includes(flag)) {
      if (attached === undefined) i++;
      continue;
    }
    if (arg.value === '--') {
      if (rest[i + 1] !== undefined) add(rest[i + 1]!, interpreter.js === true);
      return;
    }
    if (arg.value.startsWith('-') && arg.value.length > 1) {
      // Bundled short options (`python3 -uc 'code'`, `bash -ec 'x'`): an inline one among them.
      if (/^-[A-Za-z]+$/.test(arg.value) && [...arg.value.slice(1)].some((c) => interpreter.inline.includes(`-${c}`) || interpreter.module?.includes(`-${c}`) === true)) return;
      continue;
    }
    if (!subcommandSeen && interpreter.subcommands?.includes(arg.value)) {
      subcommandSeen = true;
      continue;
    }
    if (interpreter.fileLike === true && arg.known && !arg.value.includes('/') && !SCRIPT_FILE.test(arg.value)) return;
    add(arg, interpreter.js === true);
    return;
  }
}

/** `--import=./x.mjs` → [`--import`, `./x.mjs`]; `-W error` stays whole; `-Werror` → [`-W`, `error`]. */
function splitOption(value: string): [string, string | undefined] {
  const eq = value.indexOf('=');
  if (value.startsWith('--') && eq > 2) return [value.slice(0, eq), value.slice(eq + 1)];
  if (/^-[A-Za-z]./.test(value) && !value.startsWith('--')) return [value.slice(0, 2), value.slice(2)];
  return [value, undefined];
}

/**
 * A bare program through a PATH that points into the project (`defaults.env.PATH: "./bin:..."`): every
 * place it could be found there, up to the first directory of the PATH outside the project... all of
 * them, since which one wins depends on what exists.
 */
function pathCandidates(name: string, cwd: string, options: ReadOptions): string[] {
  if (options.path === undefined || name === '') return [];
  const out: string[] = [];
  for (const entry of options.path.split(':')) {
    const dir = path.resolve(cwd, entry === '' ? '.' : entry);
    const rel = path.relative(options.projectDir, dir);
    if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) continue;
    out.push(path.join(dir, name));
  }
  return out;
}

function dedupe(out: CommandScripts): CommandScripts {
  const seen = new Map<string, ScriptRef>();
  for (const s of out.scripts) {
    const had = seen.get(s.file);
    if (had === undefined) seen.set(s.file, s);
    else had.js ||= s.js;
  }
  return { scripts: [...seen.values()], unknown: [...new Set(out.unknown)], ...(out.pythonModules === undefined ? {} : { pythonModules: out.pythonModules }) };
}
