// `hooks doctor`'s checks: the silent failures of hook setups, found before an agent runs into them.
import { judgeSettings, judgeTarget } from '../judge/target.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { hooksFor, UNKNOWN_EVENT_NOTE, type ResolvedConfig, type ResolvedHook } from '../config/resolve.js';
import { disablesAll, readSwitches } from '../config/switches.js';
import { describeNoConfig } from '../config/load.js';
import { EVENTS, eventSpec } from '../events/catalog.js';
import { didYouMean } from '../suggest.js';
import { analyzeShell } from '../guards/shell/analyze.js';
import { KILL_GRACE_MS } from '../run/process.js';
import os from 'node:os';
import { checkInstalled } from './installed.js';
import { findOnPath, isExecutable } from './on-path.js';
import { checkRegistered } from './registered.js';
import { isDirectory } from '../fs/is-directory.js';
import type { Finding } from './finding.js';

export type { Finding } from './finding.js';

/** Every finding on a config that loaded. (A config that does not load is a finding of its own: see the command.) */
export function diagnose(config: ResolvedConfig, env: NodeJS.ProcessEnv): Finding[] {
  const findings: Finding[] = [];
  if (config.layers.length === 0) {
    findings.push({ level: 'warning', where: 'config', message: describeNoConfig(config.search, env), fix: 'run "npx agent-hooks init" in the project, or write the user config' });
  }
  for (const layer of config.layers) {
    if (layer.active) continue;
    if (layer.trust === 'untrusted') findings.push({ level: 'warning', where: layer.file, message: 'not trusted: its hooks do not run', fix: 'review it (npx agent-hooks trust shows every command), then run: npx agent-hooks trust' });
    else {
      for (const issue of layer.issues ?? [layer.problem ?? `${layer.file}: not read`]) {
        findings.push({ level: 'error', where: 'config', message: `${issue} (its hooks do not run until this is fixed)`, fix: 'correct the file at that key path (hooks schema lists what is allowed)' });
      }
    }
  }
  for (const warning of config.warnings) {
    if (config.layers.some((l) => l.problem !== undefined && warning.startsWith(l.problem))) continue;
    findings.push({ level: 'warning', where: 'config', message: warning, fix: 'see the message' });
  }
  for (const file of config.shadowed ?? []) {
    const used = config.layers.find((l) => l.layer === 'project')?.file ?? 'another config file';
    findings.push({ level: 'warning', where: file, message: `never read: ${used} is found first in the same folder`, fix: 'merge the two files into one and delete the other' });
  }
  const switches = readSwitches(env, config.locked === true);
  if (disablesAll(switches)) {
    findings.push({ level: 'warning', where: 'environment', message: 'HOOKS_DISABLE is set: hooks run does nothing', fix: 'unset HOOKS_DISABLE' });
  } else if (switches.disabled) {
    findings.push({ level: 'warning', where: 'environment', message: 'HOOKS_DISABLE is set: this runner is locked, so hooks run runs the managed hooks only', fix: 'unset HOOKS_DISABLE' });
  }
  for (const problem of switches.problems) findings.push({ level: 'warning', where: 'environment', message: problem, fix: 'set HOOKS_DISABLE to 1 or 0' });
  if (switches.skip.size > 0) {
    findings.push({ level: 'warning', where: 'environment', message: `HOOKS_SKIP=${env.HOOKS_SKIP} skips hooks on every run${switches.locked ? ' (this runner is locked: not the managed ones)' : ''}`, fix: 'unset HOOKS_SKIP unless you mean it' });
    const ids = config.hooks.map((h) => h.id);
    for (const id of switches.skip) {
      if (!ids.includes(id)) findings.push({ level: 'warning', where: 'environment', message: `HOOKS_SKIP names "${id}", which no configured hook has${didYouMean(id, ids)}`, fix: 'correct the id (hooks list shows them)' });
    }
  }
  for (const hook of config.hooks) {
    if (hook.run.kind === 'command') findings.push(...checkCommand(hook, env));
    // A prompt hook whose judge cannot be reached fails on every run: said before the first one.
    if (hook.run.kind === 'prompt') {
      const target = judgeTarget(judgeSettings(config.judge, hook.run.judge), env, config.projectDir);
      if ('problem' in target) findings.push({ level: 'warning', where: where(hook), message: `its judge cannot be asked: ${target.problem}`, fix: 'set the key (or the endpoint) in your environment or user config; docs/model-judged.md' });
    }
    // An mcp_tool hook whose server no config that runs may give it fails on every run: said before the first one.
    if (hook.run.kind === 'mcp_tool' && hook.run.missing !== undefined) findings.push({ level: 'warning', where: where(hook), message: `its MCP server cannot be called: ${hook.run.missing}`, fix: 'add the server to mcpServers in the same config file (or your user config); docs/mcp-tool-hooks.md' });
    // Allowed for forward compatibility (a newer agent's event), never silently.
    if (!eventSpec(hook.event).known) {
      findings.push({ level: 'warning', where: where(hook), message: `${hook.event}: ${UNKNOWN_EVENT_NOTE}`, fix: `check the spelling of the event key; if it is an agent's new event, keep it (hooks list --capabilities shows the known events)` });
    }
    if (!isDirectory(hook.cwd)) {
      findings.push({ level: 'error', where: where(hook), message: `its cwd ${hook.cwd} does not exist, so the hook cannot start`, fix: 'correct "cwd" (relative to the config file) or create the folder' });
    }
  }
  findings.push(...checkDuplicateIds(config));
  findings.push(...checkBudgets(config));
  const installedWhere = { cwd: config.projectDir, env, home: env.HOME || os.homedir() };
  findings.push(...checkInstalled(installedWhere));
  findings.push(...checkRegistered(config, installedWhere));
  return findings;
}

// --- internal ---

function where(hook: ResolvedHook): string {
  return `${hook.source.file ?? hook.source.layer} ${hook.source.key} (${hook.id})`;
}

const INTERPRETERS = new Set(['sh', 'bash', 'zsh', 'dash', 'python', 'python3', 'node', 'deno', 'bun', 'ruby', 'perl', 'php', 'tsx', 'ts-node']);
/** Shell builtins and keywords: never on PATH, never missing. */
const SHELL_BUILTINS = new Set(['echo', 'printf', 'exit', 'true', 'false', 'test', '[', 'cd', 'export', ':', 'read', 'exec', 'set', 'eval', 'source', '.', 'if', 'for', 'while', 'case']);

/** The classic silent fail-open: a typo in a guard's path, or a script without its executable bit. */
function checkCommand(hook: ResolvedHook, env: NodeJS.ProcessEnv): Finding[] {
  if (hook.run.kind !== 'command') return [];
  const program = hook.run.args === undefined ? firstProgram(hook.run.command) : { program: hook.run.command, args: hook.run.args };
  if (program === undefined) return [];
  const problems: Finding[] = [];
  const report = (message: string, fix: string) => problems.push({ level: 'error', where: where(hook), message, fix });

  if (program.program.includes('/')) {
    const file = path.resolve(hook.cwd, program.program);
    if (!existsSync(file)) report(`${program.program} does not exist (looked in ${hook.cwd})`, 'correct the path; relative paths start at the hook\'s cwd (the project folder unless "cwd" says otherwise)');
    else if (!isExecutable(file)) report(`${program.program} is not executable`, `chmod +x ${program.program}, or run it through its interpreter (e.g. "bash ${program.program}")`);
    return problems;
  }
  if (!SHELL_BUILTINS.has(program.program) && findOnPath(program.program, env) === undefined) {
    report(`"${program.program}" is not on PATH`, 'install it, or use an absolute path');
    return problems;
  }
  if (INTERPRETERS.has(path.basename(program.program))) {
    const script = program.args.find((a) => !a.startsWith('-'));
    if (script !== undefined && /[/.]/.test(script) && !existsSync(path.resolve(hook.cwd, script))) {
      report(`${program.program} ${script}: ${script} does not exist (looked in ${hook.cwd})`, 'correct the script path');
    }
  }
  return problems;
}

/** The first program a shell command runs, with its arguments; undefined when it cannot be told statically. */
function firstProgram(command: string): { program: string; args: string[] } | undefined {
  const analysis = analyzeShell(command);
  if (!analysis.ok) return undefined;
  const first = analysis.commands.find((c) => c.depth === 0 && !c.inSubstitution && c.argv.length > 0);
  if (first === undefined || first.dynamicProgram) return undefined;
  return { program: first.programPath, args: first.words.slice(1).map((w) => w.value) };
}

function checkDuplicateIds(config: ResolvedConfig): Finding[] {
  const findings: Finding[] = [];
  for (const event of EVENTS) {
    const seen = new Map<string, ResolvedHook>();
    for (const hook of hooksFor(config, event.name)) {
      const first = seen.get(hook.id);
      if (first !== undefined) {
        findings.push({
          level: 'warning',
          where: where(hook),
          message: `id "${hook.id}" is also used by ${first.source.file ?? first.source.layer} ${first.source.key}; HOOKS_SKIP and overrides act on both`,
          fix: 'give each hook its own "id"',
        });
      }
      seen.set(hook.id, hook);
    }
  }
  return findings;
}

/** Claude Code's own limits on one command hook, per event (seconds): past them it drops our answer. */
const CLAUDE_LIMITS: Partial<Record<string, number>> = { userPromptSubmit: 30, sessionEnd: 1.5 };
const CLAUDE_DEFAULT_LIMIT = 600;

/** A chain whose worst case outlives the agent's patience fails open at the agent, whatever onFailure says. */
function checkBudgets(config: ResolvedConfig): Finding[] {
  const installed = claudeTimeouts(config.projectDir);
  const findings: Finding[] = [];
  for (const event of EVENTS) {
    const hooks = hooksFor(config, event.name).filter((h) => h.enabled);
    if (hooks.length === 0) continue;
    const worst = worstCaseSeconds(hooks, event.mode);
    const limit = installed[event.claude] ?? CLAUDE_LIMITS[event.name] ?? CLAUDE_DEFAULT_LIMIT;
    if (worst > limit) {
      findings.push({
        level: 'warning',
        where: `${event.name}`,
        message: `hooks may take up to ${worst} s (timeouts${event.mode === 'intercept' ? ' in sequence' : ''}), but Claude Code waits ${limit} s for a ${event.claude} hook, then drops the answer (fail-open)`,
        fix: `lower the timeouts, mark read-only guards "parallel": true, or give the hook a larger "timeout" in .claude/settings.json`,
      });
    }
  }
  return findings;
}

/**
 * The latest moment (seconds after the event) the runner can still answer something the agent's drop
 * would lose. A chain that merely runs long loses nothing when the agent gives up: a hook that times out
 * with onFailure continue answers "continue", as the drop does. What can be lost is an answer (any hook
 * may answer just before its timeout), or a timeout that blocks (onFailure block, answered after the
 * kill grace), delayed by every other stage running to its own timeout and grace. So one default hook
 * (600 s, continue) can answer at 600 s, not 600.5: within Claude Code's 600 s.
 */
export function worstCaseSeconds(hooks: readonly Pick<ResolvedHook, 'timeoutMs' | 'onFailure' | 'parallel' | 'run'>[], mode: 'intercept' | 'observe'): number {
  const grace = KILL_GRACE_MS;
  // An in-process guard has no process to kill: its timeout is the whole of it, no grace after.
  const full = (h: (typeof hooks)[number]) => h.timeoutMs + (h.run.kind === 'command' ? grace : 0);
  const answer = (h: (typeof hooks)[number]) => (h.onFailure === 'block' ? full(h) : h.timeoutMs);
  // Observe events run every hook at once: one stage. Intercept events run in order, parallel runs batched.
  const stages: (typeof hooks)[number][][] = [];
  let batch: (typeof hooks)[number][] = [];
  const flush = () => {
    if (batch.length > 0) stages.push(batch);
    batch = [];
  };
  for (const hook of hooks) {
    if (mode === 'intercept' && !hook.parallel) flush();
    batch.push(hook);
    if (mode === 'intercept' && !hook.parallel) flush();
  }
  flush();
  if (stages.length === 0) return 0;
  const stageFull = stages.map((stage) => Math.max(...stage.map(full)));
  // A stage's answer is in once its slowest other hook is done too.
  const stageAnswer = stages.map((stage) => Math.max(...stage.map((h, i) => Math.max(answer(h), ...stage.filter((_, j) => j !== i).map(full)))));
  const total = stageFull.reduce((a, b) => a + b, 0);
  // The answer comes from one stage; every other stage may run to its full timeout.
  const worst = Math.max(...stages.map((_, i) => total - stageFull[i]! + stageAnswer[i]!));
  return Math.round(worst / 100) / 10;
}

/** Timeouts the project's .claude/settings.json gives commands that call `hooks`, by Claude event name. */
function claudeTimeouts(projectDir: string): Record<string, number> {
  const file = path.join(projectDir, '.claude', 'settings.json');
  const limits: Record<string, number> = {};
  try {
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { hooks?: Record<string, { hooks?: { command?: string; timeout?: number }[] }[]> };
    for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
      for (const handler of groups.flatMap((g) => g.hooks ?? [])) {
        if (typeof handler.command === 'string' && /\bhooks(\.js)?["']?\s+run\b/.test(handler.command) && typeof handler.timeout === 'number') {
          limits[event] = handler.timeout;
        }
      }
    }
  } catch {
    // No settings, or not ours to judge: the defaults apply.
  }
  return limits;
}
