// The CLI's process entry (built to dist/bundle/main.js; bin/hooks.js imports it). It loads the CLI,
// one CommonJS bundle (dist/bundle/cli.cjs), and for `hooks run` and `hooks guard` hands V8 a code
// cache of it: the runner starts on every tool call, and compiling the CLI's code was the largest
// part of its start-up. The cache is an optimisation and nothing else:
// - it lives in the user's private cache folder (0700, owned by them; else there is no cache), and
//   every file carries an HMAC under the per-user key the config cache uses: a file anyone else wrote
//   or changed is never handed to V8;
// - it is keyed on the bundle (path, size, mtime, inode), the Node and V8 versions, the platform and
//   the V8 flags, so an upgrade or another Node is a miss; V8 rejects what does not fit it anyway;
// - a miss, a rejection or any failure to read or write it only costs that run its speed.
// HOOKS_NO_CODE_CACHE=1 turns it off, and a locked runner (src/lock) never reads one: the cache and its
// key are the user's, and V8 runs what a cache holds. A locked runner reads instead the cache root made
// at install time beside the bundle, only when the user can change neither it nor a folder above it
// (src/lock/code-cache.ts). HOOKS_DEBUG=1 says on stderr which cache a run used and whether V8 took it.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { macKey } from '../config/mac-key.js';
import { CONFIG_CHECKED } from '../code-parts.js';
import { privateDir, unsafeOwnership } from '../fs/private.js';
import { replaceFile } from '../fs/write-safely.js';
import { cacheDir } from '../paths.js';
import { changeableByYou, lockState } from '../lock/detect.js';
import { MAKE_SHARED_CODE_CACHE, sharedCodeCacheFile } from '../lock/code-cache.js';
import { runCommonJs } from '../vendor/commonjs.js';
import type { vendorRunner } from '../vendor/load.js';

/** What the bundle exports (src/cli/main.ts). */
interface CliBundle {
  main(argv: string[], options: { beforeExit?: () => void | Promise<void> }): Promise<never>;
  codeParts(): string[];
  jsConfigImporter: { load(url: string): Promise<unknown> };
  vendorRunner: typeof vendorRunner;
}

const MAGIC = Buffer.from('AHCODE01');
/** The root-made cache's: no HMAC (only root can write where it is read from). */
const SHARED_MAGIC = Buffer.from('AHROOT01');
/** The commands that run on every tool call: they make the cache, so it holds what they use. */
const HOT_COMMANDS = new Set(['run', 'guard']);
/** Entries kept in the folder. */
const MAX_ENTRIES = 4;
/** A cache file larger than this is not one of ours. */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

export async function main(argv: string[] = process.argv.slice(2)): Promise<never> {
  const bundle = fileURLToPath(new URL('./cli.cjs', import.meta.url));
  let source: string;
  try {
    // ASCII (the build checks it), so latin1 is the same text, without UTF-8 decoding: a one-byte string.
    source = readFileSync(bundle, 'latin1');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    process.stderr.write('agent-hooks: the CLI is not built (dist/bundle/cli.cjs is missing); in a clone of the repository, run "npm run build"\n');
    process.exit(process.env.HOOKS_ON_ERROR === 'block' ? 2 : 1);
  }
  const cache = process.env.HOOKS_NO_CODE_CACHE ? undefined : chooseCodeCache(bundle, process.env, HOT_COMMANDS.has(argv[0] ?? ''));
  const debug = process.env.HOOKS_DEBUG ? (c: CodeCache | undefined, s: vm.Script | undefined) => process.stderr.write(`agent-hooks: code cache: ${debugLine(c, s)}\n`) : undefined;
  const cli = load(bundle, source, cache, debug);
  debug?.(cache, cli.script);
  // The bundle's own import() has no module loader when its code comes from the cache (the build
  // turns its other dynamic imports into require): JS configs are imported from here.
  cli.bundle.jsConfigImporter.load = (url) => import(url);
  const parts = argv[0] === 'guard' && argv[1] !== undefined ? [`guard:${argv[1]}`] : [];
  const keep = () => {
    const used = [...parts, ...cli.bundle.codeParts()];
    cache?.keep(cli.script, used);
    for (const v of cli.vendored) v.cache.keep(v.script, used);
  };
  return cli.bundle.main(argv, cache === undefined ? {} : { beforeExit: keep });
}

/** Runs the bundle as CommonJS, through vm.Script so that V8 can take (and later make) a code cache. */
function load(
  bundle: string,
  source: string,
  cache: CodeCache | undefined,
  debug?: (cache: CodeCache, script: vm.Script) => void,
): { bundle: CliBundle; script?: vm.Script; vendored: { script: vm.Script; cache: CodeCache }[] } {
  const plain = createRequire(bundle);
  const vendored: { script: vm.Script; cache: CodeCache }[] = [];
  if (cache === undefined) return { bundle: plain(bundle) as CliBundle, vendored };
  const module = { exports: {} as CliBundle };
  const script = runCommonJs(bundle, source, cache.data, module, plain);
  const vendor = cache.vendor;
  // The libraries bundled beside the CLI (src/vendor/load.ts), which it loads on first use: from a cache of
  // their own when this cache has them (a locked run checks its config, so loads zod, on every run).
  if (vendor !== undefined) {
    module.exports.vendorRunner.run = (file, code, library, require) => {
      const own = vendor(file);
      const libraryScript = runCommonJs(file, code, own.data, library, require);
      vendored.push({ script: libraryScript, cache: own });
      debug?.(own, libraryScript);
    };
  }
  return { bundle: module.exports, script, vendored };
}

/**
 * Locked: only the root-made cache beside the bundle, never the user's. Root, on the install's runs
 * that make it: that one. Else the user's own.
 */
function chooseCodeCache(bundle: string, env: NodeJS.ProcessEnv, writes: boolean): CodeCache | undefined {
  if (lockState().locked) return openSharedCodeCache(bundle, env, 'read');
  if (env[MAKE_SHARED_CODE_CACHE] === '1' && process.geteuid?.() === 0) return openSharedCodeCache(bundle, env, 'make');
  return openCodeCache(bundle, env, writes);
}

function debugLine(cache: CodeCache | undefined, script: vm.Script | undefined): string {
  if (cache === undefined) return 'none (HOOKS_NO_CODE_CACHE)';
  if (cache.data === undefined) return `${cache.source}: not used: ${cache.missed ?? 'no entry'}`;
  return `${cache.source}: ${script?.cachedDataRejected === true ? 'rejected by V8' : 'accepted by V8'}`;
}

interface CodeCache {
  /** Where it is read from (for HOOKS_DEBUG). */
  source: string;
  /** The V8 cache to hand to the script, when a sound one was found. */
  data?: Buffer;
  /** Why there is none (for HOOKS_DEBUG). */
  missed?: string;
  /** The cache of a library the CLI requires from its vendor folder (only root's cache has them). */
  vendor?: (file: string) => CodeCache;
  /** After the run: writes a cache when there was none, V8 rejected it, or the run used parts it lacks. */
  keep(script: vm.Script | undefined, parts: string[]): void;
}

/**
 * The code cache for this bundle under this Node, or undefined when there can be none (no private
 * folder, no key). Every command reads it; only `writes` commands (the hot ones) make or extend it.
 */
export function openCodeCache(bundle: string, env: NodeJS.ProcessEnv, writes: boolean): CodeCache | undefined {
  const root = cacheDir(env);
  const dir = path.join(root, 'code');
  const key = bundleKey(bundle, env);
  if (key === undefined) return undefined;
  const secret = macKey(path.join(root, 'config'));
  if (secret === undefined || privateDir(dir) !== undefined) return undefined;
  const file = path.join(dir, `${key}.bin`);
  const found = readEntry(file, key, secret);
  return {
    source: file,
    ...(found === undefined ? {} : { data: found.data }),
    keep(script, parts) {
      // A run that checked its config compiled zod, which runs only on such (rare) runs: not kept.
      if (!writes || script === undefined || parts.includes(CONFIG_CHECKED)) return;
      const missing = parts.filter((p) => !found?.parts.includes(p));
      if (found !== undefined && script.cachedDataRejected !== true && missing.length === 0) return;
      try {
        writeEntry(file, key, secret, [...(found?.parts ?? []), ...missing].sort(), script.createCachedData());
        prune(dir, file);
      } catch {
        // Read-only or full disk: the next run compiles, as this one would have without a cache.
      }
    },
  };
}

/**
 * The bundle (path, size, mtime, inode) under this Node (versions, platform, V8 flags), hashed: what
 * every cache entry is made for. Undefined when the bundle cannot be stat'ed.
 */
function bundleKey(bundle: string, env: NodeJS.ProcessEnv): string | undefined {
  let stats: Stats;
  try {
    stats = statSync(bundle);
  } catch {
    return undefined;
  }
  return createHash('sha256')
    .update(JSON.stringify([bundle, stats.size, stats.mtimeMs, stats.ino, process.version, process.versions.v8, process.platform, process.arch, process.execArgv, env.NODE_OPTIONS ?? '']))
    .digest('hex');
}

/**
 * The root-made cache beside the bundle (src/lock/code-cache.ts). `read` (a locked runner): used only
 * when the user can change neither the file nor a folder above it, and never written. `make` (root,
 * on the install's runs): read, and written or extended like the user's own.
 */
function openSharedCodeCache(bundle: string, env: NodeJS.ProcessEnv, mode: 'read' | 'make'): CodeCache {
  const file = sharedCodeCacheFile(bundle);
  const key = bundleKey(bundle, env);
  if (key === undefined) return { source: file, missed: 'the bundle cannot be stat\'ed', keep: () => {} };
  const vendor = (library: string) => openSharedCodeCache(library, env, mode);
  const missed = (why: string): CodeCache => ({ source: file, missed: why, vendor, keep: mode === 'make' ? (script, parts) => keepShared(file, key, undefined, script, parts) : () => {} });
  if (mode === 'read') {
    const problem = changeableByYou(file);
    if (problem !== undefined) return missed(problem);
  }
  const bytes = readBytes(file, (stats) => mode === 'make' || stats.uid !== process.geteuid?.());
  if (bytes === undefined) return missed('absent, or not a regular file');
  const found = parseEntry(bytes, SHARED_MAGIC, key);
  if (found === undefined) return missed('made for another bundle or Node, or damaged');
  return { source: file, data: found.data, vendor, keep: mode === 'make' ? (script, parts) => keepShared(file, key, found, script, parts) : () => {} };
}

/** Root's: what a run of the install used is added (zod's code too: a locked run checks its config on every run). */
function keepShared(file: string, key: string, found: { parts: string[] } | undefined, script: vm.Script | undefined, parts: string[]): void {
  if (script === undefined) return;
  const missing = parts.filter((p) => !found?.parts.includes(p));
  if (found !== undefined && script.cachedDataRejected !== true && missing.length === 0) return;
  try {
    replaceFile(file, entryBytes(SHARED_MAGIC, undefined, key, [...(found?.parts ?? []), ...missing].sort(), script.createCachedData()), 0o644);
  } catch {
    // The install says so: it checks the file is there after its runs.
  }
}

/** Keeps the newest few entries (another Node, a rebuilt or upgraded CLI each make their own). */
function prune(dir: string, keep: string): void {
  const entries = readdirSync(dir).filter((f) => f.endsWith('.bin')).map((f) => path.join(dir, f)).filter((f) => f !== keep);
  if (entries.length < MAX_ENTRIES) return;
  const byAge = entries.map((f) => ({ f, t: lstatSync(f).mtimeMs })).sort((a, b) => b.t - a.t);
  for (const { f } of byAge.slice(MAX_ENTRIES - 1)) unlinkSync(f);
}

// An entry: MAGIC, the HMAC (32 bytes) of everything after it, the length of the header (4 bytes),
// the header (JSON: key and parts), then V8's data.
// The root-made one: SHARED_MAGIC, then the same from the length on, with no HMAC.
function writeEntry(file: string, key: string, secret: Buffer, parts: string[], data: Buffer): void {
  replaceFile(file, entryBytes(MAGIC, secret, key, parts, data), 0o600);
}

function entryBytes(magic: Buffer, secret: Buffer | undefined, key: string, parts: string[], data: Buffer): Buffer {
  const header = Buffer.from(JSON.stringify({ key, parts }), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  const body = Buffer.concat([length, header, data]);
  return Buffer.concat([magic, ...(secret === undefined ? [] : [createHmac('sha256', secret).update(body).digest()]), body]);
}

function readEntry(file: string, key: string, secret: Buffer): { data: Buffer; parts: string[] } | undefined {
  const bytes = readBytes(file, (stats) => unsafeOwnership(stats) === undefined);
  if (bytes === undefined || bytes.length < MAGIC.length + 36 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const tag = bytes.subarray(MAGIC.length, MAGIC.length + 32);
  const body = bytes.subarray(MAGIC.length + 32);
  if (!timingSafeEqual(tag, createHmac('sha256', secret).update(body).digest())) return undefined;
  return parseEntry(body, Buffer.alloc(0), key);
}

/** The header's parts and V8's data, from `bytes` (magic, length, header, data) when the header's key is `key`. */
function parseEntry(bytes: Buffer, magic: Buffer, key: string): { data: Buffer; parts: string[] } | undefined {
  if (bytes.length < magic.length + 4 || !bytes.subarray(0, magic.length).equals(magic)) return undefined;
  const body = bytes.subarray(magic.length);
  const length = body.readUInt32BE(0);
  if (4 + length > body.length) return undefined;
  try {
    const header = JSON.parse(body.subarray(4, 4 + length).toString('utf8')) as { key?: unknown; parts?: unknown };
    if (header.key !== key || !Array.isArray(header.parts) || !header.parts.every((p) => typeof p === 'string')) return undefined;
    return { data: body.subarray(4 + length), parts: header.parts as string[] };
  } catch {
    return undefined;
  }
}

/** The file's bytes when it is a regular file (not a link) that `accept` takes; else undefined. */
function readBytes(file: string, accept: (stats: Stats) => boolean): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile() || !accept(stats) || stats.size > MAX_CACHE_BYTES) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
