// The verdict cache's files: private, signed, and a miss whenever anything about an entry is off.
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verdictCache, verdictKey } from '../../src/judge/cache.js';
import { isolatedEnv, tmpProject } from '../helpers.js';

const entry = { verdict: { ok: false, reason: 'no' }, model: 'm' };

function setup() {
  const home = tmpProject();
  const env = isolatedEnv(home);
  const dir = path.join(home, '.cache', 'agent-hooks', 'judge');
  return { env, dir };
}

describe('verdict cache files', () => {
  it('a verdict kept by one process is found by the next, in a 0600 file in a 0700 folder', () => {
    const { env, dir } = setup();
    const key = verdictKey(['hook', 'payload']);
    verdictCache(env, true, new Map()).set(key, entry);
    expect(verdictCache(env, true, new Map()).get(key)).toEqual(entry);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, `${key}.json`)).mode & 0o777).toBe(0o600);
  });

  it('an entry whose body was changed (an ok:false turned into ok:true) is a miss', () => {
    const { env, dir } = setup();
    const key = verdictKey(['hook', 'tampered']);
    verdictCache(env, true, new Map()).set(key, entry);
    const file = path.join(dir, `${key}.json`);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { mac: string; body: string };
    writeFileSync(file, JSON.stringify({ mac: stored.mac, body: stored.body.replace('"ok":false', '"ok":true') }));
    expect(verdictCache(env, true, new Map()).get(key)).toBeUndefined();
  });

  it('an entry copied under another key, or a file others may write, is a miss', () => {
    const { env, dir } = setup();
    const a = verdictKey(['hook', 'a']);
    const b = verdictKey(['hook', 'b']);
    verdictCache(env, true, new Map()).set(a, { verdict: { ok: true }, model: 'm' });
    writeFileSync(path.join(dir, `${b}.json`), readFileSync(path.join(dir, `${a}.json`)), { mode: 0o600 });
    expect(verdictCache(env, true, new Map()).get(b)).toBeUndefined();
    chmodSync(path.join(dir, `${a}.json`), 0o666);
    expect(verdictCache(env, true, new Map()).get(a)).toBeUndefined();
  });

  it('with files off (a locked runner, HOOKS_NO_CACHE) nothing is written or read', () => {
    const { env, dir } = setup();
    const key = verdictKey(['hook', 'off']);
    verdictCache(env, false, new Map()).set(key, entry);
    expect(verdictCache(env, false, new Map()).get(key)).toBeUndefined();
    expect(() => readdirSync(dir)).toThrow();
  });
});
