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
// key are the user's, and V8 runs what a cache holds.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { macKey } from '../config/mac-key.js';
import { CONFIG_CHECKED } from './code-parts.js';
import { privateDir, unsafeOwnership } from '../fs/private.js';
import { replaceFile } from '../fs/write-safely.js';
import { cacheDir } from '../paths.js';
import { lockState } from '../lock/detect.js';

/** What the bundle exports (src/cli/main.ts). */
interface CliBundle {
  main(argv: string[], options: { beforeExit?: () => void | Promise<void> }): Promise<never>;
  codeParts(): string[];
  jsConfigImporter: { load(url: string): Promise<unknown> };
}

const MAGIC = Buffer.from('AHCODE01');
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
  const cache = process.env.HOOKS_NO_CODE_CACHE || lockState().locked ? undefined : openCodeCache(bundle, process.env, HOT_COMMANDS.has(argv[0] ?? ''));
  const cli = load(bundle, source, cache);
  // The bundle's own import() has no module loader when its code comes from the cache (the build
  // turns its other dynamic imports into require): JS configs are imported from here.
  cli.bundle.jsConfigImporter.load = (url) => import(url);
  const parts = argv[0] === 'guard' && argv[1] !== undefined ? [`guard:${argv[1]}`] : [];
  return cli.bundle.main(argv, cache === undefined ? {} : { beforeExit: () => cache.keep(cli.script, [...parts, ...cli.bundle.codeParts()]) });
}

/** Runs the bundle as CommonJS, through vm.Script so that V8 can take (and later make) a code cache. */
function load(bundle: string, source: string, cache: CodeCache | undefined): { bundle: CliBundle; script?: vm.Script } {
  const require = createRequire(bundle);
  if (cache === undefined) return { bundle: require(bundle) as CliBundle };
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cache.data === undefined ? {} : { cachedData: cache.data }),
  });
  const module = { exports: {} as CliBundle };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, bundle, path.dirname(bundle));
  return { bundle: module.exports, script };
}

interface CodeCache {
  /** The V8 cache to hand to the script, when a sound one was found. */
  data?: Buffer;
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
  let stats: Stats;
  try {
    stats = statSync(bundle);
  } catch {
    return undefined;
  }
  const secret = macKey(path.join(root, 'config'));
  if (secret === undefined || privateDir(dir) !== undefined) return undefined;
  const key = createHash('sha256')
    .update(JSON.stringify([bundle, stats.size, stats.mtimeMs, stats.ino, process.version, process.versions.v8, process.platform, process.arch, process.execArgv, env.NODE_OPTIONS ?? '']))
    .digest('hex');
  const file = path.join(dir, `${key}.bin`);
  const found = readEntry(file, key, secret);
  return {
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

/** Keeps the newest few entries (another Node, a rebuilt or upgraded CLI each make their own). */
function prune(dir: string, keep: string): void {
  const entries = readdirSync(dir).filter((f) => f.endsWith('.bin')).map((f) => path.join(dir, f)).filter((f) => f !== keep);
  if (entries.length < MAX_ENTRIES) return;
  const byAge = entries.map((f) => ({ f, t: lstatSync(f).mtimeMs })).sort((a, b) => b.t - a.t);
  for (const { f } of byAge.slice(MAX_ENTRIES - 1)) unlinkSync(f);
}

// An entry: MAGIC, the HMAC (32 bytes) of everything after it, the length of the header (4 bytes),
// the header (JSON: key and parts), then V8's data.
function writeEntry(file: string, key: string, secret: Buffer, parts: string[], data: Buffer): void {
  const header = Buffer.from(JSON.stringify({ key, parts }), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  const body = Buffer.concat([length, header, data]);
  const tag = createHmac('sha256', secret).update(body).digest();
  replaceFile(file, Buffer.concat([MAGIC, tag, body]), 0o600);
}

function readEntry(file: string, key: string, secret: Buffer): { data: Buffer; parts: string[] } | undefined {
  const bytes = readPrivateBytes(file);
  if (bytes === undefined || bytes.length < MAGIC.length + 36 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const tag = bytes.subarray(MAGIC.length, MAGIC.length + 32);
  const body = bytes.subarray(MAGIC.length + 32);
  if (!timingSafeEqual(tag, createHmac('sha256', secret).update(body).digest())) return undefined;
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

/** The file's bytes when it is a regular file of ours that no one else may write; else undefined. */
function readPrivateBytes(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile() || unsafeOwnership(stats) !== undefined || stats.size > MAX_CACHE_BYTES) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
