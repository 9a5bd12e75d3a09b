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

/**
 * Config keys whose value git runs as a command, through the shell when it holds shell syntax
 * (`git -c core.pager='rm -rf ~' log`): judged as shell code, as a `!` alias is.
 */
const COMMAND_KEYS = /^(core\.(pager|sshcommand|fsmonitor|editor|askpass|gitproxy)|sequence\.editor|diff\.external|pager\..+|interactive\.difffilter|diff\..+\.(command|textconv)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|credential(\..+)?\.helper|gpg(\..+)?\.program)$/i;

export function runsCommand(key: string): boolean {
  return COMMAND_KEYS.test(key);
}

/** A variable of the environment git runs in: `known` is false when its value cannot be worked out. */
export type GitEnvLookup = (name: string) => { value: string; known: boolean } | undefined;

export interface GitCall {
  /** Index of the subcommand (or alias) in argv. */
  at: number;
  /**
   * Config settings this call gets, in git's order (later wins): `GIT_CONFIG_COUNT`/`_KEY_n`/
   * `_VALUE_n`, then `GIT_CONFIG_PARAMETERS`, then `-c` and `--config-env`. Keys are as written;
   * a value is undefined when it is not known.
   */
  settings: { key: string; value: string | undefined }[];
  /** `alias.x` settings among them (lower-cased names; undefined: not known). */
  aliases: Map<string, string | undefined>;
}

/** Where the subcommand of `git [global options] sub …` is, and the config settings it is given. */
export function gitCall(argv: readonly string[], env: GitEnvLookup = () => undefined, literal: (index: number) => boolean = () => true): GitCall | undefined {
  const settings: GitCall['settings'] = [];
  const count = env('GIT_CONFIG_COUNT');
  if (count !== undefined) {
    const n = Number(count.value);
    if (!count.known) settings.push({ key: 'GIT_CONFIG_COUNT', value: undefined });
    for (let i = 0; i < Math.min(Number.isInteger(n) ? n : 0, 256); i += 1) {
      const key = env(`GIT_CONFIG_KEY_${i}`);
      const value = env(`GIT_CONFIG_VALUE_${i}`);
      if (key === undefined) continue;
      settings.push({ key: key.known ? key.value : 'GIT_CONFIG_KEY', value: value?.known ? value.value : undefined });
    }
  }
  const parameters = env('GIT_CONFIG_PARAMETERS');
  if (parameters !== undefined) {
    const parsed = parameters.known ? parseConfigParameters(parameters.value) : undefined;
    if (parsed) settings.push(...parsed);
    else settings.push({ key: 'GIT_CONFIG_PARAMETERS', value: undefined });
  }
  let at: number | undefined;
  for (let i = 1; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) {
      at = i;
      break;
    }
    if (arg === '-c') {
      const setting = /^([^=]+)=([\s\S]*)$/.exec(argv[i + 1] ?? '');
      // `-c key` alone sets the key to true.
      if (setting) settings.push({ key: setting[1]!, value: literal(i + 1) ? setting[2]! : undefined });
    }
    // `--config-env key=VAR` and `--config-env=key=VAR`: the value is that of the variable VAR.
    const configEnv = arg === '--config-env' ? argv[i + 1] : arg.startsWith('--config-env=') ? arg.slice('--config-env='.length) : undefined;
    if (configEnv !== undefined) {
      const m = /^([\s\S]+)=([^=]*)$/.exec(configEnv);
      // A variable not set in the command may still be in the environment the agent's shell has.
      const variable = m && literal(arg === '--config-env' ? i + 1 : i) ? env(m[2]!) : undefined;
      if (m) settings.push({ key: m[1]!, value: variable?.known ? variable.value : undefined });
    }
    if (WITH_VALUE.has(arg)) i += 1;
  }
  if (at === undefined) return undefined;
  const aliases = new Map<string, string | undefined>();
  for (const { key, value } of settings) {
    const alias = /^alias\.(.+)$/i.exec(key);
    if (alias) aliases.set(alias[1]!.toLowerCase(), value);
  }
  return { at, settings, aliases };
}

/**
 * `GIT_CONFIG_PARAMETERS` as git writes it: single-quoted items, `'key'='value'` or the older
 * `'key=value'`, a quote inside written `'\''`. Undefined when it is not in that form.
 */
export function parseConfigParameters(text: string): { key: string; value: string }[] | undefined {
  const out: { key: string; value: string }[] = [];
  let i = 0;
  const quoted = (): string | undefined => {
    if (text[i] !== "'") return undefined;
    let value = '';
    i += 1;
    for (;;) {
      const close = text.indexOf("'", i);
      if (close === -1) return undefined;
      value += text.slice(i, close);
      i = close + 1;
      // `'\''` (and `'\!'`) put the character inside the value; anything else ends it.
      if (text[i] === '\\' && (text[i + 1] === "'" || text[i + 1] === '!') && text[i + 2] === "'") {
        value += text[i + 1];
        i += 3;
        continue;
      }
      return value;
    }
  };
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
    if (i >= text.length) return out;
    const first = quoted();
    if (first === undefined) return undefined;
    if (text[i] === '=') {
      i += 1;
      const value = quoted();
      if (value === undefined) return undefined;
      out.push({ key: first, value });
    } else {
      const eq = first.indexOf('=');
      out.push(eq === -1 ? { key: first, value: 'true' } : { key: first.slice(0, eq), value: first.slice(eq + 1) });
    }
    if (i < text.length && !/\s/.test(text[i]!)) return undefined;
  }
}

/** The alias a `git config` command defines, or unsets (`value` undefined). */
export function aliasDefinition(argv: readonly string[], at: number): { name: string; value: string | undefined } | undefined {
  const defined = configDefinition(argv, at);
  const key = /^alias\.(.+)$/i.exec(defined?.key ?? '');
  return key ? { name: key[1]!.toLowerCase(), value: defined!.value } : undefined;
}

/** The key a `git config` command sets, or unsets (`value` undefined). */
export function configDefinition(argv: readonly string[], at: number): { key: string; value: string | undefined } | undefined {
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
  const key = operands[0];
  if (key === undefined || !/^[^.\s]+\..+/.test(key)) return undefined;
  if (unset) return { key, value: undefined };
  return operands[1] !== undefined ? { key, value: operands[1] } : undefined;
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
export function parseGitConfig(text: string): { aliases: Map<string, string>; includes: string[]; commands: string[]; truncated: boolean } {
  const aliases = new Map<string, string>();
  const includes: string[] = [];
  const commands: string[] = [];
  let section = '';
  let subsection: string | undefined;
  let truncated = false;
  const lines = text.replace(/\\\r?\n/g, '').split(/\r?\n/);
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:\\.|[^"\\])*)")?\s*\](.*)$/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      subsection = header[2];
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
  return { aliases, includes, commands, truncated };

  function add(entry: { key: string; value: string }): void {
    if (commands.length < MAX_ALIASES && runsCommand(`${section}${subsection !== undefined ? `.${subsection}` : ''}.${entry.key}`)) commands.push(entry.value);
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
