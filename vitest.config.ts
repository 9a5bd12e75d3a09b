import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**'],
    // Hang guards, not budgets: at load 16 on 2 cores a test that takes 2 s of CPU takes 30-50 s of wall
    // clock (a fast-check property, a 40,000-deep value), so a 20 s limit failed tests that were only slow.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Hooks are real processes; two workers keep timing-sensitive tests honest on 2 cores.
    maxWorkers: 2,
  },
});
