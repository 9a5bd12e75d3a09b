// The CPU time a synchronous call costs, for the tests that hold a guard to "linear" or "fast": unlike the
// wall clock, it does not grow while the machine is busy with other work (8 test workers on 2 cores gave
// the wall clock 5-10x the quiet figure), so a budget stays a budget and not a guess at the load.

/** Runs `fn` and returns its result with the process's user + system CPU milliseconds it took. */
export function cpuTimed<T>(fn: () => T): { result: T; ms: number } {
  const before = process.cpuUsage();
  const result = fn();
  const spent = process.cpuUsage(before);
  return { result, ms: (spent.user + spent.system) / 1000 };
}
