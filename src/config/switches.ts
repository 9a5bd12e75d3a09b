// The environment switches every entry point honours: HOOKS_DISABLE and HOOKS_SKIP.

export interface Switches {
  /** HOOKS_DISABLE is on: run no hooks, and say so. */
  disabled: boolean;
  /** Hook ids HOOKS_SKIP names. */
  skip: ReadonlySet<string>;
  /** Values that were not understood, one line each; they change nothing. */
  problems: string[];
}

const ON = new Set(['1', 'true', 'yes', 'on']);
const OFF = new Set(['', '0', 'false', 'no', 'off']);

/** Reads the switches; a value it does not understand leaves hooks on (guards keep guarding) and is reported. */
export function readSwitches(env: NodeJS.ProcessEnv): Switches {
  const problems: string[] = [];
  const raw = (env.HOOKS_DISABLE ?? '').trim().toLowerCase();
  if (!ON.has(raw) && !OFF.has(raw)) problems.push(`HOOKS_DISABLE=${env.HOOKS_DISABLE} is not understood (use 1 or 0); hooks stay on`);
  const skip = new Set((env.HOOKS_SKIP ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  return { disabled: ON.has(raw), skip, problems };
}
