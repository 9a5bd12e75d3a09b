// The package a user gets: `npm pack`, installed with `npm i <tarball>` into a new project (the
// consumer fixture), run through its bin, and its library API typechecked and run from that project.
// No network: the package has no runtime dependencies (the bundle carries them), so the install is
// --offline with nothing to fetch.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { isolatedEnv, ROOT, sample, tmpProject } from '../helpers.js';

/** The size budget of the unpacked package (bytes): the bundle, the library's declarations, the schema, the README. Was 6.8 MB with source maps; 2.85 MB with the tsc output beside the bundle. 1.29 MB before the MCP SDK (vendor/mcp-sdk.cjs, 336 kB: its ajv and zod are most of it), which only MCP runs load. +120 kB for OpenTelemetry (vendor/otel.cjs, 110 kB: the trace and metrics SDKs, OTLP/HTTP export; from the packages' ES modules, so unused parts are dropped: 288 kB from their CommonJS), which only runs with telemetry configured load. +25 kB for the live page of `hooks serve` (src/serve/page: 28 kB of cli.cjs, 9 kB of it its minified HTML, script and style), which only the server loads. +45 kB of cli.cjs for `extends`, `hooks report` and the telemetry glue (the SDK itself stays in vendor/otel.cjs). Then 1.63 MB (from 1.93 MB; scripts/bundle.mjs): the MCP SDK without ajv (-135 kB) and taking its zod from vendor/zod.cjs (-91 kB: one copy of zod), the schema one line per definition (-55 kB), cosmiconfig's two loaders only (-16 kB). +50 kB of margin for what the CLI grows by before the budget is looked at again. Then 1.43 MB: the rare vendor libraries compressed (-211 kB, below); the budget is the installed one's. */
const UNPACKED_BUDGET = 1_500_000;
/** What a CLI user's `npm i agent-hooks` adds to node_modules (bytes of files): 15 MB in 28 packages while the libraries were dependencies; 1.93 MB before the cuts above, 1.63 MB after (the unpacked package and npm's lockfile). Then 1.43 MB: the three vendor libraries only rare runs load (the MCP SDK, OpenTelemetry, cosmiconfig: 285 kB) are brotli-compressed (74 kB; src/vendor/names.ts). The budget is issue 28's figure, 1.5 MB. */
const INSTALLED_BUDGET = 1_500_000;

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

const npmEnv = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  // The test's own environment must not steer npm (a vitest run under `npm test` sets npm_* variables).
  for (const key of Object.keys(env)) if (key.startsWith('npm_') && key !== 'npm_config_cache') delete env[key];
  // npm's update check is a registry request: none in tests.
  return { ...env, npm_config_update_notifier: 'false' };
};

let packed: PackResult;
let tarball: string;
let work: string;

beforeAll(() => {
  work = tmpProject();
  // --ignore-scripts: prepack would rebuild dist/ under the other test files; npm test has built it.
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, env: npmEnv(), encoding: 'utf8' });
  packed = (JSON.parse(out) as PackResult[])[0]!;
  tarball = path.join(work, packed.filename);
}, 120_000);

describe('npm pack', () => {
  it('ships LICENSE, the metadata a registry page shows, and both bin names', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toContain('LICENSE');
    expect(paths).toContain('README.md');
    expect(paths).toContain('bin/hooks.js');
    expect(paths).toContain('schema/hooks.schema.json');
    expect(paths).toContain('dist/bundle/main.js');
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.bin).toEqual({ 'agent-hooks': './bin/hooks.js', 'agent-hooks-client': './bin/agent-hooks-client', hooks: './bin/hooks.js' });
    // The command-only agents' client for hooks serve (install --serve runs it from node_modules/.bin).
    expect(paths).toContain('bin/agent-hooks-client');
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository.url).toMatch(/^git\+https:\/\/github\.com\//);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs.url).toMatch(/^https:\/\//);
    // prepare runs on every consumer's install (and npm warns about it); the build belongs in prepack.
    expect(pkg.scripts.prepare).toBeUndefined();
    expect(pkg.scripts.prepack).toBe('npm run build');
    expect(readFileSync(path.join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} agent-hooks contributors/);
  });

  it('holds the code once: the bundle and the declarations of the library entry, no tsc output, no runtime dependency', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.exports['.']).toEqual({ types: './dist/types/index.d.ts', import: './dist/bundle/library.mjs' });
    const dist = packed.files.map((f) => f.path).filter((p) => p.startsWith('dist/'));
    expect(dist.filter((p) => !p.startsWith('dist/bundle/') && !p.startsWith('dist/types/'))).toEqual([]);
    expect(dist.filter((p) => p.startsWith('dist/types/') && !p.endsWith('.d.ts'))).toEqual([]);
    expect(dist).toContain('dist/bundle/library.mjs');
    expect(dist).toContain('dist/types/index.d.ts');
    // The declarations name no package: the consumer would have none to resolve it with.
    for (const file of dist.filter((p) => p.startsWith('dist/types/'))) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      expect([...text.matchAll(/from '([^.][^']*)'/g)].map((m) => m[1]).filter((m) => !m!.startsWith('node:')), file).toEqual([]);
    }
  });

  it('has no source maps (they would point at src/, which is not shipped) and stays within its size budget', () => {
    expect(packed.files.filter((f) => f.path.endsWith('.map')).map((f) => f.path)).toEqual([]);
    expect(packed.files.filter((f) => f.path.startsWith('src/') || f.path.startsWith('test/')).map((f) => f.path)).toEqual([]);
    expect(packed.unpackedSize).toBeLessThan(UNPACKED_BUDGET);
  });

  it("names no path of the checkout it was built in (the builder's, useless where it is installed)", () => {
    for (const file of packed.files.filter((f) => /\.(c?js|mjs)$/.test(f.path))) {
      expect(readFileSync(path.join(ROOT, file.path), 'latin1').includes(ROOT), file.path).toBe(false);
    }
  });
});

describe('installed from the tarball into a new project', () => {
  let project: string;
  let install: string;
  let installed: number;

  beforeAll(() => {
    project = tmpProject();
    cpSync(path.join(ROOT, 'test', 'fixtures', 'consumer'), project, { recursive: true });
    const r = spawnSync('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund'], { cwd: project, env: npmEnv(), encoding: 'utf8' });
    install = `${r.stdout}${r.stderr}`.replace(/^npm warn Unknown user config.*\n/gm, '');
    if (r.status !== 0) throw new Error(`npm install --offline of the tarball failed (exit ${r.status}):\n${install}`);
    installed = fileBytes(path.join(project, 'node_modules'));
  }, 180_000);

  it('installs one package, with no network and no warning about install scripts', () => {
    expect(install).not.toMatch(/prepare|install-scripts|ERR/i);
    expect(install).toMatch(/added 1 package/);
    expect(readdirSync(path.join(project, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual(['agent-hooks']);
  });

  it(`adds at most ${INSTALLED_BUDGET / 1e6} MB to node_modules`, () => {
    expect(installed).toBeGreaterThan(500_000);
    expect(installed).toBeLessThanOrEqual(INSTALLED_BUDGET);
  });

  it('node_modules/.bin/agent-hooks --version prints the version; the client is there too', () => {
    const r = bin(project, ['--version']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}\n`);
    expect(r.status).toBe(0);
    expect(statSync(path.join(project, 'node_modules', '.bin', 'agent-hooks-client')).mode & 0o111).not.toBe(0);
  });

  it('the bin runs a real hook process and a builtin guard, and blocks', () => {
    writeFileSync(path.join(project, 'guard.sh'), '#!/usr/bin/env bash\ncat > /dev/null\necho "guard.sh saw it" >&2\nexit 2\n', { mode: 0o755 });
    const config = { hooks: { preToolUse: [{ builtin: 'command-safety' }, { id: 'guard-sh', command: './guard.sh', if: { command: '*deploy*' } }] } };
    writeFileSync(path.join(project, 'hooks.json'), JSON.stringify(config));
    const payload = { ...sample('pre-tool-use.ls'), cwd: project };

    const ls = bin(project, ['run', 'pre-tool-use', '--config', 'hooks.json'], JSON.stringify(payload));
    expect(ls.status).toBe(0);

    const rm = bin(project, ['run', 'pre-tool-use', '--config', 'hooks.json'], JSON.stringify({ ...payload, tool_input: { command: 'rm -rf /' } }));
    expect(rm.status).toBe(2);
    expect(JSON.parse(rm.stdout).hookSpecificOutput.permissionDecision).toBe('deny');

    const deploy = bin(project, ['run', 'pre-tool-use', '--config', 'hooks.json'], JSON.stringify({ ...payload, tool_input: { command: 'make deploy' } }));
    expect(deploy.status).toBe(2);
    expect(deploy.stderr).toContain('guard.sh saw it');
  });

  it('the library entry exports what src/index.ts does', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', "console.log(JSON.stringify(Object.keys(await import('agent-hooks')).sort()))"], { cwd: project, env: isolatedEnv(project), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(Object.keys(api).sort());
  });

  it('a TypeScript project typechecks against its declarations (skipLibCheck off) and runs the API', () => {
    // The consumer's own @types/node, as any Node project has it (the package's declarations name node: modules).
    mkdirSync(path.join(project, 'node_modules', '@types'), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', '@types', 'node'), path.join(project, 'node_modules', '@types', 'node'));
    const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project, encoding: 'utf8', timeout: 120_000 });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
    const r = spawnSync(process.execPath, [path.join(project, 'out', 'main.js')], { cwd: project, env: isolatedEnv(project), encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      ls: 'continue',
      prod: ['block', 'not in production', 'no-prod'],
      guarded: ['block', 'command-safety'],
      exitCode: 2,
      error: 'HooksError CONFIG_INVALID',
      again: 'continue',
      events: true,
      dialects: true,
      tools: true,
    });
  }, 180_000);
});

/** The bytes of every file under `dir` (what an install adds, as npm counts unpackedSize). */
function fileBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) total += fileBytes(file);
    else if (entry.isFile()) total += statSync(file).size;
  }
  return total;
}

/** The project's bin, `node_modules/.bin/agent-hooks`, as an installed hook entry runs it, with a HOME of its own. */
function bin(dir: string, args: string[], input = '') {
  return spawnSync(path.join(dir, 'node_modules', '.bin', 'agent-hooks'), args, { cwd: dir, env: isolatedEnv(dir), input, encoding: 'utf8', timeout: 60_000 });
}
