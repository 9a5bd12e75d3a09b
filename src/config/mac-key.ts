// The per-user key that authenticates agent-hooks' cache files (checked configs, judges' verdicts, the CLI's
// code cache), and the sealed form the JSON ones are kept in.
// Kept apart from cache.ts so that the CLI's launcher can use it without loading the config code.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, constants, openSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { euid, privateDir, readPrivateFile } from '../fs/private.js';

/** The per-user MAC key in `dir` (created on first use); undefined (no cache) when the directory or key is not private. */
export function macKey(dir: string): Buffer | undefined {
  if (privateDir(dir) !== undefined) return undefined;
  try {
    const parent = statSync(path.dirname(dir));
    const me = euid();
    if ((me !== undefined && parent.uid !== me) || (parent.mode & 0o022) !== 0) return undefined;
  } catch {
    return undefined;
  }
  const file = path.join(dir, 'key');
  const existing = readSecret(file);
  if (existing !== undefined) return existing;
  try {
    const secret = randomBytes(32);
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      writeSync(fd, secret.toString('hex'));
    } finally {
      closeSync(fd);
    }
    return secret;
  } catch {
    // Lost a race with another run, or cannot write: take what is there, if it is sound.
    return readSecret(file);
  }
}

function readSecret(file: string): Buffer | undefined {
  const hex = readPrivateFile(file, { secret: true })?.trim();
  return hex !== undefined && /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : undefined;
}

/** `body` as a cache file keeps it: with its HMAC-SHA256 under `secret`. */
export function seal(secret: Buffer, body: string): string {
  return JSON.stringify({ mac: hmac(secret, body), body });
}

/** The body of what `seal` wrote, when its HMAC under `secret` checks out; undefined for anything else. */
export function unseal(secret: Buffer, text: string): string | undefined {
  try {
    const { mac, body } = JSON.parse(text) as { mac?: unknown; body?: unknown };
    if (typeof mac !== 'string' || typeof body !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return undefined;
    return timingSafeEqual(Buffer.from(mac, 'hex'), Buffer.from(hmac(secret, body), 'hex')) ? body : undefined;
  } catch {
    return undefined;
  }
}

function hmac(secret: Buffer, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
