// The files a shell command reads or writes, as sensitive-paths sees them. Built on the shell
// layer's parse (wrappers, `bash -c`, `$( )`, `xargs`, `find -exec` already unwrapped); this file
// decides, per program, which words are files, which are only mentions (`echo .env`, the pattern
// of `grep id_rsa docs/`, `find . -name .env`), and whether a file is read or written.
import { analyzeShell } from '../shell/analyze.js';
import { readOptions } from '../shell/options.js';
import { isInterpreter, programName } from '../shell/program.js';
import type { ShellWord, SimpleCommand } from '../shell/types.js';
import { staticPrint } from '../shell/word-value.js';
import type { Access } from './judge.js';
import { codeMention } from './unresolved.js';
import { bareLiterals, type CodeLanguage, type EvaluatedCode, evaluateCode, interpolations, UNKNOWN } from './code-strings.js';
import { RUNNER_VARIABLE, runnerCommandStart, selfCommandRule } from './self-commands.js';
import { findRoots, staticStdout } from '../shell/code-runners.js';

export interface Target {
  path: string;
  access: Access;
  /** Working directory the path is relative to, when a `cd` earlier in the command fixed it (`~` allowed). */
  cwd?: string;
  /** Read with everything below it, hidden files included (`grep -r`, `tar c`, `cp -r`, `zip -r`). */
  recursive?: boolean;
  /** The word had an expansion the shell layer could not evaluate (`${HOME%/}`, `$PWD`, `$X`). */
  unresolved?: boolean;
  /** Interpreter code that names a protected place (`path` is the name): judged as self-protection. */
  mention?: boolean;
  /** A glob of what `find` walks: `*` and `**` match hidden names too. */
  dotGlob?: boolean;
  /** A command that switches the guards off without naming a protected file (`npm uninstall -g agent-hooks`): why. */
  rule?: string;
}

export type ShellTargets = { ok: true; targets: Target[] } | { ok: false; error: string; targets: Target[] };

/** Programs whose arguments are text, not files: their words are mentions. */
const MENTIONS = new Set(['echo', 'printf', 'print', 'true', 'false', ':', 'which', 'type', 'whereis', 'man', 'help', 'info', 'export', 'unset', 'declare', 'typeset', 'local', 'readonly', 'set', 'shift', 'return', 'exit', 'alias', 'unalias', 'hash', 'command', 'tldr', 'say', 'notify-send', 'logger', 'git-commit', 'sleep', 'seq', 'expr', 'let']);

/** Programs that look at names and metadata, never contents: listing `~/.ssh` is not reading a key. */
const METADATA = new Set(['ls', 'dir', 'vdir', 'exa', 'eza', 'lsd', 'tree', 'stat', 'file', 'test', '[', '[[', 'du', 'df', 'realpath', 'readlink', 'basename', 'dirname', 'cd', 'pushd', 'popd', 'namei', 'pwd', 'mkdir', 'locate', 'fd', 'fdfind', 'lsattr', 'getfacl', 'wait', 'jobs', 'kill']);

/** Programs that change or remove the files they name (every file word is judged as a write). */
const WRITERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'wipe', 'truncate', 'tee', 'cp', 'mv', 'install', 'ln', 'link', 'rsync', 'scp', 'chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'touch', 'patch', 'trash', 'trash-put', 'gio', 'sponge', 'rename', 'mktemp']);

/**
 * Programs that use a key without printing it (`ssh -i ~/.ssh/id_rsa host`, `ssh-add`, `ssh-keygen -f`):
 * their words are not reads. What ssh runs remotely is judged as its own command by the shell layer.
 */
const KEY_USERS = new Set(['ssh', 'ssh-add', 'ssh-keygen', 'ssh-copy-id', 'autossh', 'mosh', 'sshfs', 'ssh-agent']);

/** Option values that name a key the program only uses (`scp -i key`, `sftp -i key`). */
const KEY_OPTIONS: Record<string, string> = { scp: 'i', sftp: 'i', rsync: '' };

/** Options whose value is a file the program writes. */
const OUTPUT_OPTIONS = new Set(['-o', '-O', '--output', '--output-document', '--out', '-out', '--outfile', '--output-file', '--log-file', '-outfile', '--target-directory', '-t']);

/** Copy and move: a source lands in the destination folder under its own name. */
const COPIERS = new Set(['cp', 'mv', 'rsync', 'install', 'ln']);

const GREPS = new Set(['grep', 'egrep', 'fgrep', 'zgrep', 'zegrep', 'rg', 'ag', 'ack', 'ack-grep', 'pt', 'sift', 'ugrep', 'git-grep']);

// Options that take a value, per grep family (so the value is not mistaken for the pattern).
const RG_SHORT = 'efmABCgtTjMrEd';
const GREP_SHORT = 'efmABCdDX';
const AG_SHORT = 'efmABCGg';
const GREP_GRAMMAR = { shortWithValue: GREP_SHORT, longWithValue: ['regexp', 'file', 'max-count', 'after-context', 'before-context', 'context', 'directories', 'devices', 'glob', 'iglob', 'type', 'type-not', 'threads', 'max-depth', 'max-columns', 'replace', 'include', 'exclude', 'exclude-dir', 'label', 'color', 'colour', 'binary-files', 'encoding', 'pre', 'pre-glob', 'sort', 'sortr', 'type-add', 'path-separator', 'context-separator', 'field-match-separator', 'ignore-file', 'max-filesize', 'engine', 'dfa-size-limit', 'regex-size-limit'] };
// Of those, the options whose value is a file that grep reads.
const GREP_FILE_OPTIONS = new Set(['f', 'file', 'ignore-file']);

const URL = /^[a-z][a-z0-9+.-]*:\/\//i;
const SCP_REMOTE = /^(?:[\w.-]+@)?[\w.-]+:(?!\/\/)/;

/** Every file `command` reads or writes, with the access. Never throws. */
export function shellTargets(command: string): ShellTargets {
  const analysis = analyzeShell(command);
  if (!analysis.ok) return { ok: false, error: analysis.error, targets: roughTargets(command) };
  const targets: Target[] = [];
  for (const cmd of analysis.commands) commandTargets(cmd, targets);
  // A bare assignment runs no command, so the walker emits none: `set -a; HOOKS_DISABLE=1; claude`.
  const bare = BARE_RUNNER_ASSIGNMENT.exec(command.length > 64 * 1024 ? command.slice(0, 64 * 1024) : command);
  if (bare) targets.push({ path: bare[0].trim(), access: 'write', rule: `assigns ${bare[1]} (\`set -a\` or a later \`export\` hands it to what follows)` });
  return { ok: true, targets: withChangedDirectories(analysis.commands, targets) };
}

/** `HOOKS_X=…` where a command starts (after `;`, `&&`, `|`, `(`, a newline, `then`/`do`, other assignments, or a `-c '`). */
const BARE_RUNNER_ASSIGNMENT = /(?:^|[;&|(`\n{]|\$\(|\b(?:then|do|else)\s|-c\s+['"])\s*(?:[A-Za-z_]\w*=(?:'[^']*'|"[^"]*"|[^\s;&|'"])*\s+)*((?:AGENT_)?HOOKS_[A-Za-z0-9_]*)=/;

/**
 * The shell layer tracks `cd` only to absolute or home paths. After `cd .claude` or `cd sub/.aws`
 * a relative file could live in either place, so relative targets are judged in both: the event's
 * directory and every directory the command changes into (`cd .claude && echo {} > settings.json`).
 */
function withChangedDirectories(commands: SimpleCommand[], targets: Target[]): Target[] {
  const dirs: string[] = [];
  // `cd "$XDG_CONFIG_HOME"; echo > agent-hooks/config.json`: the shell layer loses the directory,
  // so a relative target is also judged as written below the unevaluated word.
  const unknownDirs: string[] = [];
  let current = '';
  for (const cmd of commands) {
    if (cmd.argv[0] !== 'cd' && cmd.argv[0] !== 'pushd') continue;
    const word = cmd.words.slice(1).find((w) => !/^-[LPe@]+$/.test(w.value));
    if (word && (!word.literal || word.opaque !== undefined || word.value === '-' || /^~[+-](?:\/|$)/.test(word.value))) {
      const dir = word.value === '-' ? '$OLDPWD' : word.value.replace(/\/+$/, '');
      if (unknownDirs.length < 8 && !unknownDirs.includes(dir)) unknownDirs.push(dir);
      continue;
    }
    if (!word || !word.literal || word.value === '-' || word.value.startsWith('/') || word.value.startsWith('~')) continue;
    current = current === '' ? word.value : `${current}/${word.value}`;
    if (!dirs.includes(current)) dirs.push(current);
    if (!dirs.includes(word.value)) dirs.push(word.value);
    if (dirs.length >= 8) break;
  }
  if (dirs.length === 0 && unknownDirs.length === 0) return targets;
  const extra: Target[] = [];
  for (const t of targets) {
    if (t.mention || t.rule !== undefined || t.path.startsWith('/') || t.path.startsWith('~') || t.path.startsWith('$')) continue;
    for (const dir of unknownDirs) extra.push({ path: `${dir}/${t.path}`, access: t.access, unresolved: true, ...(t.recursive ? { recursive: true } : {}) });
    if (t.cwd !== undefined) continue;
    for (const dir of dirs) extra.push({ ...t, cwd: dir });
  }
  return [...targets, ...extra];
}

function commandTargets(cmd: SimpleCommand, out: Target[]): void {
  const at = cmd.cwd !== undefined ? { cwd: cmd.cwd } : {};
  const recursive = recursiveReader(cmd.argv) ? { recursive: true } : {};
  const add = (path: string, access: Access, unresolved = false): void => {
    for (const candidate of pathsOf(path, cmd)) out.push({ path: candidate, access, ...at, ...(access === 'read' ? recursive : {}), ...(unresolved ? { unresolved } : {}) });
  };
  const addWord = (word: ShellWord, access: Access): void => {
    const unresolved = !word.literal || word.opaque !== undefined;
    add(word.value, access, unresolved);
    // `cat "$(ls .env*)"`, `cat $(find . -name .env)`: what a listing or an echo prints is read by the outer command.
    if (word.unknownCommands) for (const sub of word.subCommands) printedNames(sub, access, add);
    // `${X:=.env}`, `${X:-~/.ssh/id_rsa}`: what the word is when the unknown part takes its default.
    if (word.collapsed !== undefined && word.collapsed !== word.value && word.collapsed !== '') add(word.collapsed, access, unresolved);
  };

  for (const redirect of cmd.redirects) {
    if (!redirect.word || redirect.op.startsWith('<<')) continue;
    if (/^&?\d*-?$/.test(redirect.target) || (redirect.op.includes('&') && /^\d+-?$/.test(redirect.target))) continue;
    const access: Access = redirect.op === '<' || redirect.op === '<&' ? 'read' : 'write';
    addWord(redirect.word, access);
  }
  interpreterTargets(cmd, out, at);
  const rule = selfCommandRule(cmd) ?? variableWritten(cmd);
  if (rule !== undefined) out.push({ path: cmd.source, access: 'write', rule, ...at });

  const program = cmd.argv[0];
  if (program === undefined) return;
  const words = cmd.words.slice(1);
  if (cmd.dynamicProgram) {
    for (const word of words) addWord(word, 'read');
    return;
  }
  const name = programName(program);
  const selfWrite = agentHooksWrite(cmd.argv);
  if (selfWrite !== undefined) add(selfWrite, 'write');
  handedToWriter(cmd, add);
  if (MENTIONS.has(name) || METADATA.has(name) || KEY_USERS.has(name)) return;
  if (name === 'git') return gitTargets(cmd, addWord);
  if (GREPS.has(name)) return grepTargets(cmd, words, addWord);
  if (name === 'find') return findTargets(cmd, out, add, at);
  if (name === 'base64' || name === 'openssl') decodedTargets(cmd, add);
  const access: Access = isWriter(name, cmd.argv) ? 'write' : 'read';
  const keyOption = KEY_OPTIONS[name];
  // A link's targets are not changed by making it (`ln -s /usr/local/bin/python3 .venv/bin/python`): only the link is written.
  const lastOperand = name === 'ln' || name === 'link' ? words.findLastIndex((w) => !isOptionWord(w.value)) : -1;
  for (const [i, word] of words.entries()) {
    if (keyOption && i > 0 && words[i - 1]!.value === `-${keyOption}`) continue;
    if (lastOperand !== -1 && i < lastOperand && !isOptionWord(word.value) && !(i > 0 && OUTPUT_OPTIONS.has(words[i - 1]!.value))) {
      addWord(word, 'read');
      continue;
    }
    // `curl -o F`, `wget -O F`, `sort -o F`, `openssl ... -out F`, `--output=F`: the program writes F.
    if (i > 0 && OUTPUT_OPTIONS.has(words[i - 1]!.value)) {
      addWord(word, 'write');
      continue;
    }
    const output = /^--(?:output|output-document|out|outfile|output-file|log-file)=(.+)$/s.exec(word.value);
    if (output) {
      add(output[1]!, 'write');
      continue;
    }
    if (isOptionWord(word.value)) {
      // `--file=.env`, `--upload-file=.env`: the value after `=` names a file.
      const eq = /^--?[A-Za-z][\w-]*=(.+)$/s.exec(word.value);
      if (eq) add(eq[1]!, access);
      continue;
    }
    addWord(word, access);
  }
  if (COPIERS.has(name)) copiedInto(words, add);
}

function printedNames(sub: SimpleCommand, access: Access, add: (p: string, a: Access) => void): void {
  const name = programName(sub.argv[0] ?? '');
  if (name === 'find') {
    const words = sub.words.slice(1);
    for (let i = 0; i < words.length; i++) {
      const v = words[i]!.value;
      if (v.startsWith('-') || v === '(' || v === '!') break;
      add(v, access);
    }
    sub.argv.forEach((a, i) => {
      if (/^-i?name$/.test(a) && sub.argv[i + 1] !== undefined) add(sub.argv[i + 1]!, access);
    });
    return;
  }
  if (!MENTIONS.has(name) && !METADATA.has(name)) return;
  for (const word of sub.words.slice(1)) if (!isOptionWord(word.value)) add(word.value, access);
}

/** `cp -r x/.claude .` writes `./.claude`: each source's name is judged inside the destination. */
function copiedInto(words: ShellWord[], add: (p: string, a: Access) => void): void {
  const operands = words.filter((w) => !isOptionWord(w.value)).map((w) => w.value);
  if (operands.length < 2) return;
  const destination = operands.at(-1)!.replace(/\/+$/, '') || '/';
  for (const source of operands.slice(0, -1).slice(0, 64)) {
    const name = source.replace(/\/+$/, '').split('/').pop();
    if (name && name !== '.' && name !== '..') add(`${destination}/${name}`, 'write');
  }
}

/**
 * `hooks trust --yes`, `hooks install`, `hooks uninstall` run by the agent would trust a config it
 * just edited or rewrite an agent's hook settings: judged as a write of the file they change.
 */
function agentHooksWrite(argv: string[]): string | undefined {
  const i = runnerCommandStart(argv);
  if (i === -1) return undefined;
  const sub = argv.slice(i + 1).find((a) => !a.startsWith('-'));
  if (sub === 'trust' || sub === 'untrust') return argv.includes('--list') ? undefined : '~/.local/state/agent-hooks/trust.json';
  if (sub === 'install' || sub === 'uninstall') return '~/.claude/settings.json';
  return undefined;
}

const RUNNER_ASSIGNMENT = /(?:^|[\s"'`;=])(?:export\s+|declare\s+-x\s+|setenv\s+|Environment=["']?)?((?:AGENT_)?HOOKS_[A-Za-z0-9_]*)[=\s]/m;

/**
 * `echo 'export HOOKS_DISABLE=1' >> ~/.profile.d/x.sh`, `printf 'Environment=HOOKS_DISABLE=1' | tee unit.conf`:
 * text that sets a runner variable written into any file, which something may source later.
 */
function variableWritten(cmd: SimpleCommand): string | undefined {
  const writes = cmd.redirects.some((r) => r.word !== undefined && !r.op.startsWith('<') && !/^&?\d*-?$/.test(r.target)) || ['tee', 'sponge', 'dd'].includes(programName(cmd.argv[0] ?? ''));
  if (!writes) return undefined;
  const texts = [staticStdout(cmd), cmd.pipedFrom.length === 1 ? staticStdout(cmd.pipedFrom[0]!) : undefined];
  for (const text of texts) {
    const m = text === undefined ? null : RUNNER_ASSIGNMENT.exec(text);
    if (m && RUNNER_VARIABLE.test(m[1]!)) return `writes a ${m[1]} setting into a file`;
  }
  return undefined;
}

/**
 * Programs that read whole folders, hidden files included: `grep -r TOKEN ~` prints
 * `~/.aws/credentials`. ripgrep and ag skip hidden files unless told (`--hidden`, `-uu`).
 */
function recursiveReader(argv: string[]): boolean {
  const name = programName(argv[0] ?? '');
  const args = argv.slice(1);
  const cluster = (letters: string) => args.some((a) => /^-[a-zA-Z]+$/.test(a) && [...letters].some((l) => a.includes(l)));
  switch (name) {
    case 'grep': case 'egrep': case 'fgrep': case 'zgrep': case 'ugrep':
      return cluster('rR') || args.includes('--recursive') || args.includes('--dereference-recursive') || args.some((a, i) => (a === '-d' && args[i + 1] === 'recurse') || a === '--directories=recurse');
    case 'rg': case 'ag': case 'pt':
      return args.some((a) => a === '--hidden' || a === '-.' || /^-u{2,}$/.test(a) || a === '--unrestricted' || (name === 'ag' && a === '-u'));
    case 'tar': case 'bsdtar': case 'gtar':
      return args.some((a, i) => a === '--create' || a === '--append' || /^-?[a-zA-Z]*[cr][a-zA-Z]*$/.test(a) && (i === 0 || a.startsWith('-')));
    case 'zip':
      return cluster('rR') || args.includes('--recurse-paths');
    case '7z': case '7za': case '7zz':
      return args[0] === 'a' || args[0] === 'u';
    case 'cp': case 'scp': case 'rsync': case 'gcp':
      return cluster('rRa') || args.includes('--recursive') || args.includes('--archive');
    default:
      return false;
  }
}

/** A word that may name a file, with the forms that point at one: `@file`, `key=value`, `file://`, `a:b`. */
function pathsOf(word: string, cmd: SimpleCommand): string[] {
  if (word === '' || word.length > 4096 + 100) return word === '' ? [] : [word];
  const out: string[] = [];
  const push = (p: string): void => {
    if (p !== '' && !out.includes(p)) out.push(p);
  };
  let w = word;
  // curl -d @.env, -F file=@.env, gh api -F f=@x: `@` reads the file.
  const at = /^(?:[\w.-]+=)?[<@]([^@].*)$/s.exec(w);
  if (at) push(at[1]!);
  const assign = /^[A-Za-z_][\w.-]*=(.*)$/s.exec(w);
  if (assign) w = assign[1]!;
  if (URL.test(w)) {
    // A URL is not a relative path; only file:// names a local file.
    if (/^file:\/\//i.test(w)) push(w);
    return out;
  }
  push(w);
  if (w.includes(':')) {
    const program = cmd.argv[0] ?? '';
    // `host:path` of scp/rsync is a remote file, `-v ~/.ssh:/root/.ssh` and `HEAD:.env` name local ones.
    const remote = (program === 'scp' || program === 'rsync' || program === 'sftp') && SCP_REMOTE.test(w);
    if (!remote) for (const part of w.split(':')) push(part);
  }
  return out;
}

function isOptionWord(value: string): boolean {
  return value.startsWith('-') && value !== '-' && !value.startsWith('--=');
}

function isWriter(name: string, argv: string[]): boolean {
  if (WRITERS.has(name)) return true;
  if (name === 'dd') return argv.some((a) => a.startsWith('of='));
  if (name === 'sed' || name === 'gsed') return argv.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'));
  if (name === 'perl' || name === 'ruby') return argv.some((a) => /^-[a-zA-Z]*i/.test(a));
  if (name === 'unzip') return true;
  if (/^[gnm]?awk$/.test(name)) return argv.some((a, i) => (a === '-i' && argv[i + 1] === 'inplace') || a === '-iinplace' || a === '--inplace');
  // `tar xf a.tgz` / `tar -xzf`: the mode is the first word or an option cluster, never a file name (`x.tgz`).
  if (name === 'tar' || name === 'bsdtar' || name === 'gtar') return argv.some((a, i) => /^-?[a-zA-Z]*x[a-zA-Z]*$/.test(a) && (i === 1 || a.startsWith('-'))) || argv.includes('--extract') || argv.includes('--get');
  if (name === 'sqlite3' || name === 'vim' || name === 'vi' || name === 'nano' || name === 'emacs' || name === 'code' || name === 'ed' || name === 'ex') return true;
  return false;
}

/** `grep [opts] PATTERN FILE...`: the pattern is a mention; `-e`/`-f` move it into options. */
function grepTargets(cmd: SimpleCommand, words: ShellWord[], addWord: (w: ShellWord, a: Access) => void): void {
  const argv = cmd.argv.slice(1);
  const program = programName(cmd.argv[0] ?? '');
  const short = program === 'rg' ? RG_SHORT : program === 'ag' || program === 'pt' ? AG_SHORT : GREP_SHORT;
  const grammar = { ...GREP_GRAMMAR, shortWithValue: short };
  const parsed = readOptions(argv, 0, grammar);
  for (const option of parsed.options) {
    if (GREP_FILE_OPTIONS.has(option.name) && option.value !== undefined) addWord(wordFor(words, option.value), 'read');
  }
  const patternGiven = parsed.options.some((o) => o.name === 'e' || o.name === 'regexp' || o.name === 'f' || o.name === 'file');
  // Options may also follow operands (GNU getopt permutes), so later option words are skipped too.
  const operands = words.slice(parsed.next).filter((w, i, all) => !isOptionWord(w.value) && !takesValue(all[i - 1]?.value, short));
  const files = patternGiven || argv.includes('--files') || argv.includes('--type-list') ? operands : operands.slice(1);
  for (const word of files) addWord(word, 'read');
}

function takesValue(previous: string | undefined, short: string): boolean {
  if (previous === undefined || !previous.startsWith('-') || previous.includes('=')) return false;
  if (previous.startsWith('--')) return GREP_GRAMMAR.longWithValue.includes(previous.slice(2));
  return previous.length === 2 && short.includes(previous[1]!);
}

function wordFor(words: ShellWord[], value: string): ShellWord {
  return words.find((w) => w.value === value) ?? { value, literal: true, collapsed: value, unknownVars: false, unknownCommands: false, processSubstitution: false, subCommands: [], text: value };
}

/** git: `git show HEAD:.env` and `git add .env` read; messages, refs and `git rm --cached` do not. */
function gitTargets(cmd: SimpleCommand, addWord: (w: ShellWord, a: Access) => void): void {
  const argv = cmd.argv;
  let i = 1;
  while (i < argv.length && argv[i]!.startsWith('-')) i += argv[i] === '-C' || argv[i] === '-c' || argv[i] === '--git-dir' || argv[i] === '--work-tree' ? 2 : 1;
  const sub = argv[i];
  if (sub === undefined) return;
  if (['commit', 'tag', 'log', 'status', 'branch', 'switch', 'push', 'pull', 'fetch', 'clone', 'remote', 'config', 'stash', 'reset', 'rebase', 'merge', 'init', 'describe', 'rev-parse', 'ls-files', 'check-ignore', 'grep', 'notes', 'worktree', 'submodule', 'cherry-pick', 'revert', 'bisect', 'shortlog', 'reflog', 'blame', 'clean'].includes(sub)) return;
  if (sub === 'rm' && argv.includes('--cached')) return;
  // `git checkout rev -- .claude/settings.json` and `git restore` rewrite the files they name.
  const access: Access = sub === 'rm' || sub === 'mv' || sub === 'checkout' || sub === 'restore' ? 'write' : 'read';
  const words = cmd.words.slice(i + 1);
  for (const word of words) {
    if (isOptionWord(word.value)) continue;
    addWord(word, access);
  }
}

/**
 * `find` names start folders (listed, not read) and patterns (`-name .env`): a pattern becomes a
 * read only when find hands the matches to a command (`-exec`, `-delete`, `| xargs`). When that
 * command may write (anything but a known reader: `truncate`, `sh -c '… > "$1"'`, `sed -i`), the
 * matches are written: below each start folder, any file with the `-name` (hidden folders
 * included, as find walks them), or the whole folder when no name narrows it.
 */
function findTargets(cmd: SimpleCommand, out: Target[], add: (p: string, a: Access) => void, at: { cwd?: string }): void {
  const argv = cmd.argv;
  const handed = [...execCommands(argv), ...cmd.pipedTo.filter(runsOnInput).map((c) => c.argv)];
  const deletes = argv.includes('-delete');
  if (!deletes && handed.length === 0) return;
  const access: Access = deletes || handed.some(mayWrite) ? 'write' : 'read';
  const roots = findRoots(cmd.words).map((w) => w.value);
  const names: string[] = [];
  let narrowed = true;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (/^-(?:exec|execdir|ok|okdir)$/.test(a)) {
      while (i < argv.length && argv[i] !== ';' && argv[i] !== '+') i++;
      continue;
    }
    if (/^-i?name$/.test(a) && argv[i + 1] !== undefined) names.push(argv[++i]!);
    else if (/^-i?(?:path|wholename)$/.test(a) && argv[i + 1] !== undefined) {
      const pattern = argv[++i]!;
      for (const root of roots) add(pattern.includes('/') ? pattern : `${root.replace(/\/+$/, '')}/${pattern}`, access);
      narrowed = false;
    } else if (/^-(?:o|or|not|!)$/.test(a) || a === '!' || /^-i?(?:path|wholename|regex|lname)$/.test(a)) narrowed = false;
  }
  for (const root of roots) {
    const base = root.replace(/\/+$/, '') || '/';
    for (const pattern of names) {
      add(`${base}/${pattern}`, access);
      // Below a folder the guard cannot resolve, a wildcard name (`find "$TMPDIR" -name 'x*'`) would be judged as found anywhere in the home.
      const unknownRoot = /[$`]/.test(base);
      if (access === 'write' && !(unknownRoot && hasWildcard(pattern))) out.push({ path: `${base === '/' ? '' : base}/**/${pattern}`, access, dotGlob: true, ...(unknownRoot ? { unresolved: true } : {}), ...at });
    }
    if (access === 'write' && (names.length === 0 || !narrowed)) add(base, 'write');
  }
}

function hasWildcard(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

/** The commands of `-exec … ;`, `-execdir … +`, `-ok`, `-okdir`. */
function execCommands(argv: readonly string[]): string[][] {
  const commands: string[][] = [];
  for (let i = 1; i < argv.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(argv[i]!)) continue;
    const start = i + 1;
    while (i < argv.length && argv[i] !== ';' && argv[i] !== '+') i++;
    if (i > start) commands.push(argv.slice(start, i));
  }
  return commands;
}

/** A later pipeline stage that takes this one's output as its arguments (`| xargs cmd`, `| parallel cmd`). */
function runsOnInput(c: SimpleCommand): boolean {
  return c.stdinArguments || c.wrappers.includes('xargs') || c.wrappers.includes('parallel');
}

/** Programs that only read the files they are handed (with no output option). */
const READERS = new Set(['cat', 'head', 'tail', 'wc', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'diff', 'cmp', 'jq', 'yq', 'less', 'more', 'strings', 'od', 'xxd', 'hexdump', 'nl', 'sort', 'uniq', 'cut', 'tr', 'column', 'bat', 'batcat', 'sed', 'gsed', 'awk', 'gawk', 'mawk', 'nawk', 'perl', 'ruby', 'zcat', 'bzcat', 'xzcat', 'zless', 'fold', 'fmt', 'pr', 'tac', 'rev', 'expand', 'unexpand', 'iconv', 'base64', 'shasum', 'readelf', 'objdump', 'nm', 'ldd', 'identify', 'exiftool', 'pdftotext', 'git']);

/** Whether a command handed files by find or xargs may change them: anything but a known reader. */
function mayWrite(argv: readonly string[]): boolean {
  const name = programName(argv[0] ?? '');
  if (GREPS.has(name) || MENTIONS.has(name) || METADATA.has(name) || name === 'find') return false;
  if (!READERS.has(name)) return true;
  if (isWriter(name, argv as string[])) return true;
  if (/^(?:[gnm]?awk|perl|ruby)$/.test(name)) {
    // Their code may open a file for writing (`print > $0`, `open(F, '>', $ARGV[0])`).
    const code = argv.slice(1).find((a) => !a.startsWith('-')) ?? '';
    if (/>|\bsystem\b|\bopen\b|\bunlink\b|\brename\b|\bwrite\b/.test(code)) return true;
  }
  if (name === 'git') return !/^(?:log|show|diff|blame|status|ls-files|grep|cat-file|check-ignore|hash-object)$/.test(argv[1] ?? '');
  return argv.some((a, i) => i > 0 && (OUTPUT_OPTIONS.has(a) || /^--(?:output|output-file)=/.test(a)));
}

/**
 * `ls ~/.config/agent-hooks/config.json | xargs truncate -s0`, `grep -rl x ~/.config | parallel sed -i …`:
 * what a command prints is handed to a writer, so the files and folders it names are written.
 */
function handedToWriter(cmd: SimpleCommand, add: (p: string, a: Access) => void): void {
  if (cmd.pipedTo.length === 0 || programName(cmd.argv[0] ?? '') === 'find') return;
  if (!cmd.pipedTo.some((c) => runsOnInput(c) && mayWrite(c.argv))) return;
  for (const word of cmd.words.slice(1)) if (!isOptionWord(word.value)) add(word.value, 'write');
}

/** `$(echo LmVudg== | base64 -d)`: a path hidden in base64 is judged once decoded. */
function decodedTargets(cmd: SimpleCommand, add: (p: string, a: Access) => void): void {
  if (!cmd.argv.some((a) => a === '-d' || a === '--decode' || a === '-D')) return;
  const source = cmd.pipedFrom.length === 1 && cmd.pipedFrom[0]!.words.every((w) => w.literal) ? staticPrint(cmd.pipedFrom[0]!.argv) : undefined;
  const text = source ?? cmd.redirects.find((r) => r.op === '<<<')?.body;
  if (text === undefined || text.length > 4096) return;
  const decoded = Buffer.from(text.trim(), 'base64').toString('utf8');
  if (/^[\x20-\x7e]+$/.test(decoded)) for (const part of decoded.split(/\s+/)) add(part, 'read');
}

// --- code given to interpreters ---

const CODE_FLAGS = /^-(?:[a-zA-Z]*[ceErpx]|-eval|-print|-command)$/;
const STRING_LITERAL = /(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g;
const WRITE_HINT = /\b(?:write\w*|writeFile|writeFileSync|appendFile\w*|unlink\w*|remove|rmSync|rmtree|rename\w*|replace|truncate|touch|chmod|copy\w*|move|mkdir|dump|save|put_contents|symlink\w*|link|spit)\b|\bopen\s*\(.*?,\s*['"][wax+]|File\.open\(.*?['"][wax]|>>?\s*\$?\w/;

/** `python3 -c "open('.env')"`, `node -e`, heredocs and piped code: string literals that name files. */
function interpreterTargets(cmd: SimpleCommand, out: Target[], at: { cwd?: string }): void {
  const program = cmd.argv[0];
  if (program === undefined || cmd.dynamicProgram) return;
  const name = programName(program);
  const awk = /^[gnm]?awk$/.test(name);
  if (!isInterpreter(name) && !awk) return;
  const codes: string[] = [];
  cmd.argv.forEach((a, i) => {
    if (i > 0 && CODE_FLAGS.test(a) && cmd.argv[i + 1] !== undefined) codes.push(cmd.argv[i + 1]!);
    // `node --eval=CODE`, `python3 -c CODE`'s cousins spelled as one word.
    const joined = i > 0 ? /^--(?:eval|print|command)=(.+)$/s.exec(a) : null;
    if (joined) codes.push(joined[1]!);
  });
  if (awk) {
    const first = cmd.argv.slice(1).find((a) => !a.startsWith('-'));
    if (first !== undefined) codes.push(first);
  }
  for (const r of cmd.redirects) if (r.body !== undefined) codes.push(r.body);
  if (cmd.pipedFrom.length === 1 && cmd.pipedFrom[0]!.words.every((w) => w.literal)) {
    const printed = staticPrint(cmd.pipedFrom[0]!.argv);
    if (printed !== undefined) codes.push(printed);
  }
  // `python3 -c "open(sys.argv[1], 'w')" ~/.config/agent-hooks/config.json`: an argument handed to
  // code may be written by it, so agent-hooks' own files named there count as mentions too.
  for (const word of cmd.argv.slice(1, 257)) {
    if (word.length > 4096 || codes.includes(word)) continue;
    const mention = codeMention(word, false);
    if (mention !== undefined) {
      out.push({ path: mention, access: 'write', mention: true, ...at });
      break;
    }
  }
  const language = codeLanguage(name);
  // `node -e 'console.log(`${require("fs").readFileSync(".env")}`)'`: the read sits in an
  // interpolation, which the literal scanner takes for part of one string; judge its code on its own.
  for (const code of [...codes]) {
    if (code.length > 64 * 1024) continue;
    const found = interpolations(code);
    codes.push(...found.bodies);
    if (found.overflow) out.push({ path: code.slice(0, 200), access: 'write', rule: 'interpreter code with more nested code than the guard can judge', ...at });
  }
  for (const code of codes) {
    if (code.length > 64 * 1024) continue;
    // Code can build a path in ways no literal shows (`os.environ['HOME'] + '/.config/agent-hooks/...'`)
    // and we cannot tell its reads from its writes: naming agent-hooks' own files at all is enough.
    const writes = WRITE_HINT.test(code);
    const access: Access = writes ? 'write' : 'read';
    const evaluated = evaluateCode(code, language);
    const mention = codeMention(evaluated.text, writes) ?? codeMention(code, writes);
    if (mention !== undefined) out.push({ path: mention, access: 'write', mention: true, ...at });
    // Code that only prints (`node -e 'console.log(".env")'`) names a path it cannot open: with no
    // file, process, import or eval API in the code outside its literals, its strings are data.
    if (!writes && printsOnly(code, language)) continue;
    const literals = new Set([...code.matchAll(STRING_LITERAL)].map((m) => m[2]!));
    for (const literal of bareLiterals(code)) literals.add(literal);
    for (const literal of literals) {
      if (literal === '' || literal.length > 1024 || /[\n\r]/.test(literal)) continue;
      out.push({ path: literal.replace(/\\(.)/g, '$1'), access, ...at });
    }
    for (const string of evaluated.strings.slice(0, 512)) {
      if (!string.complete || string.value === '' || string.value.length > 1024 || /[\n\r]/.test(string.value)) continue;
      out.push({ path: string.value, access, ...at });
    }
    if (writes) {
      const doubt = unruledOut(evaluated);
      if (doubt !== undefined) out.push({ path: code.slice(0, 200), access: 'write', rule: doubt, ...at });
    }
  }
}

/**
 * Print calls whose arguments are only string literals: `console.log(".env")`, `print(".env", "x")`,
 * `puts ".env"`, `say "a" . "b"`; `;`/newline-separated, or one bare literal expression (`node -p`).
 * An allow-list on purpose: a deny-list of IO words missed what a runtime hands out as globals
 * (`vm.runInThisContext("require")` in `node -e`), and no list of such words is ever complete.
 */
const PRINT_ARGS = String.raw`\x01(?:\s*[+.,]\s*\x01)*`;
const PRINT_STATEMENT = String.raw`(?:(?:console\.(?:log|error|info|warn)|print|puts|say)\s*(?:\(\s*(?:${PRINT_ARGS})?\s*\)|\s+${PRINT_ARGS})|${PRINT_ARGS})`;
const PRINTS_ONLY = new RegExp(String.raw`^\s*${PRINT_STATEMENT}(?:\s*[;\n]\s*${PRINT_STATEMENT})*\s*;?\s*$`);

function printsOnly(code: string, language: CodeLanguage): boolean {
  if (language === 'other' || language === 'php') return false;
  // Interpolation runs code inside a literal: f"{open('.env')}", `${require('fs')…}`, "#{File.read …}", "@{[ … ]}".
  if (/[{`$@]/.test(code)) return false;
  // Each literal becomes one token, so the shape left is the code's own: it must be print calls of literals only.
  return PRINTS_ONLY.test(code.replace(STRING_LITERAL, ' \u0001 '));
}

function codeLanguage(program: string): CodeLanguage {
  if (/^(?:python|pypy)/.test(program)) return 'python';
  if (/^(?:node|nodejs|bun|deno)$/.test(program)) return 'js';
  if (/^perl/.test(program)) return 'perl';
  if (/^ruby/.test(program)) return 'ruby';
  if (/^php/.test(program)) return 'php';
  return 'other';
}

/**
 * Fragments of agent-hooks' places (and of what decides whether it runs) in code that writes: a
 * string the guard could not evaluate into a whole path may be one piece of `~/.config/agent-hooks/…`.
 */
const FRAGMENTS = /agent|(?<![a-z])hooks?(?![a-z])|\.config|trust|\.local|state\/|\/state|systemd|launchagents|node_modules|\.bin\b|gitconfig|hookspath|\.git\/config|\.claude|\.codex|\.gemini|\.cursor|\.copilot|opencode|serve\.pid|\.service/i;

/** Why code that writes cannot be ruled out as a write to a protected place, or undefined. */
function unruledOut(evaluated: EvaluatedCode): string | undefined {
  if (evaluated.unevaluated.length > 0) return `interpreter code that writes builds a string the guard cannot evaluate (${evaluated.unevaluated[0]!.replace(/\s+/g, '')}…)`;
  for (const string of evaluated.strings.slice(0, 512)) {
    const value = string.value.replaceAll(UNKNOWN, '/');
    // Spelled backwards or in base64 (`'skooh-tnega'[::-1]` through a variable, a blob decoded by a helper).
    const texts = [[...value].reverse().join('')];
    const blob = value.replace(/\s+/g, '');
    if (blob.length >= 12 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(blob)) {
      const decoded = Buffer.from(blob.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
      if (/^[\x20-\x7e]+$/.test(decoded)) texts.push(decoded);
    }
    // A whole literal path was judged as a path: what it names as written is settled.
    if (!(string.whole && string.complete)) texts.unshift(value);
    for (const text of texts) {
      const m = FRAGMENTS.exec(text);
      if (m) return `interpreter code that writes names "${m[0]}" in a string the guard cannot settle as a path (${JSON.stringify(text.replaceAll(UNKNOWN, '…').slice(0, 80))})`;
    }
  }
  return undefined;
}

// --- when the command does not parse ---

const ROUGH_WRITES = /(?:^|[^<&0-9>])>>?|>\||\b(?:tee|cp|mv|rm|install|ln|dd|rsync|truncate|chmod|chown|unlink|shred|touch)\b|\bsed\s+(?:-[a-z]*\s+)*-[a-z]*i|\bperl\s+-[a-z]*i/;

/** A rough split, so a command the parser rejects is still judged on what it names. */
export function roughTargets(command: string): Target[] {
  const text = command.length > 64 * 1024 ? command.slice(0, 64 * 1024) : command;
  const access: Access = ROUGH_WRITES.test(text) ? 'write' : 'read';
  const targets: Target[] = [];
  for (const raw of text.split(/[\s;&|<>()`]+/)) {
    const word = raw.replace(/^['"@]+|['"]+$/g, '');
    if (word === '' || (word.startsWith('-') && !word.includes('='))) continue;
    const eq = /^(?:--?[A-Za-z][\w-]*|[A-Za-z_][\w]*)=(.+)$/s.exec(word);
    if (eq) targets.push({ path: eq[1]!, access });
    if (!URL.test(word) || /^file:/i.test(word)) targets.push({ path: word, access });
    if (targets.length > 2000) break;
  }
  return targets;
}
