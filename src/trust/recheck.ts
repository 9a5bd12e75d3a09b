// A runner kept for many events (`hooks serve`, a library user's) re-checks the files its trust covers
// before each one: a trusted hook's script edited after the config was loaded must not run, and a long
// process would otherwise only notice once something else made it load the config again. On any change
// the config is loaded afresh, through the same loader and trust check as `hooks run`.
import type { Runner } from '../engine.js';
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

/** `first`, reloaded with `load` before any event that finds a covered file changed since it was loaded. */
export function recheckedRunner(first: Runner, load: () => Promise<Runner>): Runner {
  let current = first;
  let loading: Promise<Runner> | undefined;
  return {
    get config() {
      return current.config;
    },
    plan: (event) => current.plan(event),
    async run(event, options) {
      if (coversChanged(current.config.covered)) {
        // Events arriving together share one load.
        loading ??= load().finally(() => {
          loading = undefined;
        });
        current = await loading;
      }
      return current.run(event, options);
    },
  };
}
