// Git aliases: `git p` runs whatever `alias.p` says (`push --force`, or `!shell code`). Their
// values come from git config files, from `git config alias.x …` earlier in the same command, and
// from `git -c alias.x=…`. Config files are untrusted input (an agent or a repository can write
// them): read with bounds, and anything odd is skipped rather than trusted.

/** Git's own commands: a builtin always wins over an alias of the same name. */
const BUILTINS = new Set(`add am annotate apply archive backfill bisect blame branch bugreport bundle cat-file check-attr
check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick citool clean clone column commit
commit-graph commit-tree config count-objects credential describe diagnose diff diff-files diff-index diff-tree difftool
fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch fsck gc
get-tar-commit-id grep gui hash-object help hook index-pack init instaweb interpret-trailers log ls-files ls-remote
ls-tree mailinfo mailsplit maintenance merge merge-base merge-file merge-index merge-tree mktag mktree multi-pack-index mv
name-rev notes pack-objects pack-redundant pack-refs prune prune-packed pull push range-diff read-tree rebase reflog refs
remote repack replace replay request-pull rerere reset restore rev-list rev-parse revert rm send-email send-pack shortlog
show show-branch show-index show-ref sparse-checkout stash status stripspace submodule switch symbolic-ref tag
unpack-file unpack-objects update-index update-ref update-server-info var verify-commit verify-pack verify-tag version
whatchanged worktree write-tree`.split(/\s+/));

export function isGitBuiltin(name: string): boolean {
  return BUILTINS.has(name);
}

/** Most aliases kept from one file, and the longest value: beyond that the file is not read on. */
export const MAX_ALIASES = 512;
export const MAX_ALIAS_VALUE = 8192;

/** Global options that take the next word as their value. */
const WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path', '--list-cmds', '--attr-source']);

export interface GitCall {
  /** Index of the subcommand (or alias) in argv. */
  at: number;
  /** `alias.x=value` settings given with `-c`. */
  aliases: Map<string, string>;
}

/** Where the subcommand of `git [global options] sub …` is, and the aliases its `-c` options set. */
export function gitCall(argv: readonly string[]): GitCall | undefined {
  const aliases = new Map<string, string>();
  for (let i = 1; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) return { at: i, aliases };
    if (arg === '-c') {
      const setting = /^alias\.([^=]+)=([\s\S]*)$/i.exec(argv[i + 1] ?? '');
      if (setting) aliases.set(setting[1]!.toLowerCase(), setting[2]!);
    }
    if (WITH_VALUE.has(arg)) i += 1;
  }
  return undefined;
}

/** The alias a `git config` command defines, or unsets (`value` undefined). */
export function aliasDefinition(argv: readonly string[], at: number): { name: string; value: string | undefined } | undefined {
  const operands: string[] = [];
  let unset = false;
  for (let i = at + 1; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (/^--(unset|unset-all)$/.test(arg)) unset = true;
    else if (/^(-f|--file|--blob|--type|--default|--comment|--value)$/.test(arg)) i += 1;
    else if (!arg.startsWith('-')) operands.push(arg);
  }
  // `git config set alias.x v` and `git config unset alias.x` (git 2.46+).
  if (operands[0] === 'set' || operands[0] === 'unset') {
    unset ||= operands[0] === 'unset';
    operands.shift();
  }
  const key = /^alias\.(.+)$/i.exec(operands[0] ?? '');
  if (!key) return undefined;
  const name = key[1]!.toLowerCase();
  if (unset) return { name, value: undefined };
  return operands[1] !== undefined ? { name, value: operands[1] } : undefined;
}

/** Splits an alias value into words as git does (`split_cmdline`: quotes and backslashes, no expansion). */
export function splitAlias(value: string): string[] | undefined {
  const words: string[] = [];
  let current = '';
  let started = false;
  let quote: string | undefined;
  for (let i = 0; i < value.length; i += 1) {
    const c = value[i]!;
    if (quote === undefined && /\s/.test(c)) {
      if (started) words.push(current);
      current = '';
      started = false;
      continue;
    }
    started = true;
    if (c === '\\' && quote !== "'") {
      i += 1;
      if (i < value.length) current += value[i];
      continue;
    }
    if (quote === undefined && (c === '"' || c === "'")) quote = c;
    else if (quote === c) quote = undefined;
    else current += c;
  }
  if (quote !== undefined) return undefined;
  if (started) words.push(current);
  return words;
}

/**
 * The `[alias]` entries of a git config file's text, and the files it includes (`[include]` and
 * `[includeIf …]` paths, all of them: which condition holds is not worked out). Malformed lines
 * are skipped; a file with more than MAX_ALIASES aliases keeps the first ones and says so.
 */
export function parseGitConfig(text: string): { aliases: Map<string, string>; includes: string[]; truncated: boolean } {
  const aliases = new Map<string, string>();
  const includes: string[] = [];
  let section = '';
  let truncated = false;
  const lines = text.replace(/\\\r?\n/g, '').split(/\r?\n/);
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:\\.|[^"\\])*)")?\s*\](.*)$/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      const rest = header[3]!.trim();
      if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) continue;
      // `[alias] x = y` on one line.
      const entry = readEntry(rest);
      if (entry) add(entry);
      continue;
    }
    const entry = readEntry(line);
    if (entry) add(entry);
  }
  return { aliases, includes, truncated };

  function add(entry: { key: string; value: string }): void {
    if (section === 'alias') {
      if (entry.value.length > MAX_ALIAS_VALUE) return;
      if (aliases.size >= MAX_ALIASES && !aliases.has(entry.key)) {
        truncated = true;
        return;
      }
      aliases.set(entry.key, entry.value);
    } else if ((section === 'include' || section === 'includeif') && entry.key === 'path') includes.push(entry.value);
  }
}

/** `key = value` with git's quoting: `"…"`, `\"`, `\\`, `\n`, `\t`, and comments outside quotes. */
function readEntry(line: string): { key: string; value: string } | undefined {
  const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*([\s\S]*))?$/.exec(line);
  if (!m) return undefined;
  const key = m[1]!.toLowerCase();
  if (m[2] === undefined) return { key, value: 'true' };
  let value = '';
  let quoted = false;
  let pendingSpace = '';
  const raw = m[2];
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i]!;
    if (!quoted && (c === '#' || c === ';')) break;
    if (c === '"') {
      quoted = !quoted;
      continue;
    }
    if (c === '\\') {
      const next = raw[(i += 1)];
      const escapes: Record<string, string> = { n: '\n', t: '\t', b: '\b', '"': '"', '\\': '\\' };
      if (next === undefined || escapes[next] === undefined) return undefined;
      value += pendingSpace + escapes[next];
      pendingSpace = '';
      continue;
    }
    if (!quoted && /\s/.test(c)) {
      pendingSpace += c;
      continue;
    }
    value += pendingSpace + c;
    pendingSpace = '';
  }
  return quoted ? undefined : { key, value };
}
