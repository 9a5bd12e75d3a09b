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
  let dir = path.resolve(projectDir);
  const stop = home === undefined || home === '' ? undefined : path.resolve(home);
  for (;;) {
    if (dir === stop) return undefined;
    for (const file of [path.join(dir, '.gemini', '.env'), path.join(dir, '.env')]) {
      const set = dotenvValue(readSmall(file), name);
      if (set !== undefined && set.trim() === value.trim()) return file;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
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

/** `env` without the runner's own variables a project `.env` (from `cwd` up to the home folder) set, with one line per variable dropped. */
export function withoutPlantedRunnerEnv(env: NodeJS.ProcessEnv, cwd: string): { env: NodeJS.ProcessEnv; problems: string[] } {
  let out = env;
  const problems: string[] = [];
  for (const name of RUNNER_ENV) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    const planted = projectEnvSource(name, value, cwd, env.HOME);
    if (planted === undefined) continue;
    if (out === env) out = { ...env };
    delete out[name];
    problems.push(`${planted} sets ${name}: a repository's .env does not steer the runner; ignored`);
  }
  return { env: out, problems };
}
