// Durations reach timers as whole milliseconds. Config seconds times 1000 is not always whole (2.01 s is
// 2009.9999999999998 ms) and Node's timers reject what is not a uint32: one rounding, used by every timer.

/** The longest delay a Node timer honours; a longer one would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` rounded to a whole number in [1, MAX_TIMER_MS]; NaN and Infinity become the maximum. */
export function wholeMs(ms: number): number {
  if (!Number.isFinite(ms)) return MAX_TIMER_MS;
  return Math.min(Math.max(Math.round(ms), 1), MAX_TIMER_MS);
}
