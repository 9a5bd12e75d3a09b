// What the install tests share: a project that depends on agent-hooks (its node_modules/.bin links
// to this checkout's bin, so installed commands really run), an isolated home, and the backup record.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, vi } from 'vitest';
import { backupPath, type BackupRecord } from '../../src/install/backup.js';
import { cliInProcess, isolatedEnv, ROOT, tmpProject } from '../helpers.js';

export const BIN = path.join(ROOT, 'bin', 'hooks.js');
export const MARK = ' # agent-hooks';

/** A project with agent-hooks as a devDependency, installed (node_modules/.bin/agent-hooks → this checkout). */
export function dependentProject(files: Record<string, string> = {}): string {
  const dir = tmpProject({ 'package.json': `${JSON.stringify({ name: 'app', devDependencies: { 'agent-hooks': '^0.1.0' } }, null, 2)}\n`, ...files });
  mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(BIN, path.join(dir, 'node_modules', '.bin', 'agent-hooks'));
  return dir;
}

/** The environment of a test: HOME (and XDG folders) in `home`, no agent-home variables but `extra`. */
export function testEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = isolatedEnv(home, extra);
  for (const name of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'COPILOT_HOME', 'XDG_STATE_HOME', 'GEMINI_PROJECT_DIR', 'CURSOR_PROJECT_DIR']) if (!(name in extra)) delete env[name];
  return env;
}

/** The CLI in-process, with HOME in a temp folder. */
export function hooks(args: string[], cwd: string, home: string, extra: Record<string, string> = {}) {
  return cliInProcess(args, { cwd, env: testEnv(home, extra) });
}

/** The backup record install keeps for `file` in the home's state dir. */
export function backupOf(file: string, home: string): BackupRecord & { path: string } {
  const where = backupPath(file, { HOME: home });
  return { ...(JSON.parse(readFileSync(where, 'utf8')) as BackupRecord), path: where };
}

/** The record's path as install prints it. */
export function backupLabel(file: string, home: string): string {
  return `~/${path.relative(home, backupPath(file, { HOME: home }))}`;
}

/**
 * For the generated plugins' tests (opencode, Cline): the runner a plugin spawns inherits the test
 * process's environment, so HOME and the XDG folders go to `home` and no skip switch leaks in. Call in
 * beforeEach; vi.unstubAllEnvs() undoes it.
 */
export function stubPluginEnv(home: string): void {
  for (const [name, value] of Object.entries(isolatedEnv(home))) if (name === 'HOME' || name.startsWith('XDG_') || name === 'AGENT_HOOKS_MANAGED_CONFIG') vi.stubEnv(name, value!);
  for (const name of ['HOOKS_SKIP', 'HOOKS_DISABLE', 'HOOKS_ON_ERROR']) vi.stubEnv(name, undefined);
}

/** A dependent project with `config` as the user layer (always trusted) and `hooks install <agent>` done in it. */
export async function pluginProject(agent: string, home: string, config: unknown, flags: string[] = []): Promise<string> {
  const dir = dependentProject();
  // The plugin and the runner are under test, not project trust.
  mkdirSync(path.join(home, '.config', 'agent-hooks'), { recursive: true });
  writeFileSync(path.join(home, '.config', 'agent-hooks', 'config.json'), JSON.stringify(config));
  const r = await cliInProcess(['install', agent, ...flags], { cwd: dir, env: isolatedEnv(home) });
  expect(r.code, r.stderr).toBe(0);
  return dir;
}
