// What an installable agent is: where its hook settings live, and how ours go in and come out.
import type { EventName } from '../types.js';
import type { Launcher } from './launcher.js';
import type { Scope } from './scope.js';
import type { ServeInstall } from './serve.js';

export type { Scope } from './scope.js';

/** What a settings location may depend on: passed in, never read from the process. */
export interface Where {
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

export interface InstallOptions {
  /** What every entry runs to start agent-hooks. */
  launcher: Launcher;
  /** Seconds the agent waits for one run of the runner. */
  timeoutSeconds: number;
  /** A runner error or a missing runner blocks the gated events (see FAIL_CLOSED_EVENTS). */
  failClosed: boolean;
  /**
   * The events the config uses, each with its matcher and timeout (see plan.ts). Absent: every event
   * the agent has, every tool, `timeoutSeconds`. Only agents that can say a matcher exactly use it.
   */
  plan?: ReadonlyMap<EventName, { matcher?: string; timeoutSeconds: number }>;
  /** `--serve`: the entries hand events to `hooks serve` (see serve.ts). */
  serve?: ServeInstall;
}

export { FAIL_CLOSED_EVENTS } from './fail-closed.js';

export interface AgentTarget {
  /** The name on the command line. */
  name: string;
  /** The agent's hook settings file for the scope. */
  file(scope: Scope, where: Where): string;
  /**
   * The project folder as the entry's shell sees it (`"$CLAUDE_PROJECT_DIR"`, ...), and the folder it
   * names at install time (where a project-relative launcher path starts from).
   */
  projectDir: { shell: string; base(cwd: string): string };
  /** What the agent itself does when the runner is missing or fails, with and without --fail-closed. */
  failure: { open: string; closed: string };
  /** The file's new text with our entries, and how many there are; throws `HooksError` on a file it must not touch. */
  install(before: string | undefined, file: string, options: InstallOptions, scope: Scope): { text: string; entries: number };
  /** The file's new text without ours (undefined: delete the file), and how many were removed. */
  uninstall(before: string, file: string): { text: string | undefined; removed: number };
  /**
   * Files wholly ours written beside the settings file (a plugin's code and manifest the settings load):
   * written before it on install, removed after it on uninstall; one not ours is never touched.
   */
  companions?: {
    files(file: string): readonly string[];
    /** Each file's text, in the order of `files`. */
    render(file: string, options: InstallOptions, scope: Scope): readonly string[];
    isOurs(text: string): boolean;
  };
  /** One line worth telling the user after a change (e.g. a trust step the agent asks for). */
  note?: string;
}
