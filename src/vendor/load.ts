// The libraries the bundle carries beside it (dist/bundle/vendor/: zod, cosmiconfig, the MCP SDK, OpenTelemetry;
// scripts/bundle.mjs), loaded on first use. The three that only rare runs load are brotli-compressed
// (src/vendor/names.ts): 74 kB in the package instead of 285 kB (issue 28: a CLI user's install within 1.5 MB), for
// about 1 ms of decompressing on the runs that load one. The bundle's imports of those packages come here (the
// build's `vendor` plugin); from source (tests, tsc output) they are the packages in node_modules, and this
// module is not used.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Zlib from 'node:zlib';
import { HooksError } from '../errors.js';
import { runCommonJs } from './commonjs.js';
import { VENDORED, type VendoredName } from './names.js';

interface CommonJsModule {
  exports: unknown;
}

/**
 * Runs a library's code as the CommonJS module `file`. The launcher replaces it for a locked runner, which
 * runs each library from the code cache root made at install time (src/cli/launch.ts); `file` is what that
 * cache is keyed and named on.
 */
export const vendorRunner = {
  run(file: string, source: string, module: CommonJsModule, require: NodeJS.Require): void {
    runCommonJs(file, source, undefined, module, require);
  },
};

const loaded = new Map<VendoredName, CommonJsModule>();

/** The library's exports, loaded on the first call from its file beside the bundle (src/vendor/names.ts). */
export function vendored(name: VendoredName): unknown {
  let module = loaded.get(name);
  if (module !== undefined) return module.exports;
  const file = fileURLToPath(new URL(`./vendor/${VENDORED[name]}`, import.meta.url));
  let source: string;
  try {
    const bytes = readFileSync(file);
    // zlib is required here, not imported: loading it costs 2-4 ms, which every `hooks run` would pay.
    source = (file.endsWith('.br') ? (createRequire(import.meta.url)('node:zlib') as typeof Zlib).brotliDecompressSync(bytes) : bytes).toString('utf8');
  } catch (error) {
    throw new HooksError('INTERNAL', `${file}: ${(error as Error).message} (agent-hooks' copy of ${name} is missing or damaged: reinstall agent-hooks)`);
  }
  module = { exports: {} };
  // Before it runs, as require() does: a library that reaches itself again gets what it has exported so far.
  loaded.set(name, module);
  const plain = createRequire(file);
  // One library requires another as `./<name>.cjs` (the MCP SDK takes zod from zod's file); node's own modules
  // are plain requires.
  const require = Object.assign((id: string): unknown => {
    const sibling = /^\.\/([a-z-]+)\.cjs$/.exec(id)?.[1];
    return sibling !== undefined && Object.hasOwn(VENDORED, sibling) ? vendored(sibling as VendoredName) : plain(id);
  }, plain);
  try {
    vendorRunner.run(file, source, module, require);
  } catch (error) {
    // Not kept half-run: the next call fails the same way instead of handing out a part of the library.
    loaded.delete(name);
    throw error;
  }
  return module.exports;
}
