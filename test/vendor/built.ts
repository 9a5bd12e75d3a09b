import { createRequire } from 'node:module';
import path from 'node:path';
import type { VendoredName } from '../../src/vendor/names.js';
import { ROOT } from '../helpers.js';

/** The built CLI bundle (npm test builds it first). */
export const CLI = path.join(ROOT, 'dist', 'bundle', 'cli.cjs');

/** A library as the built CLI loads it (src/vendor/load.ts, the bundle's own copy of it). */
export const vendored = (name: VendoredName): unknown => (createRequire(import.meta.url)(CLI) as { vendored(name: VendoredName): unknown }).vendored(name);
