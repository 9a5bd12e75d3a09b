// src/vendor/load.ts on the built package: the vendor libraries as the bundle carries them (dist/bundle/vendor/,
// scripts/bundle.mjs), each loaded through the CLI's own loader. What each library does there is
// test/packaging/vendor.test.ts.
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { VENDORED, type VendoredName } from '../../src/vendor/names.js';
import { ROOT, tmpProject } from '../helpers.js';
import { CLI, vendored } from './built.js';

describe('dist/bundle/vendor/: the files src/vendor/names.ts names, nothing else', () => {
  const dir = path.join(ROOT, 'dist', 'bundle', 'vendor');
  it('holds each library once, compressed where names.ts says so', () => {
    expect(readdirSync(dir).sort()).toEqual(Object.values(VENDORED).sort());
    // What was compressed is a brotli stream the CLI can read: a quarter of the code's bytes or less.
    for (const file of Object.values(VENDORED).filter((f) => f.endsWith('.br'))) {
      const bytes = readFileSync(path.join(dir, file));
      expect(brotliDecompressSync(bytes).length, file).toBeGreaterThan(bytes.length * 3);
    }
  });

  it('every library loads through the CLI, and a second load is the same module', () => {
    for (const name of Object.keys(VENDORED) as VendoredName[]) {
      const exports = vendored(name);
      expect(Object.keys(exports as object).length, name).toBeGreaterThan(0);
      expect(vendored(name), name).toBe(exports);
    }
  });

  it('a library whose file is damaged fails to load with the error, every time (never half a module)', () => {
    // A copy of the bundle beside a broken otel file: the loader reads the file next to the bundle it is in.
    const copy = tmpProject();
    mkdirSync(path.join(copy, 'vendor'));
    copyFileSync(CLI, path.join(copy, 'cli.cjs'));
    writeFileSync(path.join(copy, 'vendor', VENDORED.otel), brotliCompressSync('exports.partial = true;\nthrow new Error("damaged library");\n'));
    const cli = createRequire(import.meta.url)(path.join(copy, 'cli.cjs')) as { vendored(name: VendoredName): unknown };
    expect(() => cli.vendored('otel')).toThrow('damaged library');
    expect(() => cli.vendored('otel')).toThrow('damaged library');
    writeFileSync(path.join(copy, 'vendor', VENDORED.otel), Buffer.from('not brotli'));
    expect(() => cli.vendored('otel')).toThrow();
  });

  it('a library that failed to load loads once its file is back, with a line naming the file before (a server outliving an upgrade)', async () => {
    // A copy of the bundle, through the library API as a server or a JS config uses it: a YAML config needs cosmiconfig.
    const copy = tmpProject({ 'x.yaml': 'hooks:\n  stop:\n    - command: ./a.sh\n' });
    cpSync(path.dirname(CLI), path.join(copy, 'bundle'), { recursive: true });
    const file = path.join(copy, 'bundle', 'vendor', VENDORED.cosmiconfig);
    const cli = createRequire(import.meta.url)(path.join(copy, 'bundle', 'cli.cjs')) as { library(): Promise<typeof import('../../src/index.js')> };
    const api = await cli.library();
    renameSync(file, `${file}.away`);
    await expect(api.loadConfig({ configFile: path.join(copy, 'x.yaml') })).rejects.toThrow(`${file}: ENOENT`);
    renameSync(`${file}.away`, file);
    const loaded = await api.loadConfig({ configFile: path.join(copy, 'x.yaml') });
    expect(loaded.layers.map((l) => l.file)).toEqual([path.join(copy, 'x.yaml')]);
  });
});
