// Finds and reads the config layers (managed, user, project, local), and decides which of them may run:
// a project or local file found by the search runs only once the user trusted its exact bytes, and
// only while every file that trust covers (the scripts its commands run, a JS config's imports) is as it was.
// Files are read once, as bytes: what is hashed for trust is exactly what is parsed.
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HooksError, isHooksError } from '../errors.js';
import { EVENTS, findEvent } from '../events/catalog.js';
import { closest } from '../suggest.js';
import { DEFAULT_MANAGED_CONFIG, realOrSelf, userConfigFile } from '../paths.js';
import { unsafeOwnership } from '../fs/private.js';
import { checkTrust, digest, readTrustStore, type TrustCheck, type TrustStore } from '../trust/store.js';
import type { Covers } from '../trust/covers.js';
import { EXTENDS_COVER_PREFIX } from '../trust/covers.js';
import { parseExtends, printable } from './extends/source.js';
import { locateExtends, type FetchPolicy } from './extends/locate.js';
import { changeableByYou } from '../lock/detect.js';

export type LayerName = 'managed' | 'user' | 'project' | 'local' | 'api' | 'cli' | 'defaults';

/**
 * `implicit`: the user's own choice, no trust needed (managed, user, `--config`, an inline or API config).
 * `trusted` / `untrusted`: a file the project search found, by whether its bytes are in the trust store.
 */
export type TrustState = 'implicit' | 'trusted' | 'untrusted';

/** One config file as read, before validation. */
export interface ConfigLayer {
  layer: LayerName;
  file: string;
  /** Directory relative paths in this layer are resolved against. */
  dir: string;
  /** The parsed file; undefined when it was not read (untrusted JavaScript) or could not be. */
  config: unknown;
  /** sha256 of the file's bytes. */
  sha256?: string;
  /** Default `implicit`. */
  trust?: TrustState;
  /** Why the layer's hooks do not run (untrusted, unreadable): one line naming the file. */
  problem?: string;
  /** Prefix of key paths in messages: `hooks.` for a whole config kept in `package.json#hooks`. */
  keyPrefix?: string;
  /** The files its trust covers, as they were when read (a searched file whose bytes were trusted). */
  covers?: Covers;
  /** Reached through `extends`: each file and entry on the way from the layer's own file, outermost first. */
  via?: ExtendsStep[];
  /** The files this one extends, flattened in merge order (each before the file naming it); only on a layer's own file. */
  extended?: ConfigLayer[];
  /** Named by the managed layer's `requireExtends`: when it cannot be loaded, the events it could block are blocked. */
  required?: true;
  /** The real path of an extended file (what trust covers it as). */
  real?: string;
}

/** One hop of `extends`: the file that names the entry, and the entry as written. */
export interface ExtendsStep {
  file: string;
  extends: string;
}

/** Where the project search looked, for "no config found" messages. */
export interface SearchReport {
  start: string;
  /** Every directory looked in, nearest first. */
  dirs: string[];
  /** Why it stopped where it did. */
  stop: 'repository root' | 'home directory' | 'filesystem root';
}

export interface LoadedLayers {
  /** Every layer found, in merge order (managed, user, project, local), including those that do not run. */
  layers: ConfigLayer[];
  /** One line each: files skipped (owner, mode), content ignored (husky's package.json#hooks). */
  notices: string[];
  /** Config files in the project folder that the first one found shadows. */
  shadowed: string[];
  search?: SearchReport;
}

export interface LoadOptions {
  /** Where the project search starts (upwards). */
  cwd: string;
  /** Use this file as the project layer instead of searching (the user's choice: trusted). */
  configFile?: string;
  /** Environment, for `XDG_*`, `HOME` and `AGENT_HOOKS_MANAGED_CONFIG`. */
  env?: NodeJS.ProcessEnv;
  /** Only the project and local layers (for `hooks trust`): the user's own files are not read. */
  projectOnly?: boolean;
  /** A locked runner (src/lock): the managed layer is the default file, whatever the environment says. */
  locked?: boolean;
  /** Fetch git sources of `extends` missing from the cache (`hooks trust`): never on `hooks run`. */
  fetch?: boolean;
}

export const LOCAL_CONFIG_NAME = '.hooksrc.local.json';
export { DEFAULT_MANAGED_CONFIG };

export const SEARCH_PLACES = [
  '.hooksrc',
  '.hooksrc.json',
  '.hooksrc.yaml',
  '.hooksrc.yml',
  '.hooksrc.js',
  '.hooksrc.mjs',
  '.hooksrc.cjs',
  'hooks.config.js',
  'hooks.config.mjs',
  'hooks.config.cjs',
  'package.json',
];

/** Reads every layer that exists, in merge order: managed, user, project, local. */
export async function loadConfigLayers(options: LoadOptions): Promise<LoadedLayers> {
  const env = options.env ?? process.env;
  const layers: ConfigLayer[] = [];
  const notices: string[] = [];
  const shadowed: string[] = [];

  if (options.projectOnly !== true) {
    const managed = await loadManagedLayer(env, options.locked === true, options.fetch === true);
    if (managed !== undefined) layers.push(managed);
    const user = options.locked === true ? await lockedUserLayer(env) : await loadUserLayer(env, options.fetch === true);
    if (user !== undefined) layers.push(user);
  }

  let store: TrustStore | undefined;
  const trustOf = (file: string, sha256: string, dir: string): TrustCheck => {
    store ??= readTrustStore(env);
    if (store.problem !== undefined && !notices.includes(store.problem)) notices.push(store.problem);
    return checkTrust(store, file, sha256, dir);
  };

  let projectDir = path.resolve(options.cwd);
  let search: SearchReport | undefined;
  if (options.configFile !== undefined) {
    const file = path.resolve(options.cwd, options.configFile);
    if (!existsSync(file)) throw new HooksError('CONFIG_UNREADABLE', `${file}: config file not found`, { file });
    const bytes = readBytes(file);
    const layer: ConfigLayer = { layer: 'project', file, dir: path.dirname(file), config: undefined, sha256: digest(bytes), trust: 'implicit' };
    const refused = lockedRefusal(file, options.locked === true);
    if (refused !== undefined) layer.problem = refused;
    else {
      layer.config = await parse(file, bytes);
      if (path.basename(file) === 'package.json') Object.assign(layer, fromPackageJson(layer.config).layer);
      await attachExtends(layer, env, { fetch: options.fetch === true });
    }
    layers.push(layer);
    projectDir = layer.dir;
  } else {
    const found = await searchProject(projectDir, env, notices, shadowed, trustOf, options.locked === true, options.fetch === true);
    search = found.report;
    if (found.layer !== undefined && found.layer.file !== userConfigFile(env)) {
      layers.push(found.layer);
      projectDir = found.layer.dir;
    }
  }

  const localFile = path.join(projectDir, LOCAL_CONFIG_NAME);
  if (existsSync(localFile)) {
    const unsafe = unsafePath(localFile);
    if (unsafe !== undefined) notices.push(`${localFile}: skipped: ${unsafe}`);
    else layers.push(await readSearched('local', localFile, trustOf, options.locked === true, env, options.fetch === true));
  }
  return search === undefined ? { layers, notices, shadowed } : { layers, notices, shadowed, search };
}

/** The user layer alone, if there is one. Errors in it are the user's own and stop the run (see the docs). */
export async function loadUserLayer(env: NodeJS.ProcessEnv = process.env, fetch = false): Promise<ConfigLayer | undefined> {
  const file = userConfigFile(env);
  if (!existsSync(file)) return undefined;
  const bytes = readBytes(file);
  const layer: ConfigLayer = { layer: 'user', file, dir: path.dirname(file), config: await parse(file, bytes), sha256: digest(bytes), trust: 'implicit' };
  await attachExtends(layer, env, { fetch });
  return layer;
}

/**
 * The user layer of a locked runner: a file that cannot be read or parsed is reported and switched off,
 * never the runner's error, since the user could break it on purpose to stop the managed hooks.
 */
export async function lockedUserLayer(env: NodeJS.ProcessEnv): Promise<ConfigLayer | undefined> {
  try {
    return await loadUserLayer(env);
  } catch (error) {
    const file = userConfigFile(env);
    return { layer: 'user', file, dir: path.dirname(file), config: undefined, problem: (error as Error).message.split('\n')[0]! };
  }
}

/**
 * The managed layer's path: `AGENT_HOOKS_MANAGED_CONFIG`, else `/etc/agent-hooks/managed.json`. A locked
 * runner takes the default alone: the variable is the user's, and the lock was checked on that file.
 */
export function managedConfigPath(env: NodeJS.ProcessEnv, locked = false): string {
  return (!locked && env.AGENT_HOOKS_MANAGED_CONFIG) || DEFAULT_MANAGED_CONFIG;
}

/** The managed (system-wide) layer, if there is one. It must not be writable by anyone but its owner. */
export async function loadManagedLayer(env: NodeJS.ProcessEnv = process.env, locked = false, fetch = false): Promise<ConfigLayer | undefined> {
  const file = managedConfigPath(env, locked);
  if (!existsSync(file)) return undefined;
  // Owned by root (or the admin) is the point; writable by group or others is not.
  const stats = statSync(file);
  if ((stats.mode & 0o022) !== 0) {
    throw new HooksError('CONFIG_UNREADABLE', `${file}: the managed config is writable by group or others (mode ${(stats.mode & 0o777).toString(8)}); make it 644`, { file });
  }
  const ext = path.extname(file).toLowerCase();
  if (!['.json', '.yaml', '.yml'].includes(ext)) throw new HooksError('CONFIG_UNREADABLE', `${file}: the managed config must be JSON or YAML`, { file });
  const bytes = readBytes(file);
  const layer: ConfigLayer = { layer: 'managed', file, dir: path.dirname(file), config: await parse(file, bytes), sha256: digest(bytes), trust: 'implicit' };
  await attachExtends(layer, env, { fetch, locked });
  return layer;
}

/** Reads a project-layer candidate's bytes and trust state, without running anything (for `hooks trust`). */
export async function readForTrust(file: string): Promise<{ bytes: Buffer; sha256: string; config?: unknown; problem?: string; isJs: boolean }> {
  const bytes = readBytes(file);
  const sha256 = digest(bytes);
  if (isJsFile(file)) return { bytes, sha256, isJs: true };
  try {
    let config = await parse(file, bytes);
    if (path.basename(file) === 'package.json') config = fromPackageJson(config).layer.config;
    return { bytes, sha256, config, isJs: false };
  } catch (error) {
    return { bytes, sha256, problem: (error as Error).message, isJs: false };
  }
}

/**
 * What a project or local file extends, read as the loader would once the file is trusted (for `hooks trust`:
 * the review shows it and trust covers it). `fetch`: fetch git sources not in the cache yet.
 */
export async function readExtendsForTrust(file: string, config: unknown, env: NodeJS.ProcessEnv, fetch: FetchPolicy): Promise<ConfigLayer[]> {
  const layer: ConfigLayer = { layer: path.basename(file) === LOCAL_CONFIG_NAME ? 'local' : 'project', file, dir: path.dirname(file), config, trust: 'trusted' };
  await attachExtends(layer, env, { fetch, root: layer.dir });
  return layer.extended ?? [];
}

/** Reads a JSON or YAML data file (test cases, fixtures) with the same parsers as config files. */
export async function readDataFile(file: string): Promise<unknown> {
  const ext = path.extname(file).toLowerCase();
  const text = readBytes(file).toString('utf8');
  return parseText(file, text, ext === '.yaml' || ext === '.yml' ? 'yaml' : 'json');
}

export function isJsFile(file: string): boolean {
  return /\.(c|m)?js$/.test(file);
}

// --- internal ---

/** Config files are small; anything larger is not one (and reading it would only cost memory). */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * A config file's bytes, only when it is a regular file. A repository can plant a FIFO, a link to
 * /dev/zero or to /proc/self/fd/1 (the runner's own stdout pipe) at a config name: a plain read would
 * block forever or never end, and the agent would go on with every guard off. Opened non-blocking,
 * checked on the open descriptor, then read with a cap.
 */
function readBytes(file: string): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new HooksError('CONFIG_UNREADABLE', `${file}: not a regular file (a FIFO, device or socket is never read as config)`, { file });
    if (stats.size > MAX_CONFIG_BYTES) throw new HooksError('CONFIG_UNREADABLE', `${file}: ${stats.size} bytes, more than a config file may have (${MAX_CONFIG_BYTES})`, { file });
    return readFileSync(fd);
  } catch (error) {
    throw isHooksError(error) ? error : unreadable(file, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * How a JS config is imported. The CLI's launcher replaces `load` with its own import(): the CLI bundle
 * runs from a V8 code cache, where an import() of the bundle's own has no module loader to go to.
 */
export const jsConfigImporter = { load: (url: string): Promise<unknown> => import(url) };

/** Parses the bytes already read (JSON/YAML), or imports a JS config (only ever called once it may run). */
async function parse(file: string, bytes: Buffer): Promise<unknown> {
  const base = path.basename(file);
  const ext = path.extname(file).toLowerCase();
  let value: unknown;
  if (isJsFile(file)) {
    try {
      // The bytes' digest in the URL: a long-lived process (hooks serve) imports a changed, re-trusted
      // file afresh instead of getting the module it cached for the old bytes.
      const mod = (await jsConfigImporter.load(`${pathToFileURL(file).href}?sha256=${digest(bytes)}`)) as { default?: unknown };
      value = mod.default ?? mod;
    } catch (error) {
      throw unreadable(file, error);
    }
  } else {
    const kind = ext === '.json' || base === 'package.json' || base === LOCAL_CONFIG_NAME ? 'json' : 'yaml';
    value = await parseText(file, bytes.toString('utf8'), kind);
  }
  checkShape(file, value);
  return value ?? {};
}

async function parseText(file: string, text: string, kind: 'json' | 'yaml'): Promise<unknown> {
  // JSON, the common case, is parsed here: cosmiconfig's parsers (parse-json with a code frame,
  // js-yaml) cost more to load than a whole cached run, so they load only for YAML or to say what is
  // wrong with a JSON file that does not parse.
  if (kind === 'json') {
    try {
      return text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      // Fall through for the better message.
    }
  }
  const mod = (await import('cosmiconfig')) as unknown as { defaultLoaders?: Loaders; default?: { defaultLoaders: Loaders } };
  const loaders = mod.defaultLoaders ?? mod.default!.defaultLoaders;
  try {
    return await loaders[kind === 'json' ? '.json' : '.yaml'](file, text);
  } catch (error) {
    throw unreadable(file, error);
  }
}

type Loaders = Record<'.json' | '.yaml', (file: string, text: string) => unknown>;

/** Deeper than any real config gets; past it a value is refused rather than walked. */
const MAX_DEPTH = 64;

/**
 * A YAML alias to itself makes a circular value and a 5,000-deep nesting makes a stack-deep one: both
 * would crash whatever walks the value later (validation, JSON, the cache). One line instead.
 */
function checkShape(file: string, value: unknown): void {
  let visited = 0;
  const ancestors = new Set<object>();
  const fail = (key: string, what: string): never => {
    throw new HooksError('CONFIG_INVALID', `${file}: ${key.slice(1) || 'the config'}: ${what}`, { file, path: key.slice(1) });
  };
  const walk = (v: unknown, depth: number, key: string): void => {
    if (typeof v !== 'object' || v === null) return;
    if (depth > MAX_DEPTH) fail(key, `nested deeper than ${MAX_DEPTH} levels`);
    if (ancestors.has(v)) fail(key, 'refers back to itself (a YAML alias inside its own anchor); write the value out');
    // Aliases may share a value many times over (a "billion laughs"): count every visit.
    if (++visited > 100_000) fail(key, 'more than 100000 values; not a hooks config');
    ancestors.add(v);
    for (const [k, child] of Object.entries(v)) walk(child, depth + 1, Array.isArray(v) ? `${key}[${k}]` : `${key}.${k}`);
    ancestors.delete(v);
  };
  walk(value, 0, '');
}

/** Why a file or its directory must not be taken as config, or undefined. */
function unsafePath(file: string): string | undefined {
  try {
    const fileProblem = unsafeOwnership(statSync(file));
    if (fileProblem !== undefined) return `the file is ${fileProblem}`;
    const dirProblem = unsafeOwnership(statSync(path.dirname(file)));
    if (dirProblem !== undefined) return `its directory is ${dirProblem}`;
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

type TrustOf = (file: string, sha256: string, dir: string) => TrustCheck;

/**
 * Why a locked runner (src/lock) does not import this file, or undefined. A JavaScript config's top-level
 * code runs inside the process that runs the managed hooks: it could patch process.exit or swallow fd 1
 * and 2 (the agent reads an allow), or never return. Trust does not help: the trust store is the user's.
 */
function lockedRefusal(file: string, locked: boolean): string | undefined {
  if (!locked || !isJsFile(file)) return undefined;
  return `${file}: a locked runner never imports a JavaScript config: its code would run inside the runner that runs the managed hooks; use JSON or YAML`;
}

async function readSearched(layer: 'project' | 'local', file: string, trustOf: TrustOf, locked: boolean, env: NodeJS.ProcessEnv, fetch: boolean): Promise<ConfigLayer> {
  const dir = path.dirname(file);
  let bytes: Buffer;
  try {
    bytes = readBytes(file);
  } catch (error) {
    return { layer, file, dir, config: undefined, trust: 'untrusted', problem: (error as Error).message };
  }
  const sha256 = digest(bytes);
  const check = trustOf(file, sha256, dir);
  const out: ConfigLayer = { layer, file, dir, config: undefined, sha256, trust: check.trusted ? 'trusted' : 'untrusted' };
  // Before trust: trusting the file would not make it run, so the message does not suggest it.
  const refused = lockedRefusal(file, locked);
  if (refused !== undefined) {
    out.problem = refused;
    return out;
  }
  if (check.covers !== undefined) out.covers = check.covers;
  // Nothing of an untrusted file is evaluated; for JS that means it is not imported at all.
  if (!check.trusted) {
    out.problem = `${file} ${check.why ?? 'is not trusted'}, so its hooks do not run; review it, then run: npx agent-hooks trust`;
    return out;
  }
  try {
    out.config = await parse(file, bytes);
    if (path.basename(file) === 'package.json') Object.assign(out, fromPackageJson(out.config).layer);
  } catch (error) {
    out.problem = (error as Error).message.split('\n')[0]!;
    return out;
  }
  await attachExtends(out, env, { fetch, root: dir });
  // Trust covers the bytes of every file it extends: one that trust did not record (a package that now
  // resolves to another file, an entry added to a file it extends) is not trusted yet.
  const uncovered = (out.extended ?? []).find((e) => e.real !== undefined && !Object.hasOwn(check.covers ?? {}, `${EXTENDS_COVER_PREFIX}${e.real}`));
  if (uncovered !== undefined) {
    out.trust = 'untrusted';
    out.config = undefined;
    delete out.extended;
    out.problem = `${file} is no longer trusted: it now extends ${uncovered.file}, which was not reviewed with it, so its hooks do not run; review it, then run: npx agent-hooks trust`;
  }
  return out;
}

/** Levels of `extends` followed at most (a file extending a file extending ...). */
export const MAX_EXTENDS_DEPTH = 8;
/** Files one layer may extend in all. */
export const MAX_EXTENDED_FILES = 64;

/**
 * Reads what a layer's file extends (and what those extend), depth first, each extended file before the
 * file naming it: the layer's `extended`. A file that cannot be found, read or trusted to be what it says
 * is an extended layer with a `problem` (a warning on every run, its hooks do not run), never dropped silently.
 * `root`: a project or local file's folder, which its extends may not leave (a pinned git source aside).
 */
async function attachExtends(layer: ConfigLayer, env: NodeJS.ProcessEnv, options: { fetch?: FetchPolicy; root?: string; locked?: boolean }): Promise<void> {
  const out: ConfigLayer[] = [];
  const seen = new Set<string>();
  const specsOf = (config: unknown, own: boolean): { spec: unknown; required: boolean }[] => {
    const c = (typeof config === 'object' && config !== null ? config : {}) as { extends?: unknown; requireExtends?: unknown };
    const list = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
    // requireExtends is read only from the managed file itself: anywhere else the schema refuses it.
    return [...(own && layer.layer === 'managed' ? list(c.requireExtends).map((spec) => ({ spec, required: true })) : []), ...list(c.extends).map((spec) => ({ spec, required: false }))];
  };
  const visit = async (from: string, config: unknown, via: ExtendsStep[], ancestors: string[], required: boolean): Promise<void> => {
    for (const { spec, required: named } of specsOf(config, via.length === 0)) {
      // A value of the wrong type is the schema's to report, with its key path.
      if (typeof spec !== 'string') continue;
      const chain = [...via, { file: from, extends: spec }];
      const need = required || named;
      const failed = (problem: string, file = spec) => {
        out.push({ layer: layer.layer, file, dir: path.dirname(from), config: undefined, ...(layer.trust === undefined ? {} : { trust: layer.trust }), via: chain, problem: `${from}: extends "${printable(spec)}": ${problem}`, ...(need ? { required: true as const } : {}) });
      };
      if (chain.length > MAX_EXTENDS_DEPTH) {
        failed(`more than ${MAX_EXTENDS_DEPTH} levels of extends`);
        continue;
      }
      if (out.length >= MAX_EXTENDED_FILES) {
        failed(`more than ${MAX_EXTENDED_FILES} extended files in one layer`);
        continue;
      }
      const parsed = parseExtends(spec);
      if (!parsed.ok) {
        failed(parsed.message.replace(/^extends "[^"]*": /, ''));
        continue;
      }
      if (options.locked === true && parsed.source.kind !== 'path') {
        failed('a locked runner extends only files named by path (owned by another user): a package or the git cache is yours to change');
        continue;
      }
      const located = locateExtends(parsed.source, { from, layer: layer.layer, env, ...(options.root === undefined ? {} : { root: options.root }), ...(options.fetch ? { fetch: options.fetch } : {}) });
      if ('problem' in located) {
        failed(located.problem);
        continue;
      }
      // Owned by another user is not enough: a folder above it that is yours, or a group write bit, lets you
      // replace it (the same test the lock applies to the managed file itself).
      const yours = options.locked === true ? changeableByYou(located.real) : undefined;
      if (yours !== undefined) {
        failed(`${located.file} is yours to change (${yours}): a locked runner's managed layer extends only files no user but root can change`);
        continue;
      }
      if (ancestors.includes(located.real)) {
        failed(`${located.file} extends itself (through ${chain.map((s) => path.basename(s.file)).join(' → ')}); a cycle is not followed`, located.file);
        continue;
      }
      // A file reached twice (two policies extending one base) is merged once, where it was first reached.
      if (seen.has(located.real)) continue;
      seen.add(located.real);
      let bytes: Buffer;
      let parsedConfig: unknown;
      try {
        bytes = readBytes(located.real);
        // Data only, whatever the file is called at its real path: never imported.
        parsedConfig = await parseText(located.file, bytes.toString('utf8'), /\.ya?ml$/i.test(located.file) ? 'yaml' : 'json');
        checkShape(located.file, parsedConfig);
      } catch (error) {
        failed((error as Error).message.split('\n')[0]!, located.file);
        continue;
      }
      await visit(located.file, parsedConfig, chain, [...ancestors, located.real], need);
      out.push({ layer: layer.layer, file: located.file, dir: path.dirname(located.file), config: parsedConfig ?? {}, sha256: digest(bytes), ...(layer.trust === undefined ? {} : { trust: layer.trust }), via: chain, real: located.real, ...(need ? { required: true as const } : {}) });
    }
  };
  await visit(layer.file, layer.config, [], [realOrSelf(layer.file)], false);
  if (out.length > 0) layer.extended = out;
}

async function searchProject(
  start: string,
  env: NodeJS.ProcessEnv,
  notices: string[],
  shadowed: string[],
  trustOf: TrustOf,
  locked: boolean,
  fetch: boolean,
): Promise<{ layer?: ConfigLayer; report: SearchReport }> {
  const home = path.resolve(env.HOME || os.homedir());
  const dirs: string[] = [];
  let dir = start;
  for (;;) {
    dirs.push(dir);
    const candidates = SEARCH_PLACES.map((name) => path.join(dir, name)).filter((file) => existsSync(file) && isConfigCandidate(file, notices));
    let chosen: string | undefined;
    for (const file of candidates) {
      const unsafe = unsafePath(file);
      if (unsafe !== undefined) {
        notices.push(`${file}: skipped: ${unsafe}`);
        continue;
      }
      if (chosen === undefined) chosen = file;
      else shadowed.push(file);
    }
    const stop: SearchReport['stop'] | undefined = existsSync(path.join(dir, '.git'))
      ? 'repository root'
      : dir === home
        ? 'home directory'
        : path.dirname(dir) === dir
          ? 'filesystem root'
          : undefined;
    if (chosen !== undefined) {
      return { layer: await readSearched('project', chosen, trustOf, locked, env, fetch), report: { start, dirs, stop: stop ?? 'repository root' } };
    }
    if (stop !== undefined) return { report: { start, dirs, stop } };
    dir = path.dirname(dir);
  }
}

/** A package.json counts only with an agent-hooks `hooks` key; husky-style content is noted and passed over. */
function isConfigCandidate(file: string, notices: string[]): boolean {
  if (path.basename(file) !== 'package.json') return true;
  let whole: { hooks?: unknown };
  try {
    whole = JSON.parse(readBytes(file).toString('utf8')) as { hooks?: unknown };
  } catch (error) {
    if (isHooksError(error)) notices.push(`${error.message}; skipped`);
    return false;
  }
  if (whole?.hooks === undefined) return false;
  if (fromPackageJson(whole).ours) return true;
  notices.push(`${file}: "hooks" is not an agent-hooks config (no event or config key in it, e.g. husky's); ignored`);
  return false;
}

/** git's hook names, as husky and friends key them in package.json#hooks. */
const GIT_HOOKS = new Set(['applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update', 'post-receive', 'post-update', 'push-to-checkout', 'pre-auto-gc', 'post-rewrite', 'sendemail-validate']);
const EVENT_SPELLINGS = EVENTS.flatMap((e) => [e.name, e.cli, e.claude]);
const CONFIG_TOP_KEYS = new Set(['$schema', 'defaults', 'hooks', 'onUntrusted', 'extends']);

/** `package.json#hooks` may hold the event map itself (`"hooks": {"preToolUse": [...]}`) or a whole config. */
function fromPackageJson(whole: unknown): { layer: { config: unknown; keyPrefix?: string }; ours: boolean } {
  const value = typeof whole === 'object' && whole !== null ? (whole as { hooks?: unknown }).hooks : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { layer: { config: value, keyPrefix: 'hooks.' }, ours: false };
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((k) => findEvent(k) !== undefined)) return { layer: { config: { hooks: value } }, ours: true };
  // A misspelt event ("preToolUs") is ours with a typo, not someone else's hooks.
  const looksOurs = (k: string) => CONFIG_TOP_KEYS.has(k) || findEvent(k) !== undefined || (!GIT_HOOKS.has(k) && closest(k, EVENT_SPELLINGS) !== undefined);
  return { layer: { config: value, keyPrefix: 'hooks.' }, ours: keys.some(looksOurs) };
}

function unreadable(file: string, error: unknown): HooksError {
  const message = error instanceof Error ? error.message : String(error);
  // cosmiconfig's parsers write "JSON Error in <file>:", a code frame ("1 | {...", "> 2 |", "  ^"),
  // and the cause somewhere around it. One line: the kind and the cause, the file named once.
  // The frame is coloured where its library sees colour support (CI=true, FORCE_COLOR): the colours go first.
  const lines = message.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const isFrame = (l: string) => /^>?\s*\d+\s*\|/.test(l) || l.startsWith('|') || /^\^+$/.test(l);
  const heading = lines[0] ?? 'unreadable';
  const where = /^(\w+) Error in .*:$/.exec(heading);
  const cause = lines.slice(1).find((l) => !isFrame(l));
  const text = where === null ? heading : `invalid ${where[1]}: ${cause ?? 'cannot be parsed'}`;
  return new HooksError('CONFIG_UNREADABLE', `${file}: ${text.replaceAll(`${file}: `, '')}`, { file });
}

/**
 * Where the project search starts for an event: the payload's `cwd` (where the agent works), else
 * `CLAUDE_PROJECT_DIR`, else the runner's own working directory. Only an absolute, existing directory counts.
 */
export function searchStart(payloadCwd: unknown, env: NodeJS.ProcessEnv, fallback: string): string {
  for (const candidate of [payloadCwd, env.CLAUDE_PROJECT_DIR]) {
    if (typeof candidate !== 'string' || !path.isAbsolute(candidate)) continue;
    try {
      if (statSync(candidate).isDirectory()) return candidate;
    } catch {
      // Not there: the next candidate.
    }
  }
  return fallback;
}

/** "no config found" with where the search looked, for run --verbose, list and doctor. */
export function describeNoConfig(search: SearchReport | undefined, env: NodeJS.ProcessEnv): string {
  const places = [managedConfigPath(env), userConfigFile(env)];
  const looked = search === undefined ? '' : `; searched ${search.dirs.length === 1 ? search.dirs[0] : `${search.dirs[0]} up to ${search.dirs.at(-1)}`} (stopped at the ${search.stop}) for ${SEARCH_PLACES.join(', ')}`;
  return `no config found: no ${places.join(' or ')}${looked}; the first-party guards run with their defaults`;
}
