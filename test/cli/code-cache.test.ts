// The launcher's V8 code cache (src/cli/launch.ts): the built CLI, run as a real process. The cache is
// code, so the tests are about who can get bytes into V8: only an entry under the user's own key, in
// their own private folder, for this very bundle and Node. Anything else is a miss, and the run is the
// same run, only slower.
import { createHmac } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, tmpProject } from '../helpers.js';

const codeDir = (env: NodeJS.ProcessEnv) => path.join(env.XDG_CACHE_HOME!, 'agent-hooks', 'code');
const entries = (env: NodeJS.ProcessEnv) => (existsSync(codeDir(env)) ? readdirSync(codeDir(env)).filter((f) => f.endsWith('.bin')) : []);
const entryFile = (env: NodeJS.ProcessEnv) => path.join(codeDir(env), entries(env)[0]!);
const key = (env: NodeJS.ProcessEnv) => Buffer.from(readFileSync(path.join(env.XDG_CACHE_HOME!, 'agent-hooks', 'config', 'key'), 'utf8').trim(), 'hex');
const MAGIC = Buffer.from('AHCODE01');

/** The entry's parts (its header), after checking its HMAC under the user's key. */
function readEntry(env: NodeJS.ProcessEnv): { parts: string[]; data: Buffer } {
  const bytes = readFileSync(entryFile(env));
  expect(bytes.subarray(0, 8).equals(MAGIC)).toBe(true);
  const body = bytes.subarray(40);
  expect(bytes.subarray(8, 40).equals(createHmac('sha256', key(env)).update(body).digest())).toBe(true);
  const length = body.readUInt32BE(0);
  const header = JSON.parse(body.subarray(4, 4 + length).toString('utf8')) as { parts: string[] };
  return { parts: header.parts, data: body.subarray(4 + length) };
}

/** An entry with a valid HMAC whose V8 data is `data` (what another Node, or a damaged write, leaves). */
function writeEntryWith(env: NodeJS.ProcessEnv, data: Buffer, parts: string[]): void {
  const file = entryFile(env);
  const old = readFileSync(file);
  const body = old.subarray(40);
  const header = JSON.parse(body.subarray(4, 4 + body.readUInt32BE(0)).toString('utf8')) as { key: string };
  const newHeader = Buffer.from(JSON.stringify({ key: header.key, parts }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(newHeader.length);
  const newBody = Buffer.concat([length, newHeader, data]);
  writeFileSync(file, Buffer.concat([MAGIC, createHmac('sha256', key(env)).update(newBody).digest(), newBody]));
}

const bashEvent = (cwd: string, command: string) =>
  JSON.stringify({ session_id: 's', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' });
/** A fresh isolated home whose config cache already holds the project's config (a first run checks it, and makes no code cache). */
function warmedEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = isolatedEnv(dir, extra, { codeCache: false });
  runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'true') });
  expect(entries(env)).toEqual([]);
  return env;
}

const blockedRoot = (r: { code: number | null; stdout: string }) => r.code === 2 && r.stdout.includes('filesystem-destruction');

describe('the CLI code cache', () => {
  it('a hook run makes one private entry under the user key; the next runs use it and answer the same', () => {
    const dir = tmpProject();
    const env = warmedEnv(dir);
    const first = runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'rm -rf /') });
    expect(blockedRoot(first)).toBe(true);
    expect(entries(env)).toHaveLength(1);
    expect(statSync(entryFile(env)).mode & 0o777).toBe(0o600);
    expect(statSync(codeDir(env)).mode & 0o777).toBe(0o700);
    expect(readEntry(env).parts).toEqual(expect.arrayContaining(['event:preToolUse', 'guard:command-safety', 'guard:sensitive-paths']));
    const written = readFileSync(entryFile(env));
    const second = runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'rm -rf /') });
    expect(second.stdout).toBe(first.stdout);
    expect(second.code).toBe(2);
    // A run the entry covers leaves it as it is.
    expect(readFileSync(entryFile(env)).equals(written)).toBe(true);
    expect(runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'ls') }).code).toBe(0);
  });

  it('a run of another kind extends the entry with what it used', () => {
    const dir = tmpProject();
    const env = warmedEnv(dir);
    runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'ls') });
    const post = JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'env' }, tool_response: { stdout: 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' } });
    expect(runCli(['run', 'post-tool-use'], { cwd: dir, env, input: post }).code).toBe(0);
    expect(readEntry(env).parts).toEqual(expect.arrayContaining(['event:preToolUse', 'event:postToolUse', 'guard:redact-secrets']));
  });

  it('an entry changed by anyone without the key is never handed to V8: the run is the same, and the entry is made again', () => {
    const dir = tmpProject();
    const env = warmedEnv(dir);
    runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'ls') });
    const bytes = readFileSync(entryFile(env));
    // Flip bytes in V8's data, as a forger would to plant bytecode; the HMAC no longer fits.
    for (let i = bytes.length - 64; i < bytes.length; i++) bytes[i] = bytes[i]! ^ 0xff;
    writeFileSync(entryFile(env), bytes);
    expect(blockedRoot(runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'rm -rf /') }))).toBe(true);
    expect(readEntry(env).data.length).toBeGreaterThan(1000);
    // Truncated (a crash mid-write by hand) is a miss too.
    writeFileSync(entryFile(env), readFileSync(entryFile(env)).subarray(0, 20));
    expect(blockedRoot(runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'rm -rf /') }))).toBe(true);
    expect(readEntry(env).data.length).toBeGreaterThan(1000);
  });

  it('an authentic entry V8 cannot use (another Node, damaged data) is rejected by V8 and made again', () => {
    const dir = tmpProject();
    const env = warmedEnv(dir);
    runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'ls') });
    const parts = readEntry(env).parts;
    writeEntryWith(env, Buffer.alloc(4096, 7), parts);
    expect(blockedRoot(runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'rm -rf /') }))).toBe(true);
    const data = readEntry(env).data;
    expect(data.equals(Buffer.alloc(4096, 7))).toBe(false);
    expect(data.length).toBeGreaterThan(4096);
  });

  it('is not used, nor written, in a cache folder others may write', () => {
    const dir = tmpProject();
    const env = warmedEnv(dir);
    mkdirSync(codeDir(env), { recursive: true, mode: 0o700 });
    chmodSync(codeDir(env), 0o770);
    expect(blockedRoot(runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'rm -rf /') }))).toBe(true);
    expect(entries(env)).toEqual([]);
  });

  it('HOOKS_NO_CODE_CACHE=1 turns it off; commands that are not hook runs read it but never write it', () => {
    const dir = tmpProject();
    const off = warmedEnv(dir, { HOOKS_NO_CODE_CACHE: '1' });
    expect(blockedRoot(runCli(['run', 'pre-tool-use'], { cwd: dir, env: off, input: bashEvent(dir, 'rm -rf /') }))).toBe(true);
    expect(entries(off)).toEqual([]);
    const other = tmpProject();
    const env = isolatedEnv(other, {}, { codeCache: false });
    expect(runCli(['list'], { cwd: other, env }).code).toBe(0);
    expect(runCli(['--version'], { cwd: other, env }).code).toBe(0);
    expect(runCli(['list'], { cwd: other, env }).code).toBe(0);
    expect(entries(env)).toEqual([]);
  });

  it('a JavaScript config is imported from a cached run (the bundle has no import() of its own there)', () => {
    const dir = tmpProject({ 'hooks.config.mjs': 'export default { hooks: { preToolUse: [{ id: "mine", command: "exit 2" }] } };' });
    const env = isolatedEnv(dir, {}, { codeCache: false });
    // The first run checks the config, the second makes the entry, the third runs from it: each imports the config and blocks.
    for (let i = 0; i < 3; i++) {
      const r = runCli(['run', 'pre-tool-use', '--verbose'], { cwd: dir, env, input: bashEvent(dir, 'ls') });
      expect(r.stderr).toContain('mine block');
      expect(r.code).toBe(2);
    }
    expect(entries(env)).toHaveLength(1);
  });

  it('a run that checked its config afresh (zod) does not make the entry; the next one does', () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ builtin: 'command-safety' }] } }) });
    const env = isolatedEnv(dir, {}, { codeCache: false });
    expect(blockedRoot(runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'rm -rf /') }))).toBe(true);
    expect(entries(env)).toEqual([]);
    expect(blockedRoot(runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'rm -rf /') }))).toBe(true);
    expect(entries(env)).toHaveLength(1);
  });

  // The suite's own homes (test/helpers.ts seedCodeCache): warm from their first run, each under a key of its own.
  // If the entry format changes and the seed stops being taken, this fails rather than the suite getting slower.
  it('a home made by isolatedEnv starts with a code cache V8 takes, under a key no other home has', () => {
    const homes = [tmpProject(), tmpProject()].map((dir) => ({ dir, env: { ...isolatedEnv(dir), HOOKS_DEBUG: '1' } as NodeJS.ProcessEnv }));
    for (const { dir, env } of homes) expect(runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: bashEvent(dir, 'ls') }).stderr).toMatch(/code cache: .*: accepted by V8/);
    const keys = homes.map(({ env }) => readFileSync(path.join(env.XDG_CACHE_HOME!, 'agent-hooks', 'config', 'key'), 'utf8'));
    expect(keys[0]).not.toBe(keys[1]);
  });
});
