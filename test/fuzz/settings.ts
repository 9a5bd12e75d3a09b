// Shared fast-check settings: seeded (a failure reproduces), few runs and a time cap so CI stays fast.
// FUZZ_RUNS=20000 (and FUZZ_SECONDS) run a long campaign locally; the count run is printed per target.
import fc from 'fast-check';

export const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

export function settings(runs: number): fc.Parameters<unknown> {
  const numRuns = Number(process.env.FUZZ_RUNS ?? runs);
  const seconds = Number(process.env.FUZZ_SECONDS ?? 8);
  return { seed: SEED, numRuns, interruptAfterTimeLimit: seconds * 1000, markInterruptAsFailure: false };
}

/** Counts the cases a property ran, for the report. */
export function counted<T extends unknown[], R>(name: string, body: (...args: T) => R) {
  let n = 0;
  const wrapped = (...args: T): R => {
    n++;
    return body(...args);
  };
  return { wrapped, report: () => process.env.FUZZ_REPORT && console.log(`fuzz ${name}: ${n} cases`) };
}
