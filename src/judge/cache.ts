// Verdicts already given, so that a repeated identical call costs no model request. The key is the hash
// of the hook's identity (file, key, id), the provider, model and endpoint, and the exact text sent (which
// holds the whole event). Kept in this process, and, because `hooks run` is one process per event, in
// small files under the user's cache dir: folder 0700, files 0600, each with an HMAC under the per-user
// key (src/config/mac-key.ts), read without following links; an entry that fails a check is a miss. A
// locked runner reads no file the user could write. Only good verdicts are kept: a failure is asked again.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { macKey, seal, unseal } from '../config/mac-key.js';
import { readPrivateFile, writePrivateFile } from '../fs/private.js';
import { cacheDir } from '../paths.js';
import type { Evidence } from './agent/loop.js';
import type { Verdict } from './verdict.js';

/** How long a kept verdict counts, in ms. */
export const VERDICT_TTL_MS = 60 * 60 * 1000;
/** Verdicts kept in this process; the oldest goes first. */
const MEMORY_ENTRIES = 512;

export interface Cached {
  verdict: Verdict;
  model: string;
  /** An agent hook's: the tool calls the verdict rested on, re-run and compared before the verdict counts. */
  evidence?: Evidence[];
}

export interface VerdictCache {
  get(key: string): Cached | undefined;
  set(key: string, value: Cached): void;
}

/** The cache key of one request. */
export function verdictKey(parts: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

type Memory = Map<string, { at: number; value: Cached }>;
const shared: Memory = new Map();

/**
 * The process's cache, with the file cache behind it unless `files` is false (a locked runner,
 * HOOKS_NO_CACHE). `memory` stands for the process's own (a test passes a fresh one to play a new process).
 */
export function verdictCache(env: NodeJS.ProcessEnv, files: boolean, memory: Memory = shared): VerdictCache {
  const dir = path.join(cacheDir(env), 'judge');
  let secret: Buffer | undefined | null = files ? undefined : null;
  const key = () => (secret === undefined ? (secret = macKey(dir) ?? null) : secret);
  return {
    get(id) {
      const held = memory.get(id);
      if (held !== undefined && Date.now() - held.at < VERDICT_TTL_MS) return held.value;
      const mac = key();
      if (mac === null) return undefined;
      const found = readEntry(path.join(dir, `${id}.json`), id, mac);
      if (found !== undefined) remember(memory, id, found.at, found.value);
      return found?.value;
    },
    set(id, value) {
      const at = Date.now();
      remember(memory, id, at, value);
      const mac = key();
      if (mac === null) return;
      const body = JSON.stringify({ id, at, value });
      try {
        writePrivateFile(path.join(dir, `${id}.json`), seal(mac, body));
      } catch {
        // Not kept on disk: the next process asks the model again, which is only slower.
      }
    },
  };
}

// --- internal ---

function remember(memory: Memory, id: string, at: number, value: Cached): void {
  memory.delete(id);
  memory.set(id, { at, value });
  if (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value!);
}

function readEntry(file: string, id: string, secret: Buffer): { at: number; value: Cached } | undefined {
  const text = readPrivateFile(file);
  const body = text === undefined ? undefined : unseal(secret, text);
  if (body === undefined) return undefined;
  try {
    const entry = JSON.parse(body) as { id?: unknown; at?: unknown; value?: Cached };
    if (entry.id !== id || typeof entry.at !== 'number' || Date.now() - entry.at >= VERDICT_TTL_MS || entry.at > Date.now() + 60_000) return undefined;
    const value = entry.value;
    if (typeof value?.verdict?.ok !== 'boolean' || typeof value.model !== 'string' || (value.evidence !== undefined && !Array.isArray(value.evidence))) return undefined;
    return { at: entry.at, value };
  } catch {
    return undefined;
  }
}
