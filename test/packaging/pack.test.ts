// The package a user gets: `npm pack`, installed with `npm i -D <tarball>` into a new project, run as
// `npx agent-hooks`. No network: the install is --offline, its dependencies come from the npm cache
// that `npm ci` filled (see installOffline for why the project gets a lockfile).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT, sample, tmpProject } from '../helpers.js';

/** The size budget of the unpacked package (bytes): the bundle, the library's JS and types, the schema. Was 6.8 MB with source maps; 2.5 MB before Claude Code settings support (http, async, import, matchers and rules: ~30 kB); 3.0 MB with
 * every Claude Code event, the model events, serve, the sandbox, output-budget and schema-pin guards (2.83 MB). */
const UNPACKED_BUDGET = 3_000_000;

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

  it('has no source maps (they would point at src/, which is not shipped) and stays within its size budget', () => {
    expect(packed.files.filter((f) => f.path.endsWith('.map')).map((f) => f.path)).toEqual([]);
    expect(packed.files.filter((f) => f.path.startsWith('src/') || f.path.startsWith('test/')).map((f) => f.path)).toEqual([]);
    expect(packed.unpackedSize).toBeLessThan(UNPACKED_BUDGET);
  });
});

describe('installed from the tarball into a new project', () => {
  let project: string;
  let install: string;

  beforeAll(() => {
    project = tmpProject();
    install = installOffline(project, tarball);
  }, 180_000);

  it('installs with no network and no warning about install scripts', () => {
    expect(install).not.toMatch(/prepare|install-scripts|ERR/i);
  });

  it('npx agent-hooks --version prints the version', () => {
    const r = npx(project, ['--version']);
    expect(r.stderr.replace(/^npm warn Unknown user config.*\n/gm, '')).toBe('');
    expect(r.stdout).toBe(`${JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}\n`);
    expect(r.status).toBe(0);
  });

  it('npx agent-hooks run pre-tool-use runs a real hook process and a builtin guard, and blocks', () => {
    writeFileSync(path.join(project, 'guard.sh'), '#!/usr/bin/env bash\ncat > /dev/null\necho "guard.sh saw it" >&2\nexit 2\n', { mode: 0o755 });
    const config = { hooks: { preToolUse: [{ builtin: 'command-safety' }, { id: 'guard-sh', command: './guard.sh', if: { command: '*deploy*' } }] } };
    writeFileSync(path.join(project, 'hooks.json'), JSON.stringify(config));
    const payload = { ...sample('pre-tool-use.ls'), cwd: project };

    const ls = npx(project, ['run', 'pre-tool-use', '--config', 'hooks.json'], JSON.stringify(payload));
    expect(ls.status).toBe(0);

    const rm = npx(project, ['run', 'pre-tool-use', '--config', 'hooks.json'], JSON.stringify({ ...payload, tool_input: { command: 'rm -rf /' } }));
    expect(rm.status).toBe(2);
    expect(JSON.parse(rm.stdout).hookSpecificOutput.permissionDecision).toBe('deny');

    const deploy = npx(project, ['run', 'pre-tool-use', '--config', 'hooks.json'], JSON.stringify({ ...payload, tool_input: { command: 'make deploy' } }));
    expect(deploy.status).toBe(2);
    expect(deploy.stderr).toContain('guard.sh saw it');
  });
});

/**
 * `npm i -D <tarball> --offline` in `dir`. npm ci leaves the dependencies' tarballs in the cache, but
 * not the registry's metadata that resolving `^9.0.0` needs, so a bare --offline install fails with
 * ENOTCACHED. The project gets the lockfile a first online install would have written (this
 * repository's locked versions of the package's dependencies), and npm takes every tarball from the
 * cache by its integrity. With a network, a user's plain `npm i -D` does the same.
 */
function installOffline(dir: string, file: string): string {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const self = lock.packages[''];
  const spec = `file:${file}`;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', version: '1.0.0', devDependencies: { 'agent-hooks': spec } },
    'node_modules/agent-hooks': {
      version: self.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`,
      dev: true,
      license: self.license,
      dependencies: self.dependencies,
      bin: { 'agent-hooks': 'bin/hooks.js', 'agent-hooks-client': 'bin/agent-hooks-client', hooks: 'bin/hooks.js' },
      engines: self.engines,
    },
  };
  for (const [key, entry] of Object.entries(lock.packages as Record<string, { dev?: boolean; devOptional?: boolean; link?: boolean }>)) {
    if (key !== '' && entry.dev !== true && entry.devOptional !== true && entry.link !== true) packages[key] = { ...entry, dev: true };
  }
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2));
  writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2));
  const r = spawnSync('npm', ['install', '--save-dev', file, '--offline', '--no-audit', '--no-fund'], { cwd: dir, env: npmEnv(), encoding: 'utf8' });
  const output = `${r.stdout}${r.stderr}`.replace(/^npm warn Unknown user config.*\n/gm, '');
  if (r.status !== 0) throw new Error(`npm install --offline of the tarball failed (exit ${r.status}):\n${output}`);
  return output;
}

/** `npx agent-hooks ...` in the project, offline, with a HOME of its own (no user config leaks in). */
function npx(dir: string, args: string[], input = '') {
  const env: NodeJS.ProcessEnv = { ...isolatedEnv(dir) };
  for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
  // The local bin needs no registry: an unreachable one proves it (and no update check either).
  Object.assign(env, { npm_config_cache: npmCache(), npm_config_update_notifier: 'false', npm_config_registry: 'http://127.0.0.1:9/' });
  return spawnSync('npx', ['--offline', 'agent-hooks', ...args], { cwd: dir, env, input, encoding: 'utf8', timeout: 60_000 });
}

let cache: string | undefined;
function npmCache(): string {
  cache ??= execFileSync('npm', ['config', 'get', 'cache'], { env: npmEnv(), encoding: 'utf8' }).trim();
  return cache;
}
