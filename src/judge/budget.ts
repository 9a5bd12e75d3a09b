// A per-session cap on judge requests: a session that would ask more is told so, through the hook's
// onFailure, instead of running up a bill. Counted in this process and in one small file per session
// under the user's state dir (`hooks run` is one process per event): the name is a hash of the session
// id, the folder 0700, the file 0600 (src/fs/private.ts). Cache hits cost nothing and are not counted.
// A locked runner neither reads nor writes that file: the agent (same uid) can write it, and a spent
// count fails a managed guard; it counts in this process only, as it keeps the verdict cache.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { privateDir, readPrivateFile, writePrivateFile } from '../fs/private.js';
import { stateDir } from '../paths.js';

/** Model requests one session may make when no config says otherwise. */
export const DEFAULT_JUDGE_BUDGET = 200;

export interface Budget {
  /** Takes one request from the session's budget; false when it is spent. A problem keeping the count is said, and the request still goes. */
  take(session: string | undefined, limit: number): { ok: true; problem?: string } | { ok: false; used: number };
}

/** By count file: a runner serving many events (`hooks serve`) keeps counting where the file cannot be kept. */
const counts = new Map<string, number>();

export function sessionBudget(env: NodeJS.ProcessEnv, files = true): Budget {
  const dir = path.join(stateDir(env), 'judge-budget');
  return {
    take(session, limit) {
      const key = createHash('sha256').update(session ?? '').digest('hex');
      const file = path.join(dir, key);
      if (!files) {
        const used = counts.get(file) ?? 0;
        if (used >= limit) return { ok: false, used };
        counts.set(file, used + 1);
        return { ok: true };
      }
      const problem = privateDir(dir);
      const stored = problem === undefined ? Number.parseInt(readPrivateFile(file) ?? '0', 10) : 0;
      const used = Math.max(counts.get(file) ?? 0, Number.isSafeInteger(stored) && stored >= 0 ? stored : 0);
      if (used >= limit) return { ok: false, used };
      counts.set(file, used + 1);
      if (problem !== undefined) return { ok: true, problem: `${problem}; the judge's request budget is counted in this process only` };
      try {
        writePrivateFile(file, String(used + 1));
      } catch (error) {
        return { ok: true, problem: `${file}: cannot write the judge's request count (${(error as Error).message})` };
      }
      return { ok: true };
    },
  };
}
