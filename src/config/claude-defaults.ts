// How long a command or http hook may take when its entry says nothing: Claude Code's own defaults
// (2.1.328: `pp=600000` for every command/http hook; the UserPromptSubmit and model-switch runs pass
// 30 s; MessageDisplay 10 s), so a hook Claude Code would have waited for is not cut off here.
// Builtin guards and in-process handlers keep DEFAULT_TIMEOUT_SECONDS (resolve.ts).

export const CLAUDE_DEFAULT_TIMEOUT_SECONDS = 600;

const BY_EVENT: Readonly<Record<string, number>> = {
  UserPromptSubmit: 30,
  PreModelSwitch: 30,
  PostModelSwitch: 30,
  MessageDisplay: 10,
};

/** The default timeout in seconds of a command or http hook on this event (Claude Code spelling). */
export function defaultTimeoutSeconds(claudeEvent: string): number {
  return Object.hasOwn(BY_EVENT, claudeEvent) ? BY_EVENT[claudeEvent]! : CLAUDE_DEFAULT_TIMEOUT_SECONDS;
}
