// Whether a variable in the runner's environment (the judge's endpoint and key, telemetry's OTEL_*, the runner's
// own HOOKS_*, what its hooks' programs read at start) was put there by the repository. Gemini CLI
// 0.61.0 (read in its bundle: loadEnvironment / findEnvFile) loads the first `.gemini/.env` or `.env` it
// finds from the workspace up into its own environment, every variable in a trusted folder, without
// overriding one already set; the hooks it spawns, and so the runner, inherit them. A repository's `.env`
// with ANTHROPIC_BASE_URL would then send the user's key to the repository's server. A variable whose
// value is the one a `.env` of the project (or a folder above it, below the home folder) gives it is
// taken as the repository's. Values are compared, never shown: a `.env` holds secrets.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { realOrSelf } from '../paths.js';

/** Bytes of a `.env` file read; a larger one is not a dotenv file anyone writes by hand. */
const ENV_FILE_LIMIT = 256 * 1024;

/** The project `.env` file that sets `name` to `value`, or undefined. */
export function projectEnvSource(name: string, value: string, projectDir: string, home: string | undefined): string | undefined {
  return plantedIn(projectEnvFiles(projectDir, home), name, value);
}

/** The `.env` files from `projectDir` up to (not into) the home folder, nearest first, with their text. */
function projectEnvFiles(projectDir: string, home: string | undefined): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = [];
  // Real paths on both sides: a home reached through a link (/home -> /var/home) must still stop the walk, or the
  // user's own ~/.env would count as the repository's.
  let dir = realOrSelf(projectDir);
  const stop = home === undefined || home === '' ? undefined : realOrSelf(home);
  for (;;) {
    if (dir === stop) return found;
    for (const file of [path.join(dir, '.gemini', '.env'), path.join(dir, '.env')]) {
      const text = readSmall(file);
      if (text !== undefined) found.push({ file, text });
    }
    const parent = path.dirname(dir);
    if (parent === dir) return found;
    dir = parent;
  }
}

function plantedIn(files: { file: string; text: string }[], name: string, value: string): string | undefined {
  for (const { file, text } of files) {
    const set = dotenvValue(text, name);
    if (set !== undefined && set.trim() === value.trim()) return file;
  }
  return undefined;
}

/**
 * dotenv 16's line pattern (Gemini CLI 0.61.0 bundles it and reads a `.env` with `dotenv.parse`): global and
 * multi-line, so a quoted value may span lines; an unquoted value ends at the first `#`, and a quoted one may
 * be followed by a comment. Parsed any other way, a planted value would not be recognised as the file's.
 */
const DOTENV_LINE = /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/gm;

/** The value a dotenv text gives `name` as dotenv.parse gives it (the last assignment wins), or undefined. */
export function dotenvValue(text: string | undefined, name: string): string | undefined {
  if (text === undefined) return undefined;
  let found: string | undefined;
  for (const m of text.replace(/\r\n?/g, '\n').matchAll(DOTENV_LINE)) {
    if (m[1] !== name) continue;
    let v = (m[2] ?? '').trim();
    const quote = v[0];
    v = v.replace(/^(['"`])([\s\S]*)\1$/gm, '$2');
    if (quote === '"') v = v.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    found = v;
  }
  return found;
}

function readSmall(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > ENV_FILE_LIMIT) return undefined;
    return readFileSync(fd, 'utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The variables that steer the runner itself: where the user and managed layers, the trust store and the caches
 * are, and the switches that turn hooks off or make a failure continue. A repository's `.env` that Gemini CLI loads
 * must set none of them (an `XDG_CONFIG_HOME=./cfg` would make a repository file the user layer, which runs
 * unreviewed; `HOOKS_DISABLE=1` would switch every guard off).
 */
export const RUNNER_ENV = ['HOOKS_DISABLE', 'HOOKS_SKIP', 'HOOKS_ON_ERROR', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'AGENT_HOOKS_MANAGED_CONFIG'] as const;

/**
 * Variables that make a program run code it does not name, or run its own script otherwise: a shell's startup file
 * and options, an interpreter's options, paths and caches, the dynamic loader's and OpenSSL's modules, git's config,
 * repository and helpers, the TLS roots a hook's own requests trust. From a repository's `.env` (Gemini CLI loads it,
 * and the runner's hooks inherit the runner's environment) they would run the repository's code inside every hook,
 * or make a guard pass: a bash guard whose BASH_ENV file says `exit 0`, or run with SHELLOPTS=noexec, blocks nothing.
 */
export const HOOK_STEERING_ENV = [
  'BASH_ENV', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'BASH_XTRACEFD', 'GLOBIGNORE', 'POSIXLY_CORRECT',
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_EXTRA_CA_CERTS', 'NODE_TLS_REJECT_UNAUTHORIZED',
  'PYTHONPATH', 'PYTHONHOME', 'PYTHONSTARTUP', 'PYTHONUSERBASE', 'PYTHONWARNINGS', 'PYTHONEXECUTABLE', 'PYTHONPYCACHEPREFIX', 'PYTHONINSPECT', 'PYTHONOPTIMIZE', 'PYTHONPLATLIBDIR',
  'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'RUBYOPT', 'RUBYLIB', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'MAKEFILES', 'CURL_HOME',
  'LD_PRELOAD', 'LD_AUDIT', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH', 'GCONV_PATH', 'GLIBC_TUNABLES', 'LOCPATH', 'NLSPATH',
  'OPENSSL_CONF', 'OPENSSL_MODULES', 'OPENSSL_ENGINES', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_INDEX_FILE', 'GIT_TEMPLATE_DIR', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_PARAMETERS',
  'GIT_EXEC_PATH', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_PROXY_COMMAND', 'GIT_ASKPASS', 'SSH_ASKPASS', 'GIT_EXTERNAL_DIFF', 'GIT_PAGER', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'EDITOR', 'VISUAL',
] as const;
/** git reads a config entry from each GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n> pair (core.fsmonitor runs a command); npm each npm_config_<key> (script-shell, node-options). */
const STEERING_PATTERN = /^(GIT_CONFIG_(KEY|VALUE)_\d+|npm_config_\w+)$/i;

/**
 * Of those, the ones that act on the runner's own process, before any line of it runs: node reads NODE_OPTIONS and
 * OpenSSL's config at start, the dynamic loader its preloads and paths. Planted, the runner may already be running
 * the repository's code, and nothing it answers can be trusted (src/cli/main.ts decides what then happens).
 */
const BEFORE_THE_RUNNER = new Set(['NODE_OPTIONS', 'LD_PRELOAD', 'LD_AUDIT', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH', 'GCONV_PATH', 'GLIBC_TUNABLES', 'OPENSSL_CONF', 'OPENSSL_MODULES', 'OPENSSL_ENGINES']);
/** NODE_OPTIONS flags that load no code and open nothing (a heap of at least 256 MB: a tiny one stops node): a `.env` holding only these is left out of the hooks, not blocked. */
const INERT_NODE_OPTION = /^--max-old-space-size=([3-9]\d{2}|[1-9]\d{3,5})$|^--(no-warnings|no-deprecation|trace-warnings|trace-deprecation|enable-source-maps|openssl-legacy-provider|use-openssl-ca|use-bundled-ca|preserve-symlinks)$|^--(dns-result-order=(ipv4first|ipv6first|verbatim)|unhandled-rejections=(strict|warn|throw|none|warn-with-error-code))$/;

export interface PlantedEnv {
  /** `env` without the variables dropped. */
  env: NodeJS.ProcessEnv;
  /** One line per variable dropped, naming the file. */
  problems: string[];
  /** Set when a variable that acts before the runner's own code was planted: the event must be blocked, and why. */
  compromised?: string;
}

/**
 * `env` without the variables a project `.env` (from `cwd` up to the home folder) set that steer the runner
 * (RUNNER_ENV) or its hooks (HOOK_STEERING_ENV), with one line per variable dropped.
 */
export function withoutPlantedEnv(env: NodeJS.ProcessEnv, cwd: string): PlantedEnv {
  let out = env;
  const problems: string[] = [];
  let compromised: string | undefined;
  const names = [...RUNNER_ENV, ...HOOK_STEERING_ENV, ...Object.keys(env).filter((n) => STEERING_PATTERN.test(n))];
  // Read once, and only when one of the names is set at all (most runs: none is).
  let files: { file: string; text: string }[] | undefined;
  for (const name of names) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    files ??= projectEnvFiles(cwd, env.HOME);
    const planted = plantedIn(files, name, value);
    if (planted === undefined) continue;
    if (out === env) out = { ...env };
    delete out[name];
    if ((RUNNER_ENV as readonly string[]).includes(name)) {
      problems.push(`${planted} sets ${name}: a repository's .env does not steer the runner; ignored`);
      continue;
    }
    problems.push(`${planted} sets ${name}, which would steer every hook (run the repository's code, or change how a guard runs); left out of the hooks' environment`);
    const inert = name === 'NODE_OPTIONS' && value.trim().split(/\s+/).every((flag) => INERT_NODE_OPTION.test(flag));
    if (BEFORE_THE_RUNNER.has(name) && !inert) {
      compromised ??= `${planted} sets ${name}, which acts on the runner itself before agent-hooks can check anything (an agent that loads that file, as Gemini CLI does, hands it to every hook it starts), so nothing the runner answers can be trusted. Remove ${name} from that file; a .env (not .gemini/.env) variable can also be kept out with Gemini CLI's advanced.excludedEnvVars`;
    }
  }
  return { env: out, problems, ...(compromised === undefined ? {} : { compromised }) };
}

/** The agents that load a project's `.env` into the environment of their hooks (Gemini CLI and its forks). */
const LOADS_PROJECT_DOTENV = new Set(['gemini', 'qwen-code']);

/**
 * Whether an event's answer is blocked once a project `.env` has acted on the runner before its code ran
 * (`compromised`): under an agent known to load that file, yes, as the runner cannot vouch for its own answer. Not a
 * Stop, where exit 2 means "go on" and would keep the agent working for ever; not under other agents, where a value
 * equal to the file's is more likely the user's own (direnv, `set -a; . .env`), and the warning says it.
 */
export function compromisedBlocks(dialect: string | undefined, event: string | undefined): boolean {
  if (dialect === undefined || !LOADS_PROJECT_DOTENV.has(dialect)) return false;
  const name = (event ?? '').toLowerCase().replace(/[-_]/g, '');
  return name !== 'stop' && name !== 'subagentstop' && name !== 'afteragent';
}
