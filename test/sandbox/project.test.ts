// What a sandbox may write is the session's project, never a folder the model names: through the real
// CLI, a tool call's `dir_path` (Gemini) or `workdir` (Codex) pointing at the runner's install or at
// ~/.config is blocked with the reason, and so is a call when no project is known; a declared project
// or a writable folder that is a folder the host runs or keeps secrets in is refused, naming it.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, isolatedEnv, runCli, tmpProject } from '../helpers.js';

const event = (toolInput: Record<string, unknown>, cwd: string) =>
  JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { description: 'd', ...toolInput }, cwd });

/** The decision and reason of a `hooks run` / `hooks guard` answer in Claude Code's form. */
function answer(r: { code: number | null; stdout: string; stderr: string }) {
  if (r.code === 2) return { decision: 'block', reason: r.stderr.trim() };
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout).hookSpecificOutput;
  return { decision: out.updatedInput === undefined ? out.permissionDecision : 'modify', reason: out.permissionDecisionReason ?? '', context: out.additionalContext ?? '', command: out.updatedInput?.command as string | undefined };
}

describe('the writable project is the session\'s, never the call\'s folder (real CLI)', () => {
  const home = realpathSync(tmpProject());
  const project = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-project-')));
  mkdirSync(path.join(project, 'sub'));
  writeFileSync(path.join(project, '.hooksrc.json'), JSON.stringify({ hooks: { preToolUse: [{ builtin: 'sandbox', options: { use: ['unshare', 'bwrap'] } }] } }));
  const config = path.join(home, '.config');
  mkdirSync(config, { recursive: true });
  const env = { ...isolatedEnv(home, {}, { trust: project }), PATH: process.env.PATH ?? '/usr/bin:/bin' };

  it("with a project config and no declared project: the config's folder is writable, whatever subfolder the call starts in", () => {
    const a = answer(runCli(['run', 'pre-tool-use'], { cwd: project, env, input: event({ command: 'ls' }, path.join(project, 'sub')) }));
    expect(a.decision).toBe('modify');
    expect(a.context).toMatch(new RegExp(`it can write only ${project} `));
  });

  it.each([
    ['dir_path', () => config],
    ['workdir', () => ROOT],
    ['cwd', () => '/usr/lib'],
  ])('a tool call whose %s is ~/.config, the runner\'s install or a system folder does not make it writable: blocked with the reason', (field, where) => {
    const a = answer(runCli(['run', 'pre-tool-use'], { cwd: project, env, input: event({ command: 'touch x', [field]: where() }, project) }));
    expect(a.decision).toBe('block');
    expect(a.reason).toBe(
      `sandbox: not run: this command must run in a sandbox, but the command would start in ${where()}, outside the folders it may write (${project}); the tool call's folder chooses where a command starts, never what it may write`,
    );
  });

  it('no declared project and no project config: blocked (never the call\'s folder)', () => {
    const loose = realpathSync(tmpProject());
    const a = answer(runCli(['guard', 'sandbox'], { cwd: loose, env, input: event({ command: 'ls', workdir: loose }, loose) }));
    expect(a).toEqual({ decision: 'block', reason: 'sandbox: not run: this command must run in a sandbox, but no project folder is known (no CLAUDE_PROJECT_DIR or HOOKS_PROJECT_DIR, and no project config), so nothing could be made writable' });
  });

  it.each([
    ['~/.config', () => config, (f: string) => `the folder ${f} is ${f} (the config folder of your programs)`],
    ["the runner's install", () => ROOT, (f: string) => `the folder ${f} is ${f} (the running agent-hooks install)`],
    ['a folder inside it', () => path.join(ROOT, 'dist'), (f: string) => `the folder ${f} lies inside ${ROOT} (the running agent-hooks install)`],
    ['a folder holding home', () => path.dirname(home), (f: string) => `the folder ${f} holds your home folder (${home})`],
    ['/etc', () => '/etc', (f: string) => `the folder ${f} is /etc (a system folder)`],
  ])('a declared project that is %s: refused, naming it', (_, folder, why) => {
    const a = answer(runCli(['guard', 'sandbox'], { cwd: project, env: { ...env, CLAUDE_PROJECT_DIR: folder() }, input: event({ command: 'ls' }, folder()) }));
    expect(a.decision).toBe('block');
    expect(a.reason).toContain(why(folder()));
  });

  it('a writable option naming ~/.config or a link to it: refused, naming it', () => {
    const link = path.join(project, 'sub', 'cfg');
    if (!existsSync(link)) symlinkSync(config, link);
    for (const writable of ['~/.config', link]) {
      const a = answer(runCli(['guard', 'sandbox', '--option', `writable=${JSON.stringify([writable])}`], { cwd: project, env: { ...env, CLAUDE_PROJECT_DIR: project }, input: event({ command: 'ls' }, project) }));
      expect(a.decision).toBe('block');
      expect(a.reason).toContain(`is ${config} (the config folder of your programs)`);
    }
  });
});
