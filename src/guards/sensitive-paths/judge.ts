// Judges one path: resolves it, then runs it through the rule table, the user's allow and extra
// globs, and, for a shell glob word, through the files it could expand to. Never throws: what
// cannot be judged comes back as kind `unverifiable`.
import { posix } from 'node:path';
import { cacheDir, stateDir, userConfigDir } from '../../paths.js';
import { compileGlob, globSource, globToRegExp, hasGlobMagic } from './glob.js';
import type { SensitivePathsOptionsInput as OptionsInput } from './options.js';
import { runnerPlaces, runnerRoot, runnerSamples } from './runner.js';
import { BACKUP_SUFFIX, EXEMPT_NAME, EXEMPT_SEGMENTS, type Kind, type PathRule, RULES } from './rules.js';

export type Access = 'read' | 'write';

export type PathVerdict =
  | { verdict: 'allow' }
  | { verdict: 'block' | 'ask'; kind: string; path: string; reason: string };

export interface JudgeContext {
  cwd: string;
  home: string;
  access: Access;
  /** The folder is read with everything below it (`grep -r`, `tar c`, `cp -r`). */
  recursive?: boolean;
  /** A glob word's `*` and `**` match hidden names too (what `find` walks, not what the shell expands). */
  dotGlob?: boolean;
}

export interface Judge {
  judge(path: string, context: JudgeContext): PathVerdict;
}

/** Absolute, normalized form of `path` as the guard judges it. Never throws. */
export function resolvePath(path: string, cwd: string, home: string): string {
  let p = path.trim();
  if (/^file:\/\//i.test(p)) p = fileUrlPath(p);
  const homeVar = /^\$(?:HOME|\{HOME\})(?=\/|$)/.exec(p);
  if (homeVar) p = home + p.slice(homeVar[0].length);
  else if (p === '~' || p.startsWith('~/')) p = home + p.slice(1);
  else if (/^~[A-Za-z0-9._-]+(?=\/|$)/.test(p)) {
    // `~alice/...` is another user's home: assume it sits beside ours (/home/alice), which holds on
    // every usual layout and keeps the guard free of passwd lookups.
    p = posix.join(posix.dirname(home), p.slice(1));
  }
  return posix.resolve(cwd || '/', p);
}

/** `file:///home/u/.env`, `file://localhost/...`, percent-escapes decoded when they decode. */
function fileUrlPath(url: string): string {
  let rest = url.slice('file://'.length);
  if (rest.toLowerCase().startsWith('localhost/')) rest = rest.slice('localhost'.length);
  rest = rest.replace(/[?#].*$/s, '');
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}

// --- compiling the table ---

interface CompiledRule {
  kind: Kind;
  on: 'any' | 'write';
  readOption?: PathRule['readOption'];
  /** Each list joined into one RegExp: one test per rule instead of one per glob. */
  places: RegExp | undefined;
  /** `~/` places, tested on the path with any home directory replaced by `~`. */
  homePlaces: RegExp | undefined;
  names: RegExp | undefined;
  except: RegExp | undefined;
  /** Absolute samples (home-anchored or `/`), and relative ones placed in a glob word's own folder. */
  absoluteSamples: string[];
  relativeSamples: string[];
}

type Action = 'block' | 'ask';

const cache = new WeakMap<object, Map<string, Judge>>();

/** The judge for these options, home and environment; built once per options object. */
export function compileJudge(options: OptionsInput, home: string, env: NodeJS.ProcessEnv = process.env): Judge {
  let byHome = cache.get(options);
  if (!byHome) cache.set(options, (byHome = new Map()));
  const key = `${home}\0${env.XDG_CONFIG_HOME ?? ''}\0${env.XDG_STATE_HOME ?? ''}\0${env.XDG_CACHE_HOME ?? ''}\0${env.CLAUDE_CONFIG_DIR ?? ''}\0${env.CODEX_HOME ?? ''}\0${env.COPILOT_HOME ?? ''}\0${env.AGENT_HOOKS_MANAGED_CONFIG ?? ''}\0${env.PATH ?? ''}\0${env.npm_config_prefix ?? ''}\0${env.NPM_CONFIG_PREFIX ?? ''}\0${env.PREFIX ?? ''}\0${env.PNPM_HOME ?? ''}\0${env.BUN_INSTALL ?? ''}\0${env.VOLTA_HOME ?? ''}`;
  let judge = byHome.get(key);
  if (!judge) byHome.set(key, (judge = buildJudge(options, home, env)));
  return judge;
}

/**
 * Self-protection: files that decide which hooks run, for agent-hooks and for every agent it
 * installs into. Writes only. The project's own `.hooksrc*` stays writable on purpose: the trust
 * gate makes an edited project config untrusted until the user trusts it again.
 */
export function selfProtectionRule(home: string, env: NodeJS.ProcessEnv, root: string | undefined = runnerRoot()): PathRule {
  const withHome = { ...env, HOME: env.HOME || home };
  const fromEnv = [userConfigDir(withHome), stateDir(withHome), cacheDir(withHome)];
  const agentDirs = [
    env.CLAUDE_CONFIG_DIR ? [`${escape(env.CLAUDE_CONFIG_DIR)}/settings*.json`] : [],
    env.CODEX_HOME ? [`${escape(env.CODEX_HOME)}/config.toml`, `${escape(env.CODEX_HOME)}/hooks.json`] : [],
    env.COPILOT_HOME ? [`${escape(env.COPILOT_HOME)}/hooks/**`, `${escape(env.COPILOT_HOME)}/config.json`] : [],
    env.XDG_CONFIG_HOME ? [`${escape(env.XDG_CONFIG_HOME)}/opencode/plugin/**`, `${escape(env.XDG_CONFIG_HOME)}/opencode/plugins/**`, `${escape(env.XDG_CONFIG_HOME)}/opencode/opencode.json*`] : [],
  ].flat();
  return {
    kind: 'self-protection',
    on: 'write',
    places: [
      // agent-hooks: user layer, managed layer, trust store and state, checked-config cache.
      '~/.config/agent-hooks',
      '~/.config/agent-hooks/**',
      '~/.local/state/agent-hooks',
      '~/.local/state/agent-hooks/**',
      '~/.cache/agent-hooks',
      '~/.cache/agent-hooks/**',
      ...fromEnv.flatMap((dir) => [escape(dir), `${escape(dir)}/**`]),
      '/etc/agent-hooks',
      '/etc/agent-hooks/**',
      // The managed layer moved by `AGENT_HOOKS_MANAGED_CONFIG` (see config/load.ts managedConfigPath).
      ...(env.AGENT_HOOKS_MANAGED_CONFIG ? [escape(posix.resolve('/', env.AGENT_HOOKS_MANAGED_CONFIG))] : []),
      '/Library/Application Support/agent-hooks/**',
      // Claude Code: project, local and user settings, managed settings, the global state file.
      '**/.claude/settings.json',
      '**/.claude/settings.local.json',
      '**/.claude/settings*.json',
      '~/.claude.json',
      // Plugins and extensions bring their own hooks.
      '~/.claude/plugins/**',
      '~/.gemini/extensions/**',
      '/etc/claude-code/**',
      '/Library/Application Support/ClaudeCode/**',
      // Codex, Gemini CLI, Cursor, Copilot, opencode.
      '**/.codex/config.toml',
      '**/.codex/hooks.json',
      '/etc/codex/**',
      '**/.gemini/settings.json',
      '/etc/gemini-cli/**',
      '/Library/Application Support/GeminiCli/**',
      '**/.cursor/hooks.json',
      '/etc/cursor/hooks.json',
      '**/.github/hooks/*.json',
      '~/.copilot/hooks/**',
      '~/.copilot/config.json',
      '**/.opencode/plugin/**',
      '**/.opencode/plugins/**',
      '~/.config/opencode/plugin/**',
      '~/.config/opencode/plugins/**',
      '~/.config/opencode/opencode.json*',
      ...agentDirs,
      // The runner's own code, its bin links, the server's unit, git's hooks setting, interpreter shims.
      ...runnerPlaces(env, root, escape),
    ],
    samples: [
      ...runnerSamples(env, root),
      '~/.config/agent-hooks/config.json',
      '~/.local/state/agent-hooks/trust.json',
      '~/.cache/agent-hooks/checked.json',
      '/etc/agent-hooks/config.json',
      ...fromEnv.map((dir) => `${posix.resolve('/', dir)}/config.json`),
      '~/.claude/settings.json',
      '~/.codex/config.toml',
      '~/.gemini/settings.json',
      '~/.cursor/hooks.json',
      '.claude/settings.json',
      '.claude/settings.local.json',
      '.codex/hooks.json',
      '.gemini/settings.json',
      '.cursor/hooks.json',
      '.github/hooks/agent-hooks.json',
      'hooks/agent-hooks.json',
      'settings.json',
      'settings.local.json',
      'hooks.json',
      'config.toml',
    ],
  };
}

/** Folders whose deletion or move takes an agent's hook settings with them. */
const PROTECTED_FOLDERS = /\/(?:\.claude|\.codex|\.gemini|\.cursor|\.github\/hooks|\.opencode|\.opencode\/plugins?|\.copilot|\.copilot\/hooks)$/;

function buildJudge(options: OptionsInput, home: string, env: NodeJS.ProcessEnv): Judge {
  const homeAbs = posix.resolve(home);
  const actionOf = (kind: string): Action | undefined => {
    if (kind === 'extra') return 'block';
    const setting = (options.categories as Record<string, boolean | 'block' | 'ask' | undefined> | undefined)?.[kind];
    if (setting === false) return undefined;
    return setting === 'ask' ? 'ask' : 'block';
  };
  const table = [...RULES, selfProtectionRule(home, env)];
  const rules: CompiledRule[] = table
    .filter((rule) => actionOf(rule.kind) !== undefined)
    .map((rule) => ({
      kind: rule.kind,
      on: rule.on,
      readOption: rule.readOption,
      places: tableUnion((rule.places ?? []).filter((g) => !g.startsWith('~/'))),
      homePlaces: tableUnion((rule.places ?? []).filter((g) => g.startsWith('~/'))),
      names: tableUnion(rule.names ?? []),
      except: tableUnion(rule.except ?? []),
      absoluteSamples: rule.samples.filter((s) => s.startsWith('~/') || s.startsWith('/')).map((s) => (s.startsWith('~/') ? homeAbs + s.slice(1) : s)),
      relativeSamples: [...rule.samples.filter((s) => !s.startsWith('~/') && !s.startsWith('/'))],
    }));
  const allow = union((options.allow ?? []).map((glob) => userGlob(glob, homeAbs)));
  const extra = union((options.extra ?? []).map((glob) => userGlob(glob, homeAbs)));
  // Most paths match nothing: one test against every place and one against every name settles them.
  const anyPlace = union(rules.flatMap((r) => (r.places ? [r.places] : [])));
  const anyHomePlace = union(rules.flatMap((r) => (r.homePlaces ? [r.homePlaces] : [])));
  const homeLower = homeAbs.toLowerCase();
  const anyName = union(rules.flatMap((r) => (r.names ? [r.names] : [])));
  const readAllowed = (rule: CompiledRule): boolean => rule.readOption !== undefined && options[rule.readOption] === 'allow';

  const verdictFor = (kind: string, path: string): PathVerdict => {
    const action = actionOf(kind) ?? 'block';
    return { verdict: action, kind, path, reason: `${kind}: ${path}` };
  };

  const judgeOne = (resolved: string, access: Access, exemptCheckPath: string): PathVerdict => {
    const lower = resolved.toLowerCase();
    const name = posix.basename(lower);
    if (allow?.test(lower)) return { verdict: 'allow' };
    const applies = (rule: CompiledRule): boolean => {
      if (access === 'read' && (rule.on === 'write' || readAllowed(rule))) return false;
      return !rule.except?.test(name);
    };
    const tilde = homeForm(lower, homeLower);
    const inPlace = anyPlace?.test(lower) === true;
    const inHomePlace = tilde !== undefined && anyHomePlace?.test(tilde) === true;
    if (inPlace || inHomePlace) {
      for (const rule of rules) {
        const hit = (inPlace && rule.places?.test(lower)) || (inHomePlace && rule.homePlaces?.test(tilde!));
        if (hit && applies(rule)) return verdictFor(rule.kind, resolved);
      }
    }
    if (extra?.test(lower)) return verdictFor('extra', resolved);
    if (!anyName?.test(name) || isExempt(exemptCheckPath.toLowerCase())) return { verdict: 'allow' };
    for (const rule of rules) {
      if (rule.names?.test(name) && applies(rule)) return verdictFor(rule.kind, resolved);
    }
    return { verdict: 'allow' };
  };

  const judgeConcrete = (resolved: string, context: JudgeContext): PathVerdict => {
    const exemptCheckPath = relativeToOwner(resolved, context.cwd, context.home);
    const direct = judgeOne(resolved, context.access, exemptCheckPath);
    if (direct.verdict !== 'allow') return direct;
    // A backup copy holds the same secret: `id_rsa.bak`, `~/.ssh/config.bak`, `credentials.json.orig`.
    let stripped = resolved;
    for (let i = 0; i < 3 && BACKUP_SUFFIX.test(posix.basename(stripped)); i++) {
      const next = stripped.replace(BACKUP_SUFFIX, '');
      if (next === stripped || next.endsWith('/')) break;
      stripped = next;
      const verdict = judgeOne(stripped, context.access, relativeToOwner(stripped, context.cwd, context.home));
      if (verdict.verdict !== 'allow') return { ...verdict, path: resolved, reason: `${verdict.kind}: ${resolved}` };
    }
    // A folder is judged by what it holds: our home's files stand for every home's (`/root`, `/home/x`).
    const tilde = homeForm(resolved.toLowerCase(), homeLower);
    const asOurs = tilde === undefined ? resolved : homeAbs + tilde.slice(1);
    const prefix = asOurs === '/' ? '/' : `${asOurs}/`;
    if (context.access === 'write') {
      // Deleting or moving a folder takes what is inside with it: `rm -rf ~/.config`, `mv .claude x`.
      // Write-only rules first: `rm -rf ~/.config` is reported as self-protection, not as gcloud's folder.
      for (const rule of [...rules.filter((r) => r.on === 'write'), ...rules.filter((r) => r.on !== 'write')]) {
        if (rule.absoluteSamples.some((s) => s.startsWith(prefix))) return verdictFor(rule.kind, resolved);
      }
      if (PROTECTED_FOLDERS.test(resolved.toLowerCase()) && actionOf('self-protection') !== undefined) return verdictFor('self-protection', resolved);
    } else if (context.recursive) {
      // `grep -r TOKEN ~`, `tar czf x.tgz ~/.config`: reading a folder reads the secrets in it. Only
      // absolute places count: a project's own `.env` under `grep -r x .` is a known miss (see the docs).
      for (const rule of rules) {
        if (rule.on === 'write' || readAllowed(rule)) continue;
        if (rule.absoluteSamples.some((s) => s.startsWith(prefix))) return verdictFor(rule.kind, resolved);
      }
    }
    return direct;
  };

  return {
    judge(path, context) {
      if (path.length > 4096) return verdictFor('unverifiable', `${path.slice(0, 60)}…`);
      const resolved = resolvePath(path, context.cwd, context.home);
      const direct = judgeConcrete(resolved, context);
      if (direct.verdict !== 'allow' || !hasGlobMagic(resolved)) return direct;
      // A shell glob word (`cat ~/.ssh/id_*`, `cat *.pem`) is judged by the files it could expand to:
      // representative names of each rule, placed in the glob's own directory for name rules.
      // A bare `*` in an ordinary directory is not a request for secrets, so name rules need a
      // literal in the glob's last segment (`*.pem`, `.env*`, `id_*`).
      const word = compileGlob(resolved.toLowerCase(), { dot: context.dotGlob === true, brackets: 'wide' });
      if (!word.ok) return verdictFor('unverifiable', `${resolved.slice(0, 120)} (${word.error})`);
      const dir = posix.dirname(resolved);
      const nameHasLiteral = /[^*?[\]{},]/.test(posix.basename(resolved).replace(/\[[^\]]*\]/g, ''));
      // Moving or deleting `~/.config/agent?hooks` or `~/.conf*` takes the protected files below with
      // it: a glob that could name any folder above a sample is judged as that folder.
      const folders = context.access === 'write' || context.recursive === true;
      for (const rule of rules) {
        const probes = [...rule.absoluteSamples];
        if (nameHasLiteral || rule.names === undefined) probes.push(...rule.relativeSamples.map((s) => posix.join(dir, s)));
        if (folders) probes.push(...probes.flatMap(ancestors));
        for (const probe of probes) {
          if (!word.re.test(probe.toLowerCase())) continue;
          const verdict = judgeConcrete(probe, context);
          if (verdict.verdict !== 'allow') return { ...verdict, path: resolved, reason: `${verdict.kind}: ${resolved}` };
        }
      }
      return direct;
    },
  };
}

/** `/home/u/.config/agent-hooks/config.json` → `/home/u/.config/agent-hooks`, `/home/u/.config`, `/home/u`, `/home`. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let dir = posix.dirname(path); dir !== '/' && dir !== '.'; dir = posix.dirname(dir)) out.push(dir);
  return out;
}

/**
 * The part of the path that decides the test/fixture exemption: only what lies below the
 * project (cwd) or the home directory, so a user called `test` or a checkout under `/srv/tests`
 * does not exempt every file in it.
 */
function relativeToOwner(resolved: string, cwd: string, home: string): string {
  for (const root of [cwd, home]) {
    // Already absolute and normalized in the usual case; resolving costs more than the whole rule check.
    const base = root.startsWith('/') && !root.includes('/.') && !root.includes('//') && (root === '/' || !root.endsWith('/')) ? root : posix.resolve(root || '/');
    if (resolved === base) return '';
    if (base === '/') return resolved.slice(1);
    if (resolved.startsWith(base + '/')) return resolved.slice(base.length + 1);
  }
  return resolved;
}

function isExempt(relative: string): boolean {
  const segments = relative.split('/').filter(Boolean);
  const name = segments.at(-1) ?? '';
  return segments.slice(0, -1).some((s) => EXEMPT_SEGMENTS.has(s)) || EXEMPT_NAME.test(name);
}

/**
 * The path with its home directory written `~` (`/home/dev/.ssh` → `~/.ssh`), or undefined when it
 * is under no home. `~/` rules hold for our home and every other account's: `/home/*`, `/Users/*`,
 * `/root`, `/var/root`. Lower-cased input.
 */
function homeForm(lower: string, home: string): string | undefined {
  if (home !== '/' && (lower === home || lower.startsWith(`${home}/`))) return `~${lower.slice(home.length)}`;
  const m = /^(?:\/home\/[^/]+|\/users\/[^/]+|\/root|\/var\/root)(?=\/|$)/.exec(lower);
  return m ? `~${lower.slice(m[0].length)}` : undefined;
}

/**
 * The rule table's globs already translated (lower-cased glob → `globSource` of it), put in by the
 * CLI's build (scripts/bundle.mjs) from this same source: translating a few hundred globs was most of
 * the guard's start-up. Undefined when running from source; a glob not in it is translated here.
 */
declare const __AGENT_HOOKS_PATH_TABLE__: Record<string, string> | undefined;
const PRETRANSLATED: Record<string, string> | undefined = typeof __AGENT_HOOKS_PATH_TABLE__ === 'undefined' ? undefined : __AGENT_HOOKS_PATH_TABLE__;

/** The globs of the static rule table, lower-cased, as `tableUnion` translates them (for the build). */
export function tableGlobs(): string[] {
  // Self-protection's places that do not depend on the environment too (the runner's, the agents').
  const self = selfProtectionRule('~', { HOME: '~' }, undefined);
  return [...RULES, self].flatMap((rule) => [...(rule.places ?? []), ...(rule.names ?? []), ...(rule.except ?? [])]).map((g) => g.toLowerCase());
}

/** One RegExp for a list of the table's own globs (trusted, so built from sources directly). */
function tableUnion(globs: readonly string[]): RegExp | undefined {
  if (globs.length === 0) return undefined;
  return new RegExp(globs.map((g) => `(?:${tableSource(g.toLowerCase())})`).join('|'), 's');
}

function tableSource(lower: string): string {
  return PRETRANSLATED !== undefined && Object.hasOwn(PRETRANSLATED, lower) ? PRETRANSLATED[lower]! : globSource(lower);
}

/** One RegExp matching what any of `list` matches (each is anchored already). */
function union(list: RegExp[]): RegExp | undefined {
  if (list.length === 0) return undefined;
  if (list.length === 1) return list[0];
  return new RegExp(list.map((re) => `(?:${re.source})`).join('|'), 's');
}

/** A user glob: `~/` and `/` anchor it; anything else may start at any directory (like .gitignore). */
function userGlob(glob: string, home: string): RegExp {
  const g = glob.toLowerCase();
  if (g.startsWith('~/')) return globToRegExp(escape(home.toLowerCase()) + g.slice(1));
  if (g.startsWith('/')) return globToRegExp(g);
  return globToRegExp('**/' + g.replace(/^\.\//, ''));
}

function escape(text: string): string {
  return text.replace(/[*?[\]{}\\,]/g, '\\$&');
}
