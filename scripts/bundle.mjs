#!/usr/bin/env node
// Builds the CLI (npm run bundle): dist/bundle/cli.cjs, the whole CLI as one CommonJS file (the
// modules a command does not use are never evaluated: esbuild wraps each one and runs it on first
// import), and dist/bundle/main.js, the small launcher that bin/hooks.js imports. The launcher runs
// cli.cjs through vm.Script with a V8 code cache (src/cli/launch.ts): ES modules cannot take one on
// Node 20, and compiling the CLI was most of `hooks run`'s start-up.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'bundle');
rmSync(out, { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  absWorkingDir: root,
};

// Libraries that only rare runs need (zod checks a config the cache has not seen, and `hooks test`
// cases; cosmiconfig's parsers read YAML and explain a JSON file that does not parse) are bundled into
// files of their own beside cli.cjs, which requires them on first use: the code every run pays to
// load (and to cache) stays the code most runs use.
const VENDOR = ['zod', 'cosmiconfig'];
for (const name of VENDOR) {
  await build({
    ...common,
    stdin: { contents: `export * from '${name}';`, resolveDir: root, loader: 'js' },
    outfile: path.join(out, 'vendor', `${name}.cjs`),
    format: 'cjs',
    // cosmiconfig loads TypeScript only for .ts configs, which agent-hooks does not search for.
    external: ['typescript'],
    // Libraries, not our code: short names keep the package within its size budget.
    minifyIdentifiers: true,
  });
}
const vendor = {
  name: 'vendor',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${VENDOR.join('|')})$`) }, (args) => ({ path: `./vendor/${args.path}.cjs`, external: true }));
  },
};

// sensitive-paths' rule table, translated from glob to RegExp source at build time by the guard's own
// code (src/guards/sensitive-paths/judge.ts reads it; from source it translates them itself).
const tableModule = path.join(out, 'path-table.tmp.mjs');
await build({
  ...common,
  stdin: { contents: "export { tableGlobs } from './src/guards/sensitive-paths/judge.ts'; export { globSource } from './src/guards/sensitive-paths/glob.ts';", resolveDir: root, loader: 'ts' },
  outfile: tableModule,
  format: 'esm',
});
const { tableGlobs, globSource } = await import(pathToFileURL(tableModule).href);
const pathTable = Object.fromEntries(tableGlobs().map((glob) => [glob, globSource(glob)]));
rmSync(tableModule);

await build({
  ...common,
  plugins: [vendor],
  entryPoints: ['src/cli/main.ts'],
  minifyIdentifiers: true,
  outfile: path.join(out, 'cli.cjs'),
  format: 'cjs',
  external: ['typescript'],
  // Run from a V8 code cache (src/cli/launch.ts), the bundle's import() has no module loader: every
  // dynamic import becomes a require (JS configs are imported by the launcher).
  supported: { 'dynamic-import': false },
  // The CLI finds its package (and the bin an install writes) from its own location.
  define: { 'import.meta.url': '__agentHooksModuleUrl', __AGENT_HOOKS_PATH_TABLE__: JSON.stringify(pathTable) },
  banner: { js: "const __agentHooksModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// The launcher reads the bundle as latin1, which V8 takes as is (a one-byte string, no UTF-8 decoding):
// that is the same text only while every byte is ASCII. esbuild escapes strings; a regular expression
// literal it cannot, so one with a non-ASCII character must spell it \uXXXX.
const cli = readFileSync(path.join(out, 'cli.cjs'), 'latin1');
const nonAscii = /[^\x00-\x7f]/.exec(cli);
if (nonAscii !== null) {
  const at = cli.slice(Math.max(0, nonAscii.index - 60), nonAscii.index + 20);
  throw new Error(`dist/bundle/cli.cjs must be ASCII (src/cli/launch.ts reads it as latin1); a non-ASCII byte in: ${at}`);
}

// The launcher is CommonJS too (dist/bundle/package.json says so), as is bin/hooks.js: a hook run
// never starts Node's ES module loader.
await build({
  ...common,
  entryPoints: ['src/cli/launch.ts'],
  outfile: path.join(out, 'main.js'),
  format: 'cjs',
  define: { 'import.meta.url': '__agentHooksModuleUrl' },
  banner: { js: "const __agentHooksModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
writeFileSync(path.join(out, 'package.json'), '{ "type": "commonjs" }\n');
