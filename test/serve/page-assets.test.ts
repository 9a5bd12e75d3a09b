// The page ships inside the bundle as strings (src/serve/page/assets.ts), generated from front/:
// a stale copy would test one page and ship another.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { assetsSource } from '../../scripts/page-assets.mjs';

it('src/serve/page/assets.ts is what scripts/page-assets.mjs makes of front/ (run it after editing front/)', () => {
  const file = path.resolve(import.meta.dirname, '../../src/serve/page/assets.ts');
  expect(readFileSync(file, 'utf8')).toBe((assetsSource as () => string)());
});
