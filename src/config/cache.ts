// Checked configs, cached. `hooks run` starts once per tool call, and checking a config with zod costs
// more than the rest of a run; the config itself rarely changes. The key is the exact content of every
// layer (and the runner's version), so any edit is a miss and is checked in full again.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadGuard } from '../guards/index.js';
import { VERSION } from '../version.js';
import type { ConfigLayer } from './load.js';
import { builtinRun, resolveConfig, type HandlerSpec, type HookRun, type ResolvedConfig, type ResolvedHook } from './resolve.js';

const FORMAT = 1;
/** Entries kept; older ones are removed when a new one is written. */
const MAX_ENTRIES = 64;

/** `resolveConfig`, from the cache when these exact layers were checked before. */
export async function resolveCached(
  layers: readonly ConfigLayer[],
  options: { cwd: string; env: NodeJS.ProcessEnv; handlers?: readonly HandlerSpec[] },
): Promise<ResolvedConfig> {
  const usable =
    layers.length > 0 &&
    options.handlers === undefined &&
    !options.env.HOOKS_NO_CACHE &&
    // A JS config can change without its exported object changing shape in JSON (functions, imports).
    layers.every((l) => !/\.(c|m)?js$/.test(l.file));
  if (!usable) return resolveConfig(layers, options);

  const file = cacheFile(layers, options.cwd, options.env);
  const cached = await read(file, options.env);
  if (cached !== undefined) return cached;
  const resolved = await resolveConfig(layers, options);
  write(file, resolved);
  return resolved;
}

/** Where checked configs are kept: `$XDG_CACHE_HOME/agent-hooks/config` (`~/.cache/...`). */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME || path.join(env.HOME || os.homedir(), '.cache');
  return path.join(base, 'agent-hooks', 'config');
}

// --- internal ---

interface Entry {
  format: number;
  config: Omit<ResolvedConfig, 'hooks'> & { hooks: (Omit<ResolvedHook, 'run'> & { run: StoredRun })[] };
}

type StoredRun = Extract<HookRun, { kind: 'command' }> | { kind: 'builtin'; guard: string; audit: boolean; options: unknown };

function cacheFile(layers: readonly ConfigLayer[], cwd: string, env: NodeJS.ProcessEnv): string {
  const key = createHash('sha256')
    .update(JSON.stringify({ format: FORMAT, version: VERSION, cwd, layers: layers.map((l) => [l.layer, l.file, l.dir, l.config]) }))
    .digest('hex');
  return path.join(cacheDir(env), `${key}.json`);
}

/** The cached config rebuilt, or undefined on any miss or damage (then it is checked afresh). */
async function read(file: string, env: NodeJS.ProcessEnv): Promise<ResolvedConfig | undefined> {
  try {
    return await rebuild(JSON.parse(readFileSync(file, 'utf8')) as Entry, env);
  } catch {
    return undefined;
  }
}

async function rebuild(entry: Entry, env: NodeJS.ProcessEnv): Promise<ResolvedConfig | undefined> {
  if (entry.format !== FORMAT || !Array.isArray(entry.config?.hooks)) return undefined;
  const context = { projectDir: entry.config.projectDir, env };
  const hooks: ResolvedHook[] = [];
  for (const stored of entry.config.hooks) {
    let run: HookRun;
    if (stored.run.kind === 'builtin') {
      const guard = await loadGuard(stored.run.guard);
      if (guard === undefined) return undefined;
      run = builtinRun(guard, stored.run.options, stored.run.audit, context);
    } else {
      run = stored.run;
    }
    hooks.push({ ...stored, run });
  }
  return { ...entry.config, hooks };
}

/** Best effort: a cache that cannot be written only costs the next run its speed. */
function write(file: string, config: ResolvedConfig): void {
  const entry: Entry = {
    format: FORMAT,
    config: {
      ...config,
      hooks: config.hooks.map((h) => ({ ...h, run: h.run.kind === 'builtin' ? { kind: 'builtin', guard: h.run.guard, audit: h.run.audit, options: h.run.options } : (h.run as StoredRun) })),
    },
  };
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600 });
    renameSync(tmp, file);
    prune(path.dirname(file));
  } catch {
    // Read-only home, full disk: run uncached.
  }
}

function prune(dir: string): void {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  if (files.length <= MAX_ENTRIES) return;
  const byAge = files.map((f) => ({ f, t: statSync(path.join(dir, f)).mtimeMs })).sort((a, b) => a.t - b.t);
  for (const { f } of byAge.slice(0, files.length - MAX_ENTRIES)) unlinkSync(path.join(dir, f));
}
