// Whether a variable the runner reads from the environment (the judge's endpoint and key, telemetry's OTEL_*,
// the runner's own HOOKS_*) was put there by the repository. Gemini CLI
// 0.61.0 (read in its bundle: loadEnvironment / findEnvFile) loads the first `.gemini/.env` or `.env` it
// finds from the workspace up into its own environment, every variable in a trusted folder, without
// overriding one already set; the hooks it spawns, and so the runner, inherit them. A repository's `.env`
// with ANTHROPIC_BASE_URL would then send the user's key to the repository's server. A variable whose
// value is the one a `.env` of the project (or a folder above it, below the home folder) gives it is
// taken as the repository's. Values are compared, never shown: a `.env` holds secrets.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Bytes of a `.env` file read; a larger one is not a dotenv file anyone writes by hand. */
const ENV_FILE_LIMIT = 256 * 1024;

/** The project `.env` file that sets `name` to `value`, or undefined. */
export function projectEnvSource(name: string, value: string, projectDir: string, home: string | undefined): string | undefined {
  return plantedIn(projectEnvFiles(projectDir, home), name, value);
}

/** The `.env` files from `projectDir` up to (not into) the home folder, nearest first, with their text. */
function projectEnvFiles(projectDir: string, home: string | undefined): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = [];
  let dir = path.resolve(projectDir);
  const stop = home === undefined || home === '' ? undefined : path.resolve(home);
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
 * Variables that make a program run code it does not name: a shell's startup file, an interpreter's options and
 * module path, the dynamic loader's preloads, git's config and helpers. From a repository's `.env` (Gemini CLI loads
 * it, and the runner's hooks inherit the runner's environment) the repository's code would run inside every hook,
 * before the hook's own first line: a bash guard whose BASH_ENV file says `exit 0` lets every call through.
 */
export const LOADER_ENV = [
  'BASH_ENV', 'ENV',
  'NODE_OPTIONS', 'NODE_PATH',
  'PYTHONPATH', 'PYTHONHOME', 'PYTHONSTARTUP', 'PYTHONUSERBASE', 'PYTHONWARNINGS', 'PYTHONEXECUTABLE',
  'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'RUBYOPT', 'RUBYLIB', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS',
  'LD_PRELOAD', 'LD_AUDIT', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH', 'GCONV_PATH', 'GLIBC_TUNABLES',
  'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_PARAMETERS', 'GIT_EXEC_PATH', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_ASKPASS', 'SSH_ASKPASS', 'GIT_EXTERNAL_DIFF', 'GIT_PAGER', 'GIT_EDITOR',
] as const;
/** git reads a config entry from each GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n> pair (core.fsmonitor runs a command). */
const LOADER_PATTERN = /^GIT_CONFIG_(KEY|VALUE)_\d+$/;

/**
 * Of those, the ones that act on the runner's own process, before any line of it runs: node reads NODE_OPTIONS,
 * the dynamic loader its preloads and library path. Planted, the runner may already be running the repository's
 * code, and nothing it answers can be trusted: the event is blocked (a repository that planted them on purpose
 * can also hide them; this catches the rest, and says so: docs/security.md).
 */
const BEFORE_THE_RUNNER = new Set(['NODE_OPTIONS', 'LD_PRELOAD', 'LD_AUDIT', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH', 'GCONV_PATH', 'GLIBC_TUNABLES']);
/** NODE_OPTIONS flags that load no code and open nothing: a `.env` holding only these is dropped for the hooks, not blocked. */
const INERT_NODE_OPTION = /^--(max-old-space-size|max-semi-space-size|stack-size|max-http-header-size)=\d+$|^--(no-warnings|no-deprecation|trace-warnings|trace-deprecation|enable-source-maps|openssl-legacy-provider|use-openssl-ca|use-bundled-ca|preserve-symlinks|no-experimental-fetch)$|^--(dns-result-order=(ipv4first|ipv6first|verbatim)|unhandled-rejections=(strict|warn|throw|none|warn-with-error-code))$/;

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
 * (RUNNER_ENV) or load code into its hooks (LOADER_ENV), with one line per variable dropped.
 */
export function withoutPlantedEnv(env: NodeJS.ProcessEnv, cwd: string): PlantedEnv {
  let out = env;
  const problems: string[] = [];
  let compromised: string | undefined;
  const names = [...RUNNER_ENV, ...LOADER_ENV, ...Object.keys(env).filter((n) => LOADER_PATTERN.test(n))];
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
    problems.push(`${planted} sets ${name}, which would run the repository's code in every hook; left out of the hooks' environment`);
    const inert = name === 'NODE_OPTIONS' && value.trim().split(/\s+/).every((flag) => INERT_NODE_OPTION.test(flag));
    if (BEFORE_THE_RUNNER.has(name) && !inert) {
      compromised ??= `${planted} sets ${name}, which acts on the runner itself before agent-hooks can check anything (the agent loads that file into the environment of every hook it starts); nothing the runner answers can be trusted, so this event is blocked. Remove ${name} from that file; for Gemini CLI, a .env (not .gemini/.env) variable can also be kept out with advanced.excludedEnvVars`;
    }
  }
  return { env: out, problems, ...(compromised === undefined ? {} : { compromised }) };
}
