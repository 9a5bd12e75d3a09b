// `hooks doctor`'s "locked:" answer: is this runner locked (src/lock), and does each agent's managed
// (system) hook settings run it the way a locked install does (install/managed.ts)? Every reason it is
// not, one line each, naming the file and what is wrong with it.
import { existsSync, readFileSync } from 'node:fs';
import { lockState, openToUsers, type LockState } from '../lock/detect.js';
import { isRecord } from '../json.js';
import { hooksBin } from '../install/bin.js';
import { isOurCommand } from '../install/shell.js';

export interface LockReport {
  /** The runner is locked, and at least one agent's managed settings run it as a locked install does. */
  locked: boolean;
  /** The runner's reasons, then each agent's, prefixed with its name. */
  reasons: string[];
  /** Per agent: locked, or why not. */
  agents: Record<string, { locked: boolean; reasons: string[] }>;
}

/** Where each agent keeps the managed settings a locked install writes. */
export function managedFiles(platform: NodeJS.Platform = process.platform): Record<string, string> {
  return {
    'claude-code': platform === 'darwin' ? '/Library/Application Support/ClaudeCode/managed-settings.json' : '/etc/claude-code/managed-settings.json',
    codex: '/etc/codex/hooks/hooks.json',
    cursor: platform === 'darwin' ? '/Library/Application Support/Cursor/hooks.json' : '/etc/cursor/hooks.json',
  };
}

export interface LockReportInputs {
  lock?: LockState;
  /** Agent name → its managed settings file (default: managedFiles()). */
  files?: Record<string, string>;
  /** The bin the entries must run (default: this runner's). */
  bin?: string;
}

export function lockReport(inputs: LockReportInputs = {}): LockReport {
  const lock = inputs.lock ?? lockState();
  const bin = inputs.bin ?? safeBin();
  const agents: LockReport['agents'] = {};
  for (const [agent, file] of Object.entries(inputs.files ?? managedFiles())) {
    const reasons = agentReasons(agent, file, bin);
    agents[agent] = { locked: lock.locked && reasons.length === 0, reasons };
  }
  const reasons = [...lock.reasons, ...Object.entries(agents).flatMap(([agent, a]) => a.reasons.map((r) => `${agent}: ${r}`))];
  return { locked: lock.locked && Object.values(agents).some((a) => a.locked), reasons, agents };
}

function safeBin(): string | undefined {
  try {
    return hooksBin();
  } catch {
    return undefined;
  }
}

/** Why this agent's managed settings do not lock it to this runner, one line each (empty: they do). */
function agentReasons(agent: string, file: string, bin: string | undefined): string[] {
  if (!existsSync(file)) return [`${file} absent`];
  const open = openToUsers(file);
  if (open !== undefined) return [`${file} ${open}`];
  let settings: unknown;
  try {
    settings = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return [`${file}: not JSON (${(error as Error).message})`];
  }
  const reasons: string[] = [];
  const commands = ourEntries(settings);
  if (commands.length === 0) return [`${file} has no agent-hooks entries`];
  for (const command of new Set(commands.map((c) => c.command))) {
    const problem = commandProblem(command, bin);
    if (problem !== undefined) reasons.push(`${file}: "${command}" ${problem}`);
  }
  if (agent === 'claude-code') {
    if (!isRecord(settings) || settings.allowManagedHooksOnly !== true) reasons.push(`${file}: allowManagedHooksOnly is not true, so the user's own Claude Code hooks settings (and their disableAllHooks) still count`);
    const gate = commands.filter((c) => c.event === 'PreToolUse');
    if (gate.length === 0 || gate.some((c) => c.handler.onFailure !== 'block')) reasons.push(`${file}: PreToolUse is not onFailure "block", so a runner that is missing or fails lets the call go on`);
  }
  if (agent === 'codex') {
    const requirements = '/etc/codex/requirements.toml';
    const text = existsSync(requirements) ? readFileSync(requirements, 'utf8') : '';
    if (!/^\s*allow_managed_hooks_only\s*=\s*true\s*$/m.test(text)) reasons.push(`${requirements} does not set allow_managed_hooks_only = true`);
  }
  return reasons;
}

/** Why an entry's command is not a locked runner's: an absolute node only root can change, then this runner's bin. */
function commandProblem(command: string, bin: string | undefined): string | undefined {
  const words = command.split(/\s+/);
  const [node, runs] = [unquote(words[0] ?? ''), unquote(words[1] ?? '')];
  if (!node.startsWith('/')) return 'does not start with an absolute interpreter path (PATH or #!/usr/bin/env decides what runs)';
  const open = openToUsers(node);
  if (open !== undefined) return `runs node ${node}, which ${open}`;
  if (bin !== undefined && runs !== bin) return `runs ${runs}, not this runner (${bin})`;
  if (/agent-hooks-client|serve/.test(command)) return 'goes through hooks serve, a server the user can restart with other switches';
  return undefined;
}

function unquote(word: string): string {
  return word.startsWith("'") && word.endsWith("'") ? word.slice(1, -1) : word;
}

/** Every agent-hooks entry in a hooks settings document: Claude Code's nesting, or a flat list (Cursor). */
function ourEntries(settings: unknown): { event: string; command: string; handler: Record<string, unknown> }[] {
  const hooks = isRecord(settings) && isRecord(settings.hooks) ? settings.hooks : {};
  const out: { event: string; command: string; handler: Record<string, unknown> }[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const handlers = isRecord(group) && Array.isArray(group.hooks) ? group.hooks : [group];
      for (const handler of handlers) {
        if (isRecord(handler) && isOurCommand(handler.command)) out.push({ event, command: handler.command as string, handler });
      }
    }
  }
  return out;
}
