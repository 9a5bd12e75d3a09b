// Guard `sensitive-paths`: blocks file tools and shell commands that touch credentials, keys and auth files.
import { homedir } from 'node:os';
import { posix } from 'node:path';
import type { Guard, HandlerFn, HookInput } from '../types.js';
import type { SensitivePathsOptions, SensitivePathsOptionsInput as OptionsInput } from './sensitive-paths/options.js';
import { commandFileWords } from './shell/words.js';

export type Access = 'read' | 'write';

export type PathVerdict =
  | { verdict: 'allow' }
  | { verdict: 'block'; kind: string; path: string; reason: string };

export interface JudgeContext {
  cwd: string;
  home: string;
  access: Access;
}

export type { SensitivePathsOptions } from './sensitive-paths/options.js';

const NO_OPTIONS: OptionsInput = {};

/** Resolves `path` (with `~`, `$HOME`, `..`, relative) and says whether the guard blocks it for this access. */
export function judgePath(path: string, context: JudgeContext, options: OptionsInput = NO_OPTIONS): PathVerdict {
  return compile(options, context.home).judge(path, context);
}

/** Absolute, normalized form of `path` as the guard judges it. */
export function resolvePath(path: string, cwd: string, home: string): string {
  let p = path.trim();
  const homeVar = /^\$(?:HOME|\{HOME\})(?=\/|$)/.exec(p);
  if (homeVar) p = home + p.slice(homeVar[0].length);
  else if (p === '~' || p.startsWith('~/')) p = home + p.slice(1);
  else if (/^~[A-Za-z0-9._-]+(?=\/|$)/.test(p)) {
    // `~alice/...` is another user's home: assume it sits beside ours (/home/alice), which holds on
    // every usual layout and keeps the guard free of passwd lookups.
    p = posix.join(posix.dirname(home), p.slice(1));
  }
  return posix.resolve(cwd, p);
}

export const sensitivePaths: Guard<SensitivePathsOptions> = {
  id: 'sensitive-paths',
  summary: 'Blocks reads and writes of SSH keys, cloud credentials, keyrings, .env files, private keys and auth files.',
  events: ['preToolUse'],
  match: ['read', 'write', 'edit', 'apply_patch', 'exec'],
  options: async () => (await import('./sensitive-paths/options.js')).sensitivePathsOptions,
  create(options) {
    const home = options.home ?? homedir();
    const judge = compile(options, home);
    const handler: HandlerFn = (input, context) => {
      const cwd = typeof input.cwd === 'string' && input.cwd !== '' ? input.cwd : process.cwd();
      for (const target of findTargets(input, context.tool)) {
        const verdict = judge.judge(target.path, { cwd, home, access: target.access });
        if (verdict.verdict === 'block') {
          return { decision: 'block', reason: `sensitive-paths: ${verdict.kind}: ${verdict.path}` };
        }
      }
      return undefined;
    };
    return handler;
  },
};

// --- the rule table ---

interface PathRule {
  kind: string;
  /** `any` blocks reads and writes; `write` blocks writes, edits and patches only. */
  on: 'any' | 'write';
  /** Absolute or `~`-anchored globs: a place, so no test/fixture or node_modules exemption applies. */
  places?: string[];
  /** Globs on the file name wherever it lives; exempt under node_modules and test/fixture paths. */
  names?: string[];
  /** File names that look like `names` but are safe (templates). */
  except?: string[];
  /** Concrete file names tried against a shell glob word such as `~/.ssh/id_*` or `*.pem`. */
  samples: string[];
}

const RULES: readonly PathRule[] = [
  {
    kind: 'ssh',
    on: 'any',
    places: ['~/.ssh', '~/.ssh/**'],
    except: ['*.pub'],
    samples: ['~/.ssh/id_rsa', '~/.ssh/id_ed25519', '~/.ssh/config', '~/.ssh/authorized_keys', '~/.ssh/known_hosts'],
  },
  {
    // Public halves are public, but appending to authorized_keys or planting a key is a backdoor.
    kind: 'ssh',
    on: 'write',
    places: ['~/.ssh/*.pub'],
    samples: [],
  },
  {
    kind: 'cloud-credentials',
    on: 'any',
    places: [
      '~/.aws',
      '~/.aws/credentials',
      '~/.aws/config',
      '~/.aws/sso/cache/**',
      '~/.aws/cli/cache/**',
      '~/.config/gcloud',
      '~/.config/gcloud/**',
      '~/.azure',
      '~/.azure/**',
      '~/.kube/config',
      '~/.kube/config.d/**',
      '~/.docker/config.json',
      '~/.boto',
      '~/.config/doctl/config.yaml',
      '~/.oci/config',
    ],
    samples: [
      '~/.aws/credentials',
      '~/.aws/config',
      '~/.config/gcloud/application_default_credentials.json',
      '~/.config/gcloud/credentials.db',
      '~/.azure/msal_token_cache.json',
      '~/.kube/config',
      '~/.docker/config.json',
    ],
  },
  {
    kind: 'keyring',
    on: 'any',
    places: [
      '~/.gnupg',
      '~/.gnupg/**',
      '~/.password-store',
      '~/.password-store/**',
      '~/.local/share/keyrings',
      '~/.local/share/keyrings/**',
      '~/Library/Keychains/**',
    ],
    samples: ['~/.gnupg/private-keys-v1.d/x.key', '~/.gnupg/secring.gpg', '~/.password-store/x.gpg', '~/.local/share/keyrings/login.keyring'],
  },
  {
    kind: 'system-auth',
    on: 'any',
    places: ['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/master.passwd', '/etc/sudoers', '/etc/sudoers.d/**'],
    samples: ['/etc/shadow', '/etc/gshadow', '/etc/sudoers'],
  },
  {
    // World-readable by design (getent, ls -l and every login read them), so only writes are blocked.
    kind: 'system-auth',
    on: 'write',
    places: ['/etc/passwd', '/etc/passwd-', '/etc/group', '/etc/group-', '/etc/pam.d/**', '/etc/security/**'],
    samples: ['/etc/passwd', '/etc/group'],
  },
  {
    kind: 'agent-credentials',
    on: 'any',
    places: [
      '~/.claude/.credentials.json',
      '~/.codex/auth.json',
      '~/.gemini/oauth_creds.json',
      '~/.config/gh/hosts.yml',
      '~/.config/github-copilot',
      '~/.config/github-copilot/**',
      '~/.npmrc',
      '~/.yarnrc.yml',
      '~/.pypirc',
      '~/.netrc',
      '~/.git-credentials',
      '~/.config/git/credentials',
      '~/.cargo/credentials',
      '~/.cargo/credentials.toml',
      '~/.gem/credentials',
    ],
    samples: [
      '~/.claude/.credentials.json',
      '~/.codex/auth.json',
      '~/.config/gh/hosts.yml',
      '~/.npmrc',
      '~/.pypirc',
      '~/.netrc',
      '~/.git-credentials',
    ],
  },
  {
    // Code that every new shell runs: writing here is persistence, reading is harmless.
    kind: 'shell-profile',
    on: 'write',
    places: [
      '~/.bashrc',
      '~/.bash_profile',
      '~/.bash_login',
      '~/.bash_logout',
      '~/.profile',
      '~/.zshrc',
      '~/.zshenv',
      '~/.zprofile',
      '~/.zlogin',
      '~/.zlogout',
      '~/.config/fish/config.fish',
      '~/.config/fish/conf.d/**',
      '/etc/profile',
      '/etc/profile.d/**',
      '/etc/bash.bashrc',
      '/etc/bashrc',
      '/etc/zshrc',
      '/etc/zsh/**',
      '/etc/environment',
    ],
    samples: ['~/.bashrc', '~/.zshrc', '~/.profile', '~/.bash_profile'],
  },
  {
    kind: 'dotenv',
    on: 'any',
    names: ['.env', '.env.*', '.envrc'],
    except: ['.env.example', '.env.*.example', '.env.sample', '.env.*.sample', '.env.template', '.env.*.template', '.env.dist', '.env.*.dist'],
    samples: ['.env', '.env.local', '.env.production'],
  },
  {
    kind: 'private-key',
    on: 'any',
    names: ['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_ecdsa_sk', 'id_ed25519_sk', '*.key', '*.ppk'],
    samples: ['id_rsa', 'id_ed25519', 'server.key'],
  },
  {
    kind: 'certificate',
    on: 'any',
    names: ['*.pem', '*.p12', '*.pfx', '*.keystore', '*.jks'],
    samples: ['cert.pem', 'cert.p12', 'cert.pfx', 'app.keystore', 'app.jks'],
  },
];

// Segments and file names that mark code that is not the user's live configuration.
const EXEMPT_SEGMENTS = new Set(['node_modules', 'test', 'tests', '__tests__', 'fixtures', '__fixtures__', 'testdata', 'fixture', '__mocks__']);
// `app.test.pem` is a fixture; `.env.test.local` is a live env file, so dotfiles do not qualify.
const EXEMPT_NAME = /^[^.].*\.(?:test|spec)\./;

// --- internal ---

interface CompiledRule {
  kind: string;
  on: 'any' | 'write';
  places: RegExp[];
  names: RegExp[];
  except: RegExp[];
  samples: string[];
}

interface Judge {
  judge(path: string, context: JudgeContext): PathVerdict;
}

const cache = new WeakMap<object, Map<string, Judge>>();

function compile(options: OptionsInput, home: string): Judge {
  let byHome = cache.get(options);
  if (!byHome) cache.set(options, (byHome = new Map()));
  let judge = byHome.get(home);
  if (!judge) byHome.set(home, (judge = _buildJudge(options, home)));
  return judge;
}

function _buildJudge(options: OptionsInput, home: string): Judge {
  const rules: CompiledRule[] = RULES.map((rule) => ({
    kind: rule.kind,
    on: rule.on,
    places: (rule.places ?? []).flatMap((glob) => placeRegExps(glob, home)),
    names: (rule.names ?? []).map((glob) => globToRegExp(glob)),
    except: (rule.except ?? []).map((glob) => globToRegExp(glob)),
    samples: rule.samples.map((s) => (s.startsWith('~/') ? home + s.slice(1) : s)),
  }));
  const allow = (options.allow ?? []).map((glob) => userGlob(glob, home));
  const extra = (options.extra ?? []).map((glob) => userGlob(glob, home));

  const judgeConcrete = (resolved: string, access: Access, exemptCheckPath: string): PathVerdict => {
    const lower = resolved.toLowerCase();
    const name = posix.basename(lower);
    if (allow.some((re) => re.test(lower))) return { verdict: 'allow' };
    for (const rule of rules) {
      if (rule.on === 'write' && access !== 'write') continue;
      if (rule.except.some((re) => re.test(name))) continue;
      if (rule.places.some((re) => re.test(lower))) return block(rule.kind, resolved);
    }
    if (extra.some((re) => re.test(lower))) return block('extra', resolved);
    if (isExempt(exemptCheckPath.toLowerCase())) return { verdict: 'allow' };
    for (const rule of rules) {
      if (rule.on === 'write' && access !== 'write') continue;
      if (rule.names.length === 0 || rule.except.some((re) => re.test(name))) continue;
      if (rule.names.some((re) => re.test(name))) return block(rule.kind, resolved);
    }
    return { verdict: 'allow' };
  };

  return {
    judge(path, context) {
      const resolved = resolvePath(path, context.cwd, context.home);
      const exemptCheckPath = relativeToOwner(resolved, context.cwd, context.home);
      const direct = judgeConcrete(resolved, context.access, exemptCheckPath);
      if (direct.verdict === 'block' || !/[*?[]/.test(resolved)) return direct;
      // A shell glob word (`cat ~/.ssh/id_*`, `cat *.pem`) is judged by the files it could expand to:
      // representative names of each rule, placed in the glob's own directory for name rules.
      // A bare `*` in an ordinary directory is not a request for secrets, so name rules need a
      // literal in the glob's last segment (`*.pem`, `.env*`, `id_*`).
      const word = globToRegExp(resolved.toLowerCase(), { dot: false });
      const dir = posix.dirname(resolved);
      const nameHasLiteral = /[^*?[\]{},]/.test(posix.basename(resolved).replace(/\[[^\]]*\]/g, ''));
      for (const rule of rules) {
        if (rule.names.length > 0 && !nameHasLiteral) continue;
        const probes = rule.names.length > 0 ? rule.samples.map((s) => posix.join(dir, s)) : rule.samples;
        for (const probe of probes) {
          if (!word.test(probe.toLowerCase())) continue;
          const verdict = judgeConcrete(probe, context.access, relativeToOwner(probe, context.cwd, context.home));
          if (verdict.verdict === 'block') return block(verdict.kind, resolved);
        }
      }
      return direct;
    },
  };
}

function block(kind: string, path: string): PathVerdict {
  return { verdict: 'block', kind, path, reason: `${kind}: ${path}` };
}

/**
 * The part of the path that decides the test/fixture exemption: only what lies below the
 * project (cwd) or the home directory, so a user called `test` or a checkout under `/srv/tests`
 * does not exempt every file in it.
 */
function relativeToOwner(resolved: string, cwd: string, home: string): string {
  for (const root of [cwd, home]) {
    const base = posix.resolve(root);
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

/** `~/x` means our home and every other account's home; absolute globs stay as they are. */
function placeRegExps(glob: string, home: string): RegExp[] {
  if (!glob.startsWith('~/')) return [globToRegExp(glob.toLowerCase())];
  const rest = glob.slice(1).toLowerCase();
  const homes = [escapeGlob(posix.resolve(home).toLowerCase()), '/home/*', '/users/*', '/root', '/var/root'];
  return [...new Set(homes)].map((h) => globToRegExp(h + rest));
}

/** A user glob: `~/` and `/` anchor it; anything else may start at any directory (like .gitignore). */
function userGlob(glob: string, home: string): RegExp {
  const g = glob.toLowerCase();
  if (g.startsWith('~/')) return globToRegExp(escapeGlob(posix.resolve(home).toLowerCase()) + g.slice(1));
  if (g.startsWith('/')) return globToRegExp(g);
  return globToRegExp('**/' + g.replace(/^\.\//, ''));
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]{}\\]/g, '\\$&');
}

/**
 * Minimal glob → RegExp: `**` spans directories, `*` and `?` stay within one, `[...]` and
 * `{a,b}` as in the shell, and `*` also matches dotfiles (a secret dotfile must not slip by).
 */
export function globToRegExp(glob: string, { dot = true }: { dot?: boolean } = {}): RegExp {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    // The shell's own `*` skips dotfiles: `cat *` does not read `.env`.
    if (!dot && (i === 0 || glob[i - 1] === '/') && (c === '*' || c === '?' || c === '[')) out += '(?!\\.)';
    if (c === '\\' && i + 1 < glob.length) {
      out += escapeRe(glob[++i]!);
    } else if (c === '*') {
      if (glob[i + 1] === '*') {
        const atSegmentStart = i === 0 || glob[i - 1] === '/';
        i++;
        if (atSegmentStart && glob[i + 1] === '/') {
          out += '(?:[^/]*/)*';
          i++;
        } else if (glob[i - 2] === '/' && i === glob.length - 1) {
          // `dir/**` also matches `dir` itself.
          out = out.slice(0, -1) + '(?:/.*)?';
        } else out += '.*';
      } else out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        let body = glob.slice(i + 1, end);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        out += '[' + body.replace(/\\/g, '\\\\') + ']';
        i = end;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else out += escapeRe(c);
  }
  if (braces > 0) return new RegExp('^' + escapeRe(glob) + '$');
  return new RegExp('^' + out + '$');
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// --- finding the paths in a tool input ---

interface Target {
  path: string;
  access: Access;
}

const READ_TOOLS = new Set(['read', 'Read', 'read_file', 'read_many_files', 'view', 'NotebookRead']);
const WRITE_TOOLS = new Set(['write', 'edit', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'write_file', 'replace', 'create', 'str_replace_editor']);
const EXEC_TOOLS = new Set(['exec', 'Bash', 'bash', 'shell', 'Shell', 'run_shell_command', 'local_shell']);
const PATH_FIELDS = ['file_path', 'path', 'absolute_path', 'notebook_path', 'filePath'] as const;

/** Every path the tool call would touch, with the access it needs. */
export function findTargets(input: HookInput, canonicalTool?: string): Target[] {
  const tool = canonicalTool ?? input.tool_name ?? '';
  const args = input.tool_input ?? {};
  if (tool === 'apply_patch') return patchTargets(args);
  if (EXEC_TOOLS.has(tool)) return typeof args.command === 'string' ? execTargets(args.command) : [];
  const access: Access = READ_TOOLS.has(tool) ? 'read' : WRITE_TOOLS.has(tool) ? 'write' : 'write';
  return fieldPaths(args).map((path) => ({ path, access }));
}

function fieldPaths(args: Record<string, unknown>): string[] {
  const paths: string[] = [];
  for (const field of PATH_FIELDS) {
    const value = args[field];
    if (typeof value === 'string' && value !== '') paths.push(value);
  }
  for (const list of [args.paths, args.edits]) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (typeof item === 'string') paths.push(item);
      else if (item && typeof item === 'object' && typeof (item as { file_path?: unknown }).file_path === 'string') {
        paths.push((item as { file_path: string }).file_path);
      }
    }
  }
  return paths;
}

/** Codex puts the whole patch in `command` (older builds: `input` or `patch`). */
function patchTargets(args: Record<string, unknown>): Target[] {
  const text = [args.command, args.input, args.patch].find((v): v is string => typeof v === 'string');
  const targets: Target[] = [];
  if (text) {
    for (const match of text.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+?)\s*$/gm)) {
      targets.push({ path: match[1]!, access: 'write' });
    }
  }
  return [...targets, ...fieldPaths(args).map((path) => ({ path, access: 'write' as const }))];
}

// A command that writes anywhere (redirect, tee, cp, sed -i, ...) has every file word judged as a
// write: the word list does not say which word is the destination, and a missed `>> ~/.bashrc`
// costs more than blocking `cat ~/.bashrc > copy`.
const WRITES = /(?:^|[^<&0-9>])>>?|>\||\b(?:tee|cp|mv|install|ln|dd|rsync|truncate|chmod|chown)\b|\bsed\s+(?:-[a-z]*\s+)*-[a-z]*i|\bperl\s+-[a-z]*i/;

function execTargets(command: string): Target[] {
  const access: Access = WRITES.test(command) ? 'write' : 'read';
  const parsed = commandFileWords(command);
  // On a parse failure the words are still worth judging: a rough split beats judging nothing.
  const words = parsed.ok ? parsed.words : command.split(/[\s;&|<>()`]+/).map((w) => w.replace(/^['"]|['"]$/g, ''));
  const targets: Target[] = [];
  for (const word of words) {
    if (word === '' || (word.startsWith('-') && !word.includes('='))) continue;
    // `--file=.env`, `dd if=~/.ssh/id_rsa`: the value after `=` is the path.
    const eq = /^(?:--?[A-Za-z][\w-]*|[a-z]+)=(.+)$/.exec(word);
    if (eq) targets.push({ path: eq[1]!, access });
    targets.push({ path: word, access });
  }
  return targets;
}
