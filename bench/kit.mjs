// What every benchmark script here needs: the repository root, the CLI's bin, command-line flags and
// quantiles (a median of whole-process times, the same in every script), and a seeded random source.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const hooksBin = path.join(root, 'bin', 'hooks.js');

// Every temporary folder a script makes (projects, homes, sockets), and those of the processes it starts, go
// in one folder of the run, removed when the script exits: a short name, for the serve sockets below it.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'ahb-'));
process.env.TMPDIR = scratch;
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/** The value after `--name` on the command line, else `fallback`. */
export function flag(name, fallback) {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
}

/** The `p` quantile (0..1) of the samples. */
export function quantile(samples, p) {
  return [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(p * samples.length))];
}

export const median = (samples) => quantile(samples, 0.5);

/** A deterministic pseudo-random source in [0, 1) (mulberry32), so every run measures the same bytes. */
export function seededRandom(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
