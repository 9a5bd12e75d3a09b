// What a command hook's process is started from: its own module, so the runner (process) and the spares it
// hands a spec to both depend on it and not on each other.
export interface ProcessSpec {
  /** Shell form when `args` is absent (`sh -c command`), exec form (no shell) otherwise. */
  command: string;
  args?: string[];
  /** Claude Code's `shell: "powershell"`: the shell form runs under pwsh instead of the POSIX shell. */
  shell?: 'powershell';
  cwd: string;
  /** The whole environment of the hook. */
  env: Record<string, string | undefined>;
  /**
   * Written to stdin, which is then closed. Pass the same Buffer to every hook that gets the same payload
   * (see `payloadBytes`): memory then does not grow with the number of hooks.
   */
  input: string | Uint8Array;
  /** Rounded to whole milliseconds here: a config's `2.01` s must never reach a timer as 2009.9999. */
  timeoutMs: number;
  /** Aborts the hook (and kills its tree) when the whole run is cancelled. */
  signal?: AbortSignal;
}
