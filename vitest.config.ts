import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import { pythonFirstOnPath } from './test/interpreters.js';

// Before the workers start, so they and every hook they spawn inherit it.
pythonFirstOnPath();
// Node 20 reads NODE_EXTRA_CA_CERTS at every start, before any code runs (22 and later only on the first TLS
// connection): 0.1 CPU-s a process on the 2-core machine this was measured on, where `node -e 0` costs 0.045
// without it. The unit suite starts a few thousand Node processes (the CLI, node hooks) and makes no TLS
// connection (127.0.0.1 only, `npm install --offline`), so it is dropped here; the e2e suite keeps it (npm
// installs the agents through it).
delete process.env.NODE_EXTRA_CA_CERTS;

/**
 * The files that take longest, longest first (measured: the durations of a quiet run, issue 28; again 2026-11-28).
 * Vitest orders by the durations of the last run when it has them, but CI runs in a fresh clone without that cache
 * and would order by file size: a long file started last leaves the other workers idle at the end. A file missing
 * from the list only runs in vitest's own order after these.
 */
const SLOWEST = [
  'test/serve/transport.test.ts',
  'test/fidelity/claude-corpus.test.ts',
  'test/serve/lifecycle.test.ts',
  'test/sandbox/wrap.test.ts',
  'test/serve/projects.test.ts',
  'test/serve/elsewhere.test.ts',
  'test/run/fail-safe.test.ts',
  'test/packaging/pack.test.ts',
  'test/install/plugin-runner.test.ts',
  'test/run/spares.test.ts',
  'test/serve/server.test.ts',
  'test/run/mcp-tool.test.ts',
  'test/engine/replies.test.ts',
  'test/serve/client-refused.test.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i < 0 ? SLOWEST.length : i;
    };
    // Stable: the files not listed keep vitest's order.
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**'],
    globalSetup: ['test/run-tmp.ts'],
    // Hang guards, not budgets: at load 16 on 2 cores a test that takes 2 s of CPU takes 30-50 s of wall
    // clock (a fast-check property, a 40,000-deep value), so a 20 s limit failed tests that were only slow.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Twice the 2 cores this is measured on: much of the suite's time is spent waiting on hook processes, servers
    // and timeouts, which more workers fill (vitest 233 -> 194 s wall with 3, the same CPU; 174 -> 152 s with 4,
    // beside the type check, 2026-11-28). No test depends on a wall-clock budget, so a loaded machine makes the
    // suite slower, not red.
    maxWorkers: 4,
    // One module graph per worker, not one per file: a fresh one cost ~0.6 CPU-s per file (~100 CPU-s of the
    // suite). Test files must leave the process as they found it (env through vi.stubEnv + unstubAllEnvs,
    // spies restored, no chdir); run/ and serve/ state in src/ (the watchdog, caches) is shared, as in a
    // long-lived runner.
    isolate: false,
    sequence: { sequencer: SlowestFirst },
  },
});
