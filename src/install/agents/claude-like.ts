// Agents whose hook settings copy Claude Code's or Gemini CLI's shape: one jsonAgent each, differing
// only in where the file is, the project-folder variable, the event names and the timeout's unit.
import path from 'node:path';
import { eventSpec } from '../../events/catalog.js';
import { eventsOf } from '../../dialects/agent-events.js';
import { AUGMENT, FACTORY, QWEN_CODE } from '../../dialects/claude-like.js';
import { GEMINI_EVENTS } from '../../dialects/gemini.js';
import { nestedEntries } from '../event-table.js';
import { jsonAgent } from '../json-agent.js';
import type { Scope, Where } from '../target.js';

const FAIL_OPEN = {
  open: 'a missing or failing runner lets the call go on',
  closed: 'runner errors block (--on-error block); the agent cannot block on a missing runner',
};

/** `<project>/<folder>/<name>` or `~/<folder>/<name>`. */
function inFolder(folder: string, name: string) {
  return (scope: Scope, { cwd, home }: Where) => path.join(scope === 'project' ? cwd : home, folder, name);
}

/** Claude's group with one command handler; `scale` turns seconds into the agent's unit. */
function claudeEntry(scale: number) {
  return (command: string, timeout: number) => ({ hooks: [{ type: 'command', command, timeout: timeout * scale }] });
}

const CLAUDE_TEN = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'SessionStart', 'SessionEnd', 'Notification'];

export const qwenCode = jsonAgent({
  name: 'qwen-code',
  dialect: 'qwen-code',
  file: inFolder('.qwen', 'settings.json'),
  // Set by Qwen Code for every hook (with CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR): the session's folder.
  projectDir: { shell: '"$QWEN_PROJECT_DIR"', base: (cwd) => cwd },
  failure: FAIL_OPEN,
  events: eventsOf(QWEN_CODE.events, [...CLAUDE_TEN, 'PostToolUseFailure']),
  entries: nestedEntries,
  // Seconds since 0.24 (it still reads values of 1000 and more as milliseconds).
  entry: claudeEntry(1),
});

export const factory = jsonAgent({
  name: 'factory',
  dialect: 'factory',
  file: inFolder('.factory', 'settings.json'),
  projectDir: { shell: '"$FACTORY_PROJECT_DIR"', base: (cwd) => cwd },
  failure: FAIL_OPEN,
  events: eventsOf(FACTORY.events, CLAUDE_TEN),
  entries: nestedEntries,
  entry: claudeEntry(1),
  note: 'newer droid releases read .factory/hooks.json when it exists and then ignore settings.json hooks; check /hooks in droid',
});

export const augment = jsonAgent({
  name: 'augment',
  dialect: 'augment',
  file: inFolder('.augment', 'settings.json'),
  // auggie sets it to the first workspace root for every hook.
  projectDir: { shell: '"$AUGMENT_PROJECT_DIR"', base: (cwd) => cwd },
  failure: FAIL_OPEN,
  events: eventsOf(AUGMENT.events, ['PreToolUse', 'PostToolUse', 'PromptSubmit', 'Stop', 'SessionStart', 'SessionEnd', 'Notification']),
  entries: nestedEntries,
  // Milliseconds (auggie 0.36's default is 60000).
  entry: claudeEntry(1000),
});

/** Tabnine CLI: Gemini CLI's hooks (events, payloads, replies) under `.tabnine/agent/`, milliseconds. */
export const tabnine = jsonAgent({
  name: 'tabnine',
  dialect: 'gemini',
  file: inFolder(path.join('.tabnine', 'agent'), 'settings.json'),
  projectDir: { shell: '"$TABNINE_PROJECT_DIR"', base: (cwd) => cwd },
  failure: FAIL_OPEN,
  events: eventsOf(GEMINI_EVENTS, ['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'PreCompress', 'SessionStart', 'SessionEnd', 'Notification']),
  entries: nestedEntries,
  entry: (command, timeout, event) => ({ hooks: [{ type: 'command', name: `agent-hooks-${eventSpec(event).cli}`, command, timeout: timeout * 1000 }] }),
});
