// Some agents' shell tools name their own working directory (Gemini's dir_path / directory, Codex's
// workdir). The builtin guards judge a command where it runs, not where the session started.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, tmpProject } from '../helpers.js';

describe("a tool's own working directory", () => {
  const home = tmpProject({ 'repo/.git/HEAD': 'ref: refs/heads/main\n', 'repo/src/a.ts': '' });
  const repo = path.join(home, 'repo');
  const gemini = (toolInput: Record<string, unknown>) =>
    runCli(['run', 'pre-tool-use', '--dialect', 'gemini'], {
      cwd: repo,
      env: isolatedEnv(home),
      input: JSON.stringify({ session_id: 's', cwd: repo, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: toolInput }),
    });

  it.each(['dir_path', 'directory', 'workdir'])('%s pointing at home: rm -rf ./* is judged there, and denied', (field) => {
    const r = gemini({ command: 'rm -rf ./*', [field]: home });
    expect(r.stdout).toMatch(/"decision":"deny".*home directory/);
  });

  it('a relative working directory is resolved against the event cwd', () => {
    expect(gemini({ command: 'rm -rf ./*', dir_path: '..' }).stdout).toMatch(/"decision":"deny"/);
  });

  it('inside the project, an ordinary build clean-up still passes', () => {
    expect(gemini({ command: 'rm -rf ./dist', dir_path: path.join(repo, 'src') }).stdout).not.toMatch(/deny/);
  });
});
