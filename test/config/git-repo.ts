// A pinned git source for the `extends` tests: a bare repository in a temp folder, made with the system git and
// no user or system git config, never the network.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A bare repository with one commit holding `files` (paths relative to its root); its `git+file://` URL, the commit and the folder. */
export function bareRepo(files: Record<string, string>): { url: string; commit: string; bare: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-git-'));
  const bare = path.join(root, 'policy.git');
  const work = path.join(root, 'work');
  const git = (args: string[], cwd: string) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
  mkdirSync(work);
  git(['init', '--bare', '--quiet', bare], root);
  git(['init', '--quiet', work], root);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(work, name)), { recursive: true });
    writeFileSync(path.join(work, name), content);
  }
  git(['add', '.'], work);
  git(['commit', '--quiet', '-m', 'policy'], work);
  git(['push', '--quiet', bare, 'HEAD:main'], work);
  return { url: `git+file://${bare}`, commit: git(['rev-parse', 'HEAD'], work).trim(), bare };
}
