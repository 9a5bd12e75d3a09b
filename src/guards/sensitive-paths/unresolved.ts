// Paths the guard cannot compute: a shell word with an expansion it does not evaluate
// (`${HOME%/}`, `$PWD`, `~+`, `$XDG_CONFIG_HOME` when the guard's environment lacks it, a variable
// set by `printf -v`) and code handed to an interpreter. A resolved path goes through the rule
// table; these are judged on what they say literally, so `${HOME%/}/.config/agent-hooks/config.json`
// cannot switch the user's guards off just because `${HOME%/}` is not evaluated.
import { posix } from 'node:path';
import type { JudgeContext, Judge, PathVerdict } from './judge.js';

/** Variables the guard knows from its own environment (the agent's shell inherits the same ones). */
const KNOWN_VARIABLES = ['HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'AGENT_HOOKS_MANAGED_CONFIG', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'COPILOT_HOME'] as const;

const KNOWN_PATTERNS = KNOWN_VARIABLES.map((name) => [name, new RegExp(`\\$(?:${name}\\b|\\{${name}\\})`, 'g')] as const);

/** Every expansion form the shell layer leaves as source text in a word's value. */
const EXPANSION = /\$\{[^}]*\}|\$\([^)]*\)?|\$[A-Za-z_]\w*|\$[0-9@*#?$!-]|`[^`]*`?|^~[+-](?=\/|$)/g;

/** A word with a part the guard did not evaluate. */
export function isUnresolved(path: string): boolean {
  return /[$`]|^~[+-](?:\/|$)/.test(path) || PROC_LINK.test(path);
}

/**
 * `/proc/self/cwd/../.config/agent-hooks/config.json`: a link the kernel resolves to the writing
 * shell's own folder, while `..` taken lexically would leave `/proc/self`. Judged like `$PWD`.
 */
const PROC_LINK = /^\/+proc\/+(?:self|thread-self|\d+)\/+(?:cwd|root)(?=\/|$)/;

/**
 * Literal tails that name agent-hooks' own files whatever the unevaluated part was: the user
 * config, the trust store, the managed config, the cache's MAC key, and any `agent-hooks` folder
 * that sits right below an `XDG_*` variable. Tested lower-cased on an unresolved write target only,
 * so a project folder called `agent-hooks` stays writable when its path is literal.
 */
const SELF_TAILS: readonly RegExp[] = [
  /(?:^|\/)\.config\/agent-hooks(?:\/|$)/,
  /(?:^|\/)\.local\/state\/agent-hooks(?:\/|$)/,
  /(?:^|\/)\.cache\/agent-hooks(?:\/|$)/,
  /(?:^|\/)etc\/agent-hooks(?:\/|$)/,
  /(?:^|\/)agent-hooks\/(?:config\.(?:json|ya?ml)|trust\.json|managed\.(?:json|ya?ml)|config\/key)$/,
  /\$\{?[#!]?xdg_(?:config|state|cache|data)_home\b[^/]*\/agent-hooks(?:\/|$)/,
  /\$\{?[#!]?agent_hooks_managed_config\b/,
];

/**
 * `~/.config/$N/config.json`, `rm -rf ~/.local/state/$N`: the application folder right below the
 * user's config or state root is unevaluated, so it may be `agent-hooks`. Only that slot counts:
 * `~/.config/nvim/$F` names its application and passes.
 */
function unresolvedAppFolder(lower: string, home: string, env: NodeJS.ProcessEnv): boolean {
  const roots = ['~/.config', '~/.local/state', `${home}/.config`, `${home}/.local/state`, '$xdg_config_home', '${xdg_config_home}', '$xdg_state_home', '${xdg_state_home}'];
  for (const dir of [env.XDG_CONFIG_HOME, env.XDG_STATE_HOME]) if (dir) roots.push(dir.replace(/\/+$/, ''));
  for (const root of roots) {
    const r = root.toLowerCase();
    if (!lower.startsWith(`${r}/`)) continue;
    const slot = lower.slice(r.length + 1).split('/')[0]!;
    if (/[$`]/.test(slot)) return true;
  }
  return false;
}

/**
 * Distinctive names of agent-hooks' own places as code mentions them. Tested on interpreter code
 * after quotes and whitespace are squeezed out, `+` joins and a `,` becomes `/`, so
 * `os.path.join(h, '.config', 'agent-hooks')` counts.
 */
const OWN_MENTIONS = /\.config\/agent-hooks|\.local\/state\/agent-hooks|\.cache\/agent-hooks|\/etc\/agent-hooks|agent-hooks\/(?:config\.(?:json|ya?ml)|trust\.json|managed\.(?:json|ya?ml)|config\/key)|agent_hooks_managed_config|xdg_(?:config|state|cache)_home\W{0,8}agent-hooks/;

/** Every agent's hook settings: a project may read its own `.claude/settings.json`, so these count only in code that writes. */
const AGENT_MENTIONS = /\.claude\/settings[\w.-]*\.json|\.claude\.json|\.claude\/plugins|\.codex\/(?:config\.toml|hooks\.json)|\.gemini\/(?:settings\.json|extensions)|\.cursor\/hooks\.json|\.github\/hooks\/|\.copilot\/(?:hooks|config\.json)|opencode\/(?:plugins?\/|opencode\.json)|\/etc\/(?:claude-code|codex|gemini-cli)\//;

/**
 * The protected name interpreter code mentions, if any. agent-hooks' own files count whatever the
 * code does with them (a read cannot be told from a write inside code); agents' hook settings
 * count when the code shows a sign of writing (`writes`).
 */
export function codeMention(code: string, writes: boolean): string | undefined {
  const lower = code.toLowerCase();
  // `+` joins strings (`'agent-' + 'hooks'`), a `,` separates the parts of a path join.
  const squeezed = lower.replace(/['"`\s]+/g, '').replace(/\++/g, '').replace(/,+/g, '/').replace(/\/{2,}/g, '/');
  const own = OWN_MENTIONS.exec(squeezed) ?? OWN_MENTIONS.exec(lower);
  if (own) return own[0];
  if (!writes) return undefined;
  return (AGENT_MENTIONS.exec(squeezed) ?? AGENT_MENTIONS.exec(lower))?.[0];
}

/** `$NAME` and `${NAME}` replaced by the guard's own value, `$PWD` and a leading `~+` by the directory. */
export function substituteKnown(path: string, env: NodeJS.ProcessEnv, home: string, cwd: string): string {
  let p = path.replace(/^~\+(?=\/|$)/, cwd).replace(PROC_LINK, (link) => (link.endsWith('root') ? '' : cwd));
  if (!p.includes('$')) return p;
  for (const [name, re] of KNOWN_PATTERNS) {
    const value = name === 'HOME' ? home : env[name];
    if (value) p = p.replace(re, () => value);
  }
  return p.replace(/\$(?:PWD\b|\{PWD\})/g, () => cwd);
}

/**
 * Judges an unresolved target on what it says literally. In order: with the variables the guard
 * knows put in; the literal part after the last expansion placed in the home directory, every
 * suffix of it (`${HOME%/}/.ssh/authorized_keys`, `$PWD/../.claude.json`), and `/`-anchored for
 * self-protection (`$ROOT/etc/agent-hooks/x`); then, for writes, against the distinctive agent-hooks
 * tails (`~/$P/agent-hooks/config.json`, `$XDG_STATE_HOME/agent-hooks`).
 * Undefined when none of them is protected.
 */
export function judgeUnresolved(
  path: string,
  context: JudgeContext,
  judge: Judge,
  env: NodeJS.ProcessEnv,
  selfAction: 'block' | 'ask' | undefined,
): PathVerdict | undefined {
  if (path.length > 4096) return undefined;
  const shown = (verdict: PathVerdict & { verdict: 'block' | 'ask' }, probe: string): PathVerdict => ({ ...verdict, path: `${path} (as ${probe})`, reason: `${verdict.kind}: ${path} (as ${probe})` });
  const substituted = substituteKnown(path, env, context.home, context.cwd);
  if (substituted !== path) {
    const verdict = judge.judge(substituted, context);
    if (verdict.verdict !== 'allow') return shown(verdict, verdict.path);
  }
  let tailStart = 0;
  for (const m of substituted.matchAll(EXPANSION)) tailStart = m.index + m[0].length;
  const segments = substituted.slice(tailStart).split('/').filter((s) => s !== '' && s !== '.');
  for (let i = 0; i < Math.min(segments.length, 16); i++) {
    if (segments[i] === '..') continue;
    const suffix = segments.slice(i);
    if (suffix.includes('..')) continue;
    const probe = posix.join(context.home, ...suffix);
    const verdict = judge.judge(probe, { ...context, cwd: context.home });
    if (verdict.verdict !== 'allow') return shown(verdict, probe);
  }
  const rooted = posix.join('/', ...segments.filter((s) => s !== '..'));
  if (rooted !== '/') {
    const verdict = judge.judge(rooted, context);
    if (verdict.verdict !== 'allow' && verdict.kind === 'self-protection') return shown(verdict, rooted);
  }
  if (context.access === 'write' && selfAction !== undefined) {
    const lower = substituted.toLowerCase();
    if (SELF_TAILS.some((re) => re.test(lower)) || unresolvedAppFolder(lower, context.home, env)) return { verdict: selfAction, kind: 'self-protection', path: `${path} (agent-hooks' own files behind an unevaluated expansion)`, reason: `self-protection: ${path}` };
  }
  return undefined;
}
