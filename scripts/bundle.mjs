#!/usr/bin/env node
// Builds the CLI (npm run bundle), and from it schema/hooks.schema.json: dist/bundle/cli.cjs, the whole CLI as one CommonJS file (the
// modules a command does not use are never evaluated: esbuild wraps each one and runs it on first
// import), and dist/bundle/main.js, the small launcher that bin/hooks.js imports. The launcher runs
// cli.cjs through vm.Script with a V8 code cache (src/cli/launch.ts): ES modules cannot take one on
// Node 20, and compiling the CLI was most of `hooks run`'s start-up.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
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
// The vendor libraries run through src/vendor/load.ts (vm.Script), which has no module loader for import():
// esbuild turns theirs into require (OpenTelemetry imports http and https on first export, the MCP SDK node:crypto).
const library = { ...common, format: 'cjs', supported: { 'dynamic-import': false } };

// Libraries that only rare runs need (zod checks a config the cache has not seen, and `hooks test`
// cases; cosmiconfig's parsers read YAML and explain a JSON file that does not parse) are bundled into
// files of their own beside cli.cjs, which requires them on first use: the code every run pays to
// load (and to cache) stays the code most runs use.
const VENDOR = ['zod', 'cosmiconfig'];
// cosmiconfig's entry: the two loaders src/config/load.ts takes from its defaultLoaders (the same functions),
// not the whole package (its search and cache, which agent-hooks does itself): 71 kB, not 87 kB.
const cosmiconfigEntry = "import { loadJson, loadYaml } from 'cosmiconfig/dist/loaders.js';\nexport const defaultLoaders = { '.json': loadJson, '.yaml': loadYaml };\n";
for (const name of VENDOR) {
  await build({
    ...library,
    stdin: { contents: name === 'zod' ? `${zodEntry()}${sdkZodEntry(await sdkZodNames())}` : cosmiconfigEntry, resolveDir: root, loader: 'js' },
    outfile: path.join(out, 'vendor', `${name}.cjs`),
    // cosmiconfig loads TypeScript only for .ts configs, which agent-hooks does not search for.
    external: ['typescript'],
    // Libraries, not our code: short names keep the package within its size budget.
    minifyIdentifiers: true,
  });
  if (name !== 'zod') compress(path.join(out, 'vendor', `${name}.cjs`));
}

/**
 * A vendor library that only rare runs load, as the package carries it: `<name>.cjs.br`, a quarter of the bytes,
 * which src/vendor/load.ts decompresses on first use (src/vendor/names.ts says which are; zod, which every locked
 * run loads, is not). Brotli is deterministic: the same build, the same file.
 */
function compress(file) {
  const code = readFileSync(file);
  writeFileSync(`${file}.br`, brotliCompressSync(code, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: code.length } }));
  rmSync(file);
}

/**
 * zod's entry: only the `z.<name>` members src/ uses as values. `export * from 'zod'` kept all of zod
 * (460 kB; its `core` namespace reaches every module): this is a fifth of it. The names are read
 * from the source with TypeScript's parser, so a new use is carried without a list to keep; a use of
 * `z` other than `z.<name>` (passed on, spread) fails the build rather than a run.
 */
function zodEntry() {
  const ts = createRequire(import.meta.url)('typescript');
  const zod = createRequire(import.meta.url)('zod');
  const names = new Set();
  const files = readdirSync(path.join(root, 'src'), { recursive: true }).filter((f) => f.endsWith('.ts'));
  for (const rel of files) {
    const text = readFileSync(path.join(root, 'src', rel), 'utf8');
    if (!/^import \{ z \} from 'zod';$/m.test(text)) continue;
    const source = ts.createSourceFile(rel, text, ts.ScriptTarget.ES2022, true);
    const visit = (node) => {
      if (ts.isImportDeclaration(node)) return;
      if (ts.isIdentifier(node) && node.text === 'z') {
        const parent = node.parent;
        if (ts.isPropertyAccessExpression(parent) && parent.expression === node) names.add(parent.name.text);
        else if (!(ts.isQualifiedName(parent) && parent.left === node) && !ts.isTypeQueryNode(parent)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          throw new Error(`src/${rel}:${line + 1}: zod's z is used other than as z.<name>; the vendored zod (scripts/bundle.mjs, zodEntry) carries only the members named so`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const missing = [...names].filter((n) => !(n in zod.z));
  if (missing.length > 0) throw new Error(`src/ uses z.${missing.join(', z.')}, which zod does not export`);
  const sorted = [...names].sort();
  return `import { ${sorted.map((n) => `${n} as _${n}`).join(', ')} } from 'zod';\nexport const z = { ${sorted.map((n) => `${n}: _${n}`).join(', ')} };\n`;
}

/**
 * What the MCP SDK's live code takes from each zod entry it imports ('zod/v4', 'zod/v4-mini', ...): the SDK
 * built as mcp-sdk.cjs is (same entry, same tree shaking), zod left external, and its imports read back. A
 * namespace import used other than as `ns.<name>` fails the build: vendor/zod.cjs would miss what it reaches.
 */
async function sdkZodNames() {
  const ts = createRequire(import.meta.url)('typescript');
  const result = await build({ ...common, entryPoints: ['src/mcp/sdk.ts'], format: 'esm', write: false, metafile: true, outfile: 'sdk-zod.mjs', external: ['zod', 'zod/*'], plugins: [withoutAjv()] });
  const text = result.outputFiles[0].text;
  // Only import statements are read below: a re-export, require() or import() of zod would reach members the
  // scan never sees, so any other kind of edge to zod fails the build.
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    const other = input.imports.find((i) => /^zod(\/|$)/.test(i.path) && i.kind !== 'import-statement');
    if (other !== undefined) throw new Error(`${file} reaches zod through ${other.kind} ('${other.path}'): sdkZodNames in scripts/bundle.mjs reads import statements only`);
  }
  const source = ts.createSourceFile('sdk-zod.mjs', text, ts.ScriptTarget.ES2022, true);
  const locals = new Map(); // local name -> [entry, member | undefined (the namespace)]
  const names = new Map();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !/^zod(\/|$)/.test(statement.moduleSpecifier.text)) continue;
    const entry = statement.moduleSpecifier.text;
    // Every entry the SDK imports gets its object, empty where its live code uses nothing of it.
    if (!names.has(entry)) names.set(entry, new Set());
    const bindings = statement.importClause?.namedBindings;
    if (statement.importClause?.name !== undefined) throw new Error(`the MCP SDK imports zod's default export from '${entry}': sdkZodNames in scripts/bundle.mjs does not carry it`);
    if (bindings === undefined) continue;
    if (ts.isNamespaceImport(bindings)) locals.set(bindings.name.text, [entry, undefined]);
    else for (const e of bindings.elements) locals.set(e.name.text, [entry, (e.propertyName ?? e.name).text]);
  }
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node) && locals.has(node.text) && !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) && !(ts.isPropertyAssignment(node.parent) && node.parent.name === node)) {
      const [entry, member] = locals.get(node.text);
      const parent = node.parent;
      let name = member;
      if (name === undefined) {
        if (!(ts.isPropertyAccessExpression(parent) && parent.expression === node)) throw new Error(`the MCP SDK uses zod's '${entry}' namespace other than as ns.<name>: vendor/zod.cjs carries only the members named so (sdkZodNames, scripts/bundle.mjs)`);
        name = parent.name.text;
      }
      names.get(entry).add(name);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** The SDK's part of vendor/zod.cjs: `sdk[entry]`, the members its code takes from that entry, which mcp-sdk.cjs requires (sharedZod). */
function sdkZodEntry(names) {
  const entries = [...names].sort(([a], [b]) => a.localeCompare(b)).map(([entry, members]) => [entry, [...members].sort()]);
  const local = (entry, name) => `_${entry.replace(/\W/g, '_')}_${name}`;
  return `${entries.filter(([, members]) => members.length > 0).map(([entry, members]) => `import { ${members.map((n) => `${n} as ${local(entry, n)}`).join(', ')} } from '${entry}';\n`).join('')}export const sdk = { ${entries.map(([entry, members]) => `${JSON.stringify(entry)}: { ${members.map((n) => `${n}: ${local(entry, n)}`).join(', ')} }`).join(', ')} };
`;
}

/**
 * mcp-sdk.cjs takes zod from vendor/zod.cjs (one copy of zod's core in the package, not two: -100 kB): each
 * zod entry the SDK imports becomes `require('./zod.cjs').sdk[entry]`, built by sdkZodEntry from the
 * same names. An entry missing from it fails at load, not at the first use of a missing member.
 */
function sharedZod() {
  return {
    name: 'shared-zod',
    setup(b) {
      b.onResolve({ filter: /^zod(\/.*)?$/ }, (args) => ({ path: args.path, namespace: 'shared-zod' }));
      b.onResolve({ filter: /^\.\/zod\.cjs$/, namespace: 'shared-zod' }, () => ({ path: './zod.cjs', external: true }));
      b.onLoad({ filter: /.*/, namespace: 'shared-zod' }, (args) => ({
        loader: 'js',
        contents: `const entry = require('./zod.cjs').sdk[${JSON.stringify(args.path)}];
if (entry === undefined) throw new Error(${JSON.stringify(`dist/bundle/vendor/zod.cjs carries nothing of '${args.path}' for the MCP SDK: rebuild (scripts/bundle.mjs, sdkZodNames)`)});
module.exports = entry;
`,
      }));
    },
  };
}

// The MCP SDK, only for runs that speak MCP (`hooks mcp`, `mcp_tool` hooks): src/mcp/sdk.ts is its one
// importer and its entry, so the file carries the members named there and nothing else of the SDK.
const mcp = await build({
  ...library,
  entryPoints: ['src/mcp/sdk.ts'],
  outfile: path.join(out, 'vendor', 'mcp-sdk.cjs'),
  minifyIdentifiers: true,
  plugins: [withoutAjv(), sharedZod()],
  metafile: true,
});
const zodLeft = Object.keys(mcp.metafile.inputs).filter((f) => /(^|\/)node_modules\/zod\//.test(f));
if (zodLeft.length > 0) throw new Error(`dist/bundle/vendor/mcp-sdk.cjs carries zod (${zodLeft[0]}) beside vendor/zod.cjs: see sharedZod in scripts/bundle.mjs`);
const ajvLeft = Object.keys(mcp.metafile.inputs).filter((f) => /(^|\/)node_modules\/(ajv|ajv-formats)\//.test(f));
if (ajvLeft.length > 0) throw new Error(`dist/bundle/vendor/mcp-sdk.cjs still carries ajv (${ajvLeft[0]}): the SDK reaches it other than through validation/ajv-provider.js; see withoutAjv in scripts/bundle.mjs`);
compress(path.join(out, 'vendor', 'mcp-sdk.cjs'));

/**
 * The SDK's Client and Server build an ajv instance (ajv, ajv-formats, fast-uri: 133 kB of the file) as
 * their default JSON Schema validator (the jsonSchemaValidator option), which they consult in three places
 * only: Client.listTools (it compiles each tool's outputSchema, and callTool then checks structuredContent
 * against it), and Server.elicitInput. agent-hooks calls none of them: the gateway lists and calls with
 * client.request, passing results through as the server sent them, and an `mcp_tool` hook calls a tool
 * without listing. So the default validator is built and never used; here it is one that says so if it
 * ever is (a throw, which each of those three paths reports as an error), rather than one that passes
 * everything. test/packaging/vendor.test.ts holds both halves.
 */
function withoutAjv() {
  const sdk = `${path.sep}node_modules${path.sep}@modelcontextprotocol${path.sep}sdk${path.sep}`;
  return {
    name: 'without-ajv',
    setup(b) {
      b.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (args) => (args.importer.includes(sdk) ? { path: 'ajv-provider', namespace: 'without-ajv' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'without-ajv' }, () => ({
        loader: 'js',
        contents: `export class AjvJsonSchemaValidator {
  getValidator() {
    throw new Error('agent-hooks bundles the MCP SDK without a JSON Schema validator (ajv): this path needs one (scripts/bundle.mjs, withoutAjv)');
  }
}
`,
      }));
    },
  };
}

// OpenTelemetry, only for runs with telemetry configured (src/telemetry/settings.ts): src/telemetry/sdk.ts is
// its one importer and its entry. The packages ship ES modules beside CommonJS: taken ("module" first), esbuild
// drops what sdk.ts does not name (the logs SDK otlp-transformer depends on, the exporters' env readers).
await build({
  ...library,
  entryPoints: ['src/telemetry/sdk.ts'],
  outfile: path.join(out, 'vendor', 'otel.cjs'),
  mainFields: ['module', 'main'],
  minifyIdentifiers: true,
});
compress(path.join(out, 'vendor', 'otel.cjs'));

// The CLI's imports of those libraries: src/vendor/load.ts's vendored(<name>), which loads the compressed file
// beside the bundle on first use (see the end of this script).
const vendor = {
  name: 'vendor',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${VENDOR.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'vendored' }));
    b.onResolve({ filter: /^@modelcontextprotocol\/sdk\// }, () => ({ path: 'mcp-sdk', namespace: 'vendored' }));
    b.onResolve({ filter: /^@opentelemetry\// }, () => ({ path: 'otel', namespace: 'vendored' }));
    // Not `module.exports = vendored(name)`: esbuild keeps a module whose first run threw as an empty object for
    // good, so a library that failed to load once (a file replaced mid-upgrade, EMFILE in a server) would be {}
    // for the life of the process. Each read goes to the loader, which loads the library once it can.
    b.onLoad({ filter: /.*/, namespace: 'vendored' }, (args) => ({
      loader: 'js',
      resolveDir: root,
      contents: `const { vendored } = require('./src/vendor/load.ts');
const library = () => vendored(${JSON.stringify(args.path)});
module.exports = new Proxy({}, {
  get: (_, key) => library()[key],
  has: (_, key) => key in library(),
  ownKeys: () => Reflect.ownKeys(library()),
  getOwnPropertyDescriptor: (_, key) => {
    const own = Reflect.getOwnPropertyDescriptor(library(), key);
    return own === undefined ? undefined : { ...own, configurable: true };
  },
});
`,
    }));
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
// Not the globs of this checkout (self-protection's package root): an installed package is elsewhere, so
// they would never be looked up, and the published bundle would carry the builder's path.
const here = root.toLowerCase();
const pathTable = Object.fromEntries(tableGlobs().filter((glob) => !glob.startsWith(here)).map((glob) => [glob, globSource(glob)]));
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

// The library entry (package.json's exports): the API out of cli.cjs, so the package carries its code
// once. An ES module, as the tsc build was; its export names are read from the bundle itself, so they
// cannot drift from src/index.ts. JS configs are imported from here, as the launcher does (the bundle's
// own import() is a require).
const api = await createRequire(import.meta.url)(path.join(out, 'cli.cjs')).library();
const names = Object.keys(api).filter((name) => name !== 'default').sort();
if (names.length === 0) throw new Error('dist/bundle/cli.cjs: library() exports nothing (src/index.ts)');
writeFileSync(
  path.join(out, 'library.mjs'),
  `// agent-hooks' library API (src/index.ts), from the CLI bundle beside this file.
import { createRequire } from 'node:module';
const cli = createRequire(import.meta.url)('./cli.cjs');
cli.jsConfigImporter.load = (url) => import(url);
const api = await cli.library();
export const { ${names.join(', ')} } = api;
`,
);

// The library's types: the declarations tsc wrote (npm run build runs it first), only those
// src/index.d.ts reaches, copied to dist/types (the package ships no other tsc output).
const dist = path.join(root, 'dist');
const types = path.join(dist, 'types');
rmSync(types, { recursive: true, force: true });
const pending = ['index.d.ts'];
const seen = new Set();
while (pending.length > 0) {
  const rel = pending.pop();
  if (seen.has(rel)) continue;
  seen.add(rel);
  let text;
  try {
    text = readFileSync(path.join(dist, rel), 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error(`dist/${rel} is missing: run tsc -p tsconfig.build.json before the bundle (npm run build does)`);
    throw error;
  }
  for (const [, spec] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    pending.push(path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec.replace(/\.js$/, '.d.ts'))));
  }
  mkdirSync(path.dirname(path.join(types, rel)), { recursive: true });
  writeFileSync(path.join(types, rel), withoutZod(rel, text));
}

/**
 * The declarations without `import ... from 'zod'`: zod is in the bundle, not a dependency, so a
 * consumer has no zod to resolve it with (and with skipLibCheck a missing module is silently `any`).
 * The config's types are spelled out from the schema; the two internal signatures that name a zod
 * type get a stand-in of the part they use. Any other package a declaration imports fails the build.
 */
function withoutZod(rel, text) {
  if (rel === 'config/schema.d.ts') return configTypes();
  const out = text
    .replace(/^import type \{ ZodType \} from 'zod';$/m, '/** A zod schema (zod is bundled, not a dependency: the part agent-hooks uses). */\ntype ZodType<T = unknown> = { parse(data: unknown): T };')
    .replace(/^import type \{ z \} from 'zod';$/m, '/** zod\'s issue (zod is bundled, not a dependency: the part agent-hooks reads). */\ndeclare namespace z { namespace core { type $ZodIssue = { readonly code: string; readonly path: PropertyKey[]; readonly message: string } } }');
  for (const [, spec] of out.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"]([^'".][^'"]*)['"]/g)) {
    if (!spec.startsWith('node:')) throw new Error(`dist/${rel} imports "${spec}", which the package does not depend on: spell the type out in scripts/bundle.mjs (withoutZod)`);
  }
  return out;
}

/** dist/types/config/schema.d.ts: HandlerConfig and HooksConfig as plain object types, read from zod's inference over the schema. */
function configTypes() {
  const ts = createRequire(import.meta.url)('typescript');
  const file = path.join(root, 'src', 'config', 'schema.ts');
  const program = ts.createProgram([file], { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const source = program.getSourceFile(file);
  const spelled = new Map();
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    const node = checker.typeToTypeNode(checker.getTypeAtLocation(statement.name), undefined, ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias);
    spelled.set(statement.name.text, printer.printNode(ts.EmitHint.Unspecified, node, source));
  }
  for (const name of ['HandlerConfig', 'HooksConfig']) if (!spelled.has(name)) throw new Error(`src/config/schema.ts: no type ${name} to spell out for the package's types`);
  return `// Written by scripts/bundle.mjs from src/config/schema.ts (zod's inference, spelled out: the package has no zod to resolve it with).
/** One hook entry as written in a config file. */
export type HandlerConfig = ${spelled.get('HandlerConfig')};
/** A whole config file. */
export type HooksConfig = ${spelled.get('HooksConfig')};
/** Types a config written in JS/TS (\`hooks.config.mjs\`): \`export default defineConfig({...})\`. */
export declare function defineConfig(config: HooksConfig): HooksConfig;
`;
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

// The config's JSON Schema, as `hooks schema` prints it, one line per property and per definition: half the
// bytes of the indented print (48 kB, not 104 kB) in every install, and a diff still shows which definition
// changed. Editors read it the same; `hooks schema` prints it indented for people.
const schema = JSON.parse(execFileSync(process.execPath, [path.join(root, 'bin', 'hooks.js'), 'schema'], { encoding: 'utf8' }));
const lines = (object) => `{\n${Object.entries(object).map(([key, value]) => ` ${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(',\n')}\n}`;
writeFileSync(
  path.join(root, 'schema', 'hooks.schema.json'),
  `{\n${Object.entries(schema).map(([key, value]) => `${JSON.stringify(key)}: ${key === 'properties' || key === '$defs' ? lines(value) : JSON.stringify(value)}`).join(',\n')}\n}\n`,
);
