import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Hooks are real processes; two workers keep timing-sensitive tests honest on 2 cores.
    maxWorkers: 2,
  },
});
