// A runner-side guard against endless Stop loops: a Stop hook that blocks every time keeps the agent
// working forever (Claude Code only marks the follow-up Stop with `stop_hook_active: true`, and most
// hooks never look at it). After `limit` blocks in a row with `stop_hook_active` in one session, the
// next block lets the stop through, and the user is told why.
//
// The count lives in a small file per session under the user's state dir: its name is a hash (nothing
// the project or the payload controls becomes a path), the folder is 0700 and ours, the file 0600, read
// without following links and only when we own it.
import { createHash } from 'node:crypto';
import { existsSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { privateDir, readPrivateFile, writePrivateFile } from '../fs/private.js';
import { stateDir } from '../paths.js';
import type { Decision } from './combine.js';

/** Blocks in a row with `stop_hook_active` before the stop is let through; `defaults.stopLoopLimit` changes it, 0 turns it off. */
export const DEFAULT_STOP_LOOP_LIMIT = 3;

/** Where the counts are kept: one number per key. */
export interface StopLoopCounts {
  /** The count, or why it cannot be kept. */
  read(key: string): number | { problem: string };
  write(key: string, count: number): string | undefined;
}

/**
 * The decision, with the stop let through when the hooks have blocked `limit` times in a row with
 * `stop_hook_active`. Other events and other decisions pass unchanged (a non-blocking Stop resets the count).
 */
export function guardStopLoop(decision: Decision, limit: number, counts: StopLoopCounts): Decision {
  const name = decision.event.name;
  if (limit <= 0 || (name !== 'stop' && name !== 'subagentStop')) return decision;
  const payload = decision.event.payload;
  const session = typeof payload.session_id === 'string' ? payload.session_id : '';
  const agent = typeof payload.agent_id === 'string' ? payload.agent_id : '';
  const key = createHash('sha256').update(`${session}\0${name}\0${agent}`).digest('hex');
  const active = payload.stop_hook_active === true;
  const blocked = decision.decision === 'block';
  if (!active || !blocked) {
    // A first stop, or a stop the hooks let through: the loop (if any) is over.
    const problem = counts.write(key, 0);
    return problem === undefined ? decision : { ...decision, warnings: [...decision.warnings, problem] };
  }
  const before = counts.read(key);
  if (typeof before !== 'number') {
    return { ...decision, warnings: [...decision.warnings, `${before.problem}; the Stop loop guard cannot count, and this block stands`] };
  }
  if (before + 1 <= limit) {
    const problem = counts.write(key, before + 1);
    return problem === undefined ? decision : { ...decision, warnings: [...decision.warnings, problem] };
  }
  counts.write(key, 0);
  const by = decision.decidedBy === undefined ? 'the Stop hooks' : `hook "${decision.decidedBy}"`;
  const warning = `${by} blocked the stop ${limit} times in a row after a stop hook had already kept the agent going (stop_hook_active); this stop was let through to end the loop (defaults.stopLoopLimit: ${limit}; the hook said: ${oneLine(decision.reason ?? '')})`;
  const { reason: _reason, claudeReason: _claude, decidedBy: _by, ...rest } = decision;
  // Stop's context keeps the turn going too: it goes with the block.
  return { ...rest, decision: 'continue', additionalContext: [], warnings: [...decision.warnings, warning] };
}

/** The counts as files in `<state dir>/stop-loop/`, one per session and event. */
export function stopLoopFiles(env: NodeJS.ProcessEnv = process.env): StopLoopCounts {
  const dir = path.join(stateDir(env), 'stop-loop');
  const file = (key: string) => path.join(dir, key);
  return {
    read(key) {
      const problem = privateDir(dir);
      if (problem !== undefined) return { problem };
      const text = readPrivateFile(file(key));
      const n = text === undefined ? 0 : Number.parseInt(text, 10);
      return Number.isSafeInteger(n) && n >= 0 ? n : 0;
    },
    write(key, count) {
      if (count === 0) {
        // Nothing to reset where the folder was never made, or is not ours to touch.
        if (!existsSync(dir) || privateDir(dir) !== undefined) return undefined;
        try {
          unlinkSync(file(key));
        } catch {
          // not there: nothing to reset
        }
        return undefined;
      }
      const problem = privateDir(dir);
      if (problem !== undefined) return `${problem}; the Stop loop guard cannot count`;
      try {
        writePrivateFile(file(key), `${count}\n`);
        return undefined;
      } catch (error) {
        return `${file(key)}: cannot write (${(error as Error).message}); the Stop loop guard cannot count`;
      }
    },
  };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
