// The end-to-end suite: the real agent CLIs (installed on demand into a cache folder) against fake
// model servers on 127.0.0.1, with `hooks run` as their hook command. `npm run test:e2e`.
import { defineConfig } from 'vitest/config';
import { pythonFirstOnPath } from '../interpreters.js';

pythonFirstOnPath();

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    // A first run installs the agent CLIs (beforeAll); one agent run takes a few seconds.
    testTimeout: 120_000,
    hookTimeout: 360_000,
    // Agents are heavy processes: two at a time on a 2-core machine.
    maxWorkers: 2,
    fileParallelism: true,
    reporters: ['verbose'],
  },
});
