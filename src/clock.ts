// Milliseconds on a monotonic clock, for durations and deadlines. Not `performance.now()`: its first use
// loads perf_hooks, close to a millisecond of every `hooks run`, which starts on every tool call.
export function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
