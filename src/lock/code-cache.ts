// A locked runner's code caches: made by root at install time, next to the bundle, in the runner's own
// root-owned tree. A locked runner reads no cache of the user's (an entry they wrote would be code V8
// runs), so without this one it compiles the whole CLI on every tool call. This one needs no HMAC: a
// locked runner reads it only when the user can change neither it nor a folder above it (the lock's
// own check, src/lock/detect.ts), so only root wrote it. It is bound to the bundle and the Node that
// made it (the key the user's cache carries: src/cli/launch.ts), and V8 rejects what does not fit anyway.
// Small on purpose: the launcher (dist/bundle/main.js) imports it.
import path from 'node:path';

/**
 * The file, beside the script it is for: `dist/bundle/cli.cache` for the CLI bundle (`cli.cjs`),
 * `dist/bundle/vendor/zod.cache` for a library it loads (`vendor/zod.cjs`, `vendor/otel.cjs.br`: src/vendor/load.ts).
 */
export function sharedCodeCacheFile(script: string): string {
  return path.join(path.dirname(script), `${path.basename(script).replace(/\.cjs(\.br)?$/, '')}.cache`);
}

/**
 * Set (to 1) by `install --managed` on the runs that make the cache, as root: those runs write the file
 * above instead of root's own per-user cache. Honoured only for root, and never by a locked runner.
 */
export const MAKE_SHARED_CODE_CACHE = 'AGENT_HOOKS_MAKE_SHARED_CODE_CACHE';
