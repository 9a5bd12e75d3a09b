// Checked configs, cached. `hooks run` starts once per tool call, and checking a config with zod costs
// more than the rest of a run; the config itself rarely changes. The cache is someone else's way in, so:
// it is used only when its directory is the user's own and private (0700); every entry carries an HMAC
// under a per-user key (0600) and is keyed on the sha256 of every layer's bytes and trust state; an
// entry that fails any check is a miss, and the config is checked afresh.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { GUARD_IDS, loadGuard } from '../guards/index.js';
import type { GuardContext } from '../types.js';
import { cacheDir as agentCacheDir } from '../paths.js';
import { readPrivateFile, writePrivateFile } from '../fs/private.js';
import { VERSION } from '../version.js';
import { isJsFile, type ConfigLayer } from './load.js';
import { macKey, seal, unseal } from './mac-key.js';
import { CONFIG_CHECKED, noteCodeParts } from '../code-parts.js';
import { builtinRun, resolveConfig, type HandlerSpec, type HookRun, type ResolvedConfig, type ResolvedHook } from './resolve.js';

const FORMAT = 6;
/** Entries kept; older ones are removed when a new one is written. */
const MAX_ENTRIES = 64;

/** `resolveConfig`, from the cache when these exact layers were checked before. */
export async function resolveCached(
  layers: readonly ConfigLayer[],
  options: { cwd: string; env: NodeJS.ProcessEnv; handlers?: readonly HandlerSpec[]; locked?: boolean; anyTool?: boolean },
): Promise<ResolvedConfig> {
  const usable =
    options.handlers === undefined &&
    // Checked another way than `hooks run` checks it; `hooks mcp` resolves once for its whole life.
    options.anyTool !== true &&
    // The cache and its key are the user's: an entry they made could drop a managed hook.
    options.locked !== true &&
    !options.env.HOOKS_NO_CACHE &&
    // A JS config's imports can change without its bytes changing.
    layers.every((l) => !isJsFile(l.file) || l.config === undefined);
  const key = usable ? cacheKey(layers, options.cwd) : undefined;
  const dir = cacheDir(options.env);
  const secret = key === undefined ? undefined : macKey(dir);
  if (key === undefined || secret === undefined) return resolveConfig(layers, options);

  const file = path.join(dir, `${key}.json`);
  const cached = await read(file, key, secret, options.env);
  if (cached !== undefined) return cached;
  // This run checks the config (zod): the CLI's code cache is better made by a run that does not.
  noteCodeParts(CONFIG_CHECKED);
  const resolved = await resolveConfig(layers, options);
  write(file, key, secret, resolved);
  return resolved;
}

/** Where checked configs are kept: `$XDG_CACHE_HOME/agent-hooks/config` (`~/.cache/...`). */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  return path.join(agentCacheDir(env), 'config');
}

// --- internal ---

interface Entry {
  format: number;
  key: string;
  config: Omit<ResolvedConfig, 'hooks'> & { hooks: (Omit<ResolvedHook, 'run'> & { run: StoredRun })[] };
}

/** `observer`: whether the guard watches whole runs (audit-log), known without loading it. */
type StoredBuiltin = { kind: 'builtin'; guard: string; audit: boolean; options: unknown; observer: boolean };
type StoredRun = Extract<HookRun, { kind: 'command' | 'http' | 'prompt' | 'mcp_tool' }> | StoredBuiltin;

/**
 * The sha256 of every layer's bytes (or, for inline configs, its JSON), trust state, problem and the
 * states of the files its trust covers (a changed script is never served from here, even if a bug let
 * it through the trust check); undefined when it cannot be told.
 */
function cacheKey(layers: readonly ConfigLayer[], cwd: string): string | undefined {
  try {
    const part = (l: ConfigLayer): unknown[] => [l.layer, l.file, l.dir, l.sha256 ?? createHash('sha256').update(JSON.stringify(l.config) ?? 'undefined').digest('hex'), l.trust ?? 'implicit', l.problem ?? '', l.keyPrefix ?? '', l.covers ?? null];
    // What a layer extends is part of it: each extended file's bytes, where it came from and why it did not load.
    const parts = layers.map((l) => [...part(l), (l.extended ?? []).map((e) => [...part(e), e.via ?? null, e.real ?? '', e.required === true])]);
    return createHash('sha256').update(JSON.stringify({ format: FORMAT, version: VERSION, cwd, parts })).digest('hex');
  } catch {
    return undefined;
  }
}

/** The cached config rebuilt, or undefined on any miss, damage or forgery (then it is checked afresh). */
async function read(file: string, key: string, secret: Buffer, env: NodeJS.ProcessEnv): Promise<ResolvedConfig | undefined> {
  const text = readPrivateFile(file);
  const body = text === undefined ? undefined : unseal(secret, text);
  if (body === undefined) return undefined;
  try {
    const entry = JSON.parse(body) as Entry;
    if (entry.key !== key) return undefined;
    return await rebuild(entry, env);
  } catch {
    return undefined;
  }
}

async function rebuild(entry: Entry, env: NodeJS.ProcessEnv): Promise<ResolvedConfig | undefined> {
  if (entry.format !== FORMAT || !Array.isArray(entry.config?.hooks)) return undefined;
  const configured = entry.config.layers.some((l) => l.layer === 'project');
  const context = { projectDir: entry.config.projectDir, ...(configured ? { configDir: entry.config.projectDir } : {}), env };
  const hooks: ResolvedHook[] = [];
  for (const stored of entry.config.hooks) {
    if (stored.run.kind === 'builtin' && !GUARD_IDS.includes(stored.run.guard)) return undefined;
    hooks.push({ ...stored, run: stored.run.kind === 'builtin' ? lazyBuiltin(stored.run, context) : stored.run });
  }
  return { ...entry.config, hooks };
}

/**
 * A cached builtin whose guard is loaded and created on its first call: a run pays only for the guards
 * of its own event (a preToolUse run never loads redact-secrets). A guard that fails to load throws
 * inside the hook, so it fails as the hook's onFailure says (block, for a guard on an intercepting event).
 */
function lazyBuiltin(stored: StoredBuiltin, context: GuardContext): HookRun {
  let made: Promise<Extract<HookRun, { kind: 'builtin' }>> | undefined;
  const make = () =>
    (made ??= loadGuard(stored.guard).then((guard) => {
      if (guard === undefined) throw new Error(`unknown guard "${stored.guard}"`);
      return builtinRun(guard, stored.options, stored.audit, context) as Extract<HookRun, { kind: 'builtin' }>;
    }));
  const run: HookRun = { kind: 'builtin', guard: stored.guard, audit: stored.audit, options: stored.options, handler: async (input, ctx) => (await make()).handler(input, ctx) };
  if (stored.observer) run.observer = async (observed) => (await make()).observer?.(observed);
  return run;
}

/** Best effort: a cache that cannot be written only costs the next run its speed. */
function write(file: string, key: string, secret: Buffer, config: ResolvedConfig): void {
  try {
    const entry: Entry = {
      format: FORMAT,
      key,
      config: {
        ...config,
        hooks: config.hooks.map((h) => ({ ...h, run: h.run.kind === 'builtin' ? { kind: 'builtin', guard: h.run.guard, audit: h.run.audit, options: h.run.options, observer: h.run.observer !== undefined } : (h.run as StoredRun) })),
      },
    };
    const body = JSON.stringify(entry);
    writePrivateFile(file, seal(secret, body));
    prune(path.dirname(file));
  } catch {
    // Read-only home, full disk, options JSON cannot hold: run uncached.
  }
}

function prune(dir: string): void {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  if (files.length <= MAX_ENTRIES) return;
  const byAge = files.map((f) => ({ f, t: lstatSync(path.join(dir, f)).mtimeMs })).sort((a, b) => a.t - b.t);
  for (const { f } of byAge.slice(0, files.length - MAX_ENTRIES)) unlinkSync(path.join(dir, f));
}
