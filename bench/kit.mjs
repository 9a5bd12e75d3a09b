// What every benchmark script here needs: the repository root, the CLI's bin, command-line flags and
// quantiles (a median of whole-process times, the same in every script).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const hooksBin = path.join(root, 'bin', 'hooks.js');

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
