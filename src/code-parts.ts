// What a run used (its event, the guards it ran, whether it started a hook process), for the
// launcher's code cache: a cache made by one kind of run is extended the first time another kind
// needs code it does not hold, and not rewritten on runs it already covers.

const parts = new Set<string>();

/** Records parts this run used; cheap enough to call on every run. */
export function noteCodeParts(...names: string[]): void {
  for (const name of names) parts.add(name);
}

/** Every part noted so far, sorted. */
export function codeParts(): string[] {
  return [...parts].sort();
}

/** Noted by a run that checked a config afresh (the cache missed): its code is not worth caching. */
export const CONFIG_CHECKED = 'config-checked';
