// What an installable agent is: where its hook settings live, and how ours go in and come out.

export type Scope = 'project' | 'user';

/** What a settings location may depend on: passed in, never read from the process. */
export interface Where {
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

export interface InstallOptions {
  /** Absolute path of the bin every entry runs. */
  bin: string;
  /** Seconds the agent waits for one run of the runner. */
  timeoutSeconds: number;
}

export interface AgentTarget {
  /** The name on the command line. */
  name: string;
  /** The agent's hook settings file for the scope. */
  file(scope: Scope, where: Where): string;
  /** The file's new text with our entries, and how many there are; throws `HooksError` on a file it must not touch. */
  install(before: string | undefined, file: string, options: InstallOptions): { text: string; entries: number };
  /** The file's new text without ours (undefined: delete the file), and how many were removed. */
  uninstall(before: string, file: string): { text: string | undefined; removed: number };
  /** One line worth telling the user after a change (e.g. a trust step the agent asks for). */
  note?: string;
}
