// The environment switches every entry point honours: HOOKS_DISABLE and HOOKS_SKIP. In a locked runner
// (src/lock) they reach the user's and the project's hooks only: the agent runs as the user and can start
// itself again with any environment, so nothing in it may switch off a hook of the managed layer.

export interface Switches {
  /** HOOKS_DISABLE is on: run no hooks (when locked: no hooks but the managed layer's), and say so. */
  disabled: boolean;
  /** Hook ids HOOKS_SKIP names. */
  skip: ReadonlySet<string>;
  /** Values that were not understood, one line each; they change nothing. */
  problems: string[];
  /** The runner is locked: the switches do not reach managed hooks. */
  locked: boolean;
}

const ON = new Set(['1', 'true', 'yes', 'on']);
const OFF = new Set(['', '0', 'false', 'no', 'off']);

/** Reads the switches; a value it does not understand leaves hooks on (guards keep guarding) and is reported. */
export function readSwitches(env: NodeJS.ProcessEnv, locked = false): Switches {
  const problems: string[] = [];
  const raw = (env.HOOKS_DISABLE ?? '').trim().toLowerCase();
  if (!ON.has(raw) && !OFF.has(raw)) problems.push(`HOOKS_DISABLE=${env.HOOKS_DISABLE} is not understood (use 1 or 0); hooks stay on`);
  const skip = new Set((env.HOOKS_SKIP ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  return { disabled: ON.has(raw), skip, problems, locked };
}

/** What a switch needs to know of a hook. */
interface Switchable {
  id: string;
  source: { layer: string };
}

/**
 * Why the switches keep this hook from running, or undefined when they do not. HOOKS_DISABLE counts
 * here only when locked: unlocked, each entry point runs nothing at all (see cli/commands/run.ts).
 */
export function switchedOff(switches: Switches, hook: Switchable): string | undefined {
  if (switches.locked && hook.source.layer === 'managed') return undefined;
  if (switches.locked && switches.disabled) return 'switched off by HOOKS_DISABLE';
  if (switches.skip.has(hook.id)) return 'skipped by HOOKS_SKIP';
  return undefined;
}

/** HOOKS_DISABLE stops the whole run before any hook is looked at: only when the runner is not locked. */
export function disablesAll(switches: Switches): boolean {
  return switches.disabled && !switches.locked;
}

/**
 * In a locked runner, one line for the run's report when a switch was set and left managed hooks
 * running: what it did and did not switch off.
 */
export function lockedNote(switches: Switches, hooks: readonly Switchable[]): string | undefined {
  if (!switches.locked) return undefined;
  const set = [...(switches.disabled ? ['HOOKS_DISABLE'] : []), ...(switches.skip.size > 0 ? ['HOOKS_SKIP'] : [])];
  if (set.length === 0) return undefined;
  const managed = hooks.filter((h) => h.source.layer === 'managed' && (switches.disabled || switches.skip.has(h.id)));
  const others = hooks.filter((h) => switchedOff(switches, h) !== undefined);
  const kept = managed.length === 0 ? '' : `; the managed hooks ${[...new Set(managed.map((h) => h.id))].join(', ')} run regardless`;
  return `this runner is locked: ${set.join(' and ')} switch off user and project hooks only (${others.length} switched off)${kept}`;
}
