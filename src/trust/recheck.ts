// A runner kept for many events (`hooks serve`, a library user's) re-checks the files its trust covers
// before each one: a trusted hook's script edited after the config was loaded must not run, and a long
// process would otherwise only notice once something else made it load the config again. On any change
// the config is loaded afresh, through the same loader and trust check as `hooks run` (the runner that does
// so is the engine's: recheckedRunner in src/engine.ts).
import { firstChange, observeCovers, type Covers } from './covers.js';

/** The covered files of each trusted (or trusted-then-changed) layer, as they were when it was loaded. */
export interface CoveredLayer {
  dir: string;
  covers: Covers;
}

/** Whether any covered file is not as it was when these layers were loaded. */
export function coversChanged(layers: readonly CoveredLayer[] | undefined): boolean {
  return (layers ?? []).some(({ dir, covers }) => firstChange(covers, observeCovers(dir, Object.keys(covers))) !== undefined);
}
