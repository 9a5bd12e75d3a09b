// The metadata bag: hooks answer `metadata`, later hooks of the run and later events of the session get it
// under agent_hooks_metadata. Real bash, python3 and node hooks; the store in an isolated state dir.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner } from '../../src/engine.js';
import { METADATA_KEY, METADATA_LIMITS } from '../../src/metadata/bag.js';
import { memoryStore, metadataDir, sessionFile } from '../../src/metadata/store.js';
import type { HooksConfig } from '../../src/config/schema.js';
import { EXAMPLES, bash, event, isolatedEnv, runCli, tmpProject } from '../helpers.js';

/** One project and one isolated home, so that successive runners (like successive agent calls) share a state dir. */
function session(config: HooksConfig) {
  const dir = tmpProject();
  const env = isolatedEnv(dir);
  return { dir, env, runner: () => createRunner({ cwd: dir, env, config }) };
}

/** A hook that answers `{"metadata": {KEY: VALUE}}` and puts what it received under agent_hooks_metadata in its reason. */
const bashAdds = (key: string, value: string) =>
  `bash -c 'in=$(cat); seen=$(printf %s "$in" | python3 -c "import json,sys; print(json.dumps(json.load(sys.stdin).get(\\"${METADATA_KEY}\\")))"); printf "{\\"metadata\\": {\\"${key}\\": \\"${value}\\"}, \\"reason\\": %s}" "$(printf %s "$seen" | python3 -c "import json,sys; print(json.dumps(sys.stdin.read()))")"'`;
const pythonAdds = (key: string, value: string) =>
  `python3 -c 'import json,sys; e=json.load(sys.stdin); print(json.dumps({"metadata": {"${key}": "${value}"}, "reason": json.dumps(e.get("${METADATA_KEY}"))}))'`;
const nodeAdds = (key: string, value: unknown) =>
  `node -e 'const e=JSON.parse(require("fs").readFileSync(0,"utf8")); console.log(JSON.stringify({metadata: {${JSON.stringify(key)}: ${JSON.stringify(value)}}, reason: JSON.stringify(e.${METADATA_KEY} ?? null)}))'`;
/** A hook that only reports what it received. */
const nodeSees = `node -e 'const e=JSON.parse(require("fs").readFileSync(0,"utf8")); console.log(JSON.stringify({reason: JSON.stringify(e.${METADATA_KEY} ?? null)}))'`;

const seen = (d: { results: { id: string; reply: { reason?: string } }[] }, id: string) => JSON.parse(d.results.find((r) => r.id === id)!.reply.reason ?? 'undefined') as unknown;

describe('metadata within one run', () => {
  it('each hook of the chain sees the keys the hooks before it answered (bash, python3, node)', async () => {
    const { runner } = session({
      hooks: { preToolUse: [{ id: 'a', command: bashAdds('a', '1') }, { id: 'b', command: pythonAdds('b', '2') }, { id: 'c', command: nodeAdds('c', 3) }, { id: 'd', command: nodeSees }] },
    });
    const d = await (await runner()).run(bash('ls'));
    expect(d.results.map((r) => r.failure)).toEqual([undefined, undefined, undefined, undefined]);
    expect(seen(d, 'a')).toBeNull();
    expect(seen(d, 'b')).toEqual({ a: '1' });
    expect(seen(d, 'c')).toEqual({ a: '1', b: '2' });
    expect(seen(d, 'd')).toEqual({ a: '1', b: '2', c: 3 });
    expect(d.metadata).toEqual({ a: '1', b: '2', c: 3 });
    expect(d.decision).toBe('continue');
  });

  it('hooks of one parallel batch see the bag as it was before the batch; their keys merge in config order', async () => {
    const { runner } = session({
      hooks: { preToolUse: [{ id: 'x1', command: nodeAdds('k', 'first'), parallel: true }, { id: 'x2', command: nodeAdds('k', 'second'), parallel: true }, { id: 'after', command: nodeSees }] },
    });
    const d = await (await runner()).run(bash('ls'));
    expect(seen(d, 'x1')).toBeNull();
    expect(seen(d, 'x2')).toBeNull();
    expect(seen(d, 'after')).toEqual({ k: 'second' });
  });

  it('a null value removes the key', async () => {
    const { runner } = session({ hooks: { preToolUse: [{ id: 'set', command: nodeAdds('gone', 'x') }, { id: 'unset', command: nodeAdds('gone', null) }, { id: 'see', command: nodeSees }] } });
    const d = await (await runner()).run(bash('ls'));
    expect(seen(d, 'see')).toBeNull();
  });

  it('agent_hooks_metadata in the incoming event is not passed on as if hooks had written it', async () => {
    const { runner } = session({ hooks: { preToolUse: [{ id: 'see', command: nodeSees }] } });
    const d = await (await runner()).run(bash('ls', {}));
    const forged = { ...bash('ls'), payload: { ...bash('ls').payload, [METADATA_KEY]: { trusted: 'yes' } } };
    expect(seen(d, 'see')).toBeNull();
    expect(seen(await (await runner()).run(forged), 'see')).toBeNull();
  });

  it('a Claude Code hook that never answers metadata gets the same stdin as without agent-hooks', async () => {
    const { runner } = session({ hooks: { preToolUse: [{ id: 'see', command: `node -e 'console.log(JSON.stringify({reason: Object.keys(JSON.parse(require("fs").readFileSync(0,"utf8"))).join(",")}))'` }] } });
    const d = await (await runner()).run(bash('ls'));
    expect(d.results[0]!.reply.reason).not.toContain(METADATA_KEY);
  });

  it('in-process handlers answer and read metadata too', async () => {
    const dir = tmpProject();
    const runner = await createRunner({
      cwd: dir,
      env: isolatedEnv(dir),
      handlers: [
        { event: 'userPromptSubmit', id: 'classify', handler: (input) => ({ metadata: { words: String(input.prompt).split(' ').length } }) },
        { event: 'userPromptSubmit', id: 'read', handler: (input) => ({ additionalContext: `words=${(input[METADATA_KEY] as { words: number }).words}` }) },
      ],
    });
    const d = await runner.run(event('userPromptSubmit', { prompt: 'one two three' }), { metadataStore: null });
    expect(d.additionalContext).toEqual(['words=3']);
  });
});

describe('metadata across the events of a session', () => {
  it('the OpenClaw classifier → think level pair: same run, then a later event of the session', async () => {
    const { env, runner } = session({
      hooks: {
        userPromptSubmit: [
          { id: 'classify-prompt', command: `python3 ${JSON.stringify(path.join(EXAMPLES, 'classify-prompt.py'))}` },
          { id: 'think-level', command: `node ${JSON.stringify(path.join(EXAMPLES, 'think-level.mjs'))}` },
        ],
        preToolUse: [{ id: 'think-level', command: `node ${JSON.stringify(path.join(EXAMPLES, 'think-level.mjs'))}`, match: ['write', 'edit', 'apply_patch'] }],
      },
    });
    const prompt = await (await runner()).run(event('userPromptSubmit', { session_id: 's-1', prompt: 'How would you refactor the cache architecture?' }));
    expect(prompt.additionalContext.join('\n')).toContain('Think hard');
    expect(prompt.metadata).toEqual({ intent: 'question', thinking: 'high' });

    // A new runner, as a new `hooks run` process would be.
    const write = event('preToolUse', { session_id: 's-1', tool_name: 'Write', tool_input: { file_path: '/tmp/x', content: 'y' } });
    const later = await (await runner()).run(write);
    expect(later.decision).toBe('ask');
    expect(later.reason).toContain('question');
    // Another session knows nothing of it.
    const other = await (await runner()).run({ ...write, payload: { ...write.payload, session_id: 's-2' } });
    expect(other.decision).toBe('continue');

    const file = sessionFile(metadataDir(env), 's-1');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).metadata).toEqual({ intent: 'question', thinking: 'high' });
  });

  it('sessionEnd hooks still see the bag, then the session file is removed', async () => {
    const { env, runner } = session({ hooks: { sessionStart: [{ id: 'start', command: nodeAdds('started', true) }], sessionEnd: [{ id: 'end', command: nodeSees }] } });
    await (await runner()).run(event('sessionStart', { session_id: 'ending', source: 'startup' }));
    const file = sessionFile(metadataDir(env), 'ending');
    expect(existsSync(file)).toBe(true);
    const end = await (await runner()).run(event('sessionEnd', { session_id: 'ending', reason: 'exit' }));
    expect(seen(end, 'end')).toEqual({ started: true });
    expect(existsSync(file)).toBe(false);
  });

  it('keeps what ran even when a later hook blocks', async () => {
    const { runner } = session({ hooks: { preToolUse: [{ id: 'mark', command: nodeAdds('seen', 'rm') }, { id: 'no', command: 'echo no >&2; exit 2' }] } });
    expect((await (await runner()).run(bash('rm x', {}))).decision).toBe('block');
    const next = await (await runner()).run(event('userPromptSubmit', { prompt: 'hi' }), { metadataStore: undefined });
    expect(next.metadata).toEqual({ seen: 'rm' });
  });

  it('an event without a session id keeps its bag for the run only', async () => {
    const { env, runner } = session({ hooks: { preToolUse: [{ id: 'a', command: nodeAdds('a', 1) }, { id: 'see', command: nodeSees }] } });
    const ev = bash('ls');
    delete ev.payload.session_id;
    const d = await (await runner()).run(ev);
    expect(seen(d, 'see')).toEqual({ a: 1 });
    expect(existsSync(metadataDir(env)) ? readdirSync(metadataDir(env)) : []).toEqual([]);
  });

  it('a hostile session id names a file inside the metadata folder, never a path it spells', async () => {
    const { dir, env, runner } = session({ hooks: { preToolUse: [{ id: 'a', command: nodeAdds('a', 1) }] } });
    for (const id of ['../../../../escaped', `${dir}/planted`, '..', '/', 'a\u0000b', 'x'.repeat(10_000)]) {
      await (await runner()).run({ ...bash('ls'), payload: { ...bash('ls').payload, session_id: id } });
    }
    expect(existsSync(path.join(dir, 'planted'))).toBe(false);
    expect(existsSync(path.join(env.XDG_STATE_HOME!, 'escaped'))).toBe(false);
    for (const name of readdirSync(metadataDir(env))) expect(name).toMatch(/^[0-9a-f]{64}\.json$/);
  });

  it('runs with a memory store never touch the disk', async () => {
    const { env, runner } = session({ hooks: { preToolUse: [{ id: 'a', command: nodeAdds('a', 1) }, { id: 'see', command: nodeSees }] } });
    const store = memoryStore();
    await (await runner()).run(bash('ls'), { metadataStore: store });
    const d = await (await runner()).run(bash('ls'), { metadataStore: store });
    expect(seen(d, 'a')).toEqual({ a: 1 });
    expect(existsSync(metadataDir(env))).toBe(false);
  });
});

describe('metadata limits and failures are reported, never silent', () => {
  it('a reply that would take the bag over the cap is the hook’s failure, and no key of it is kept', async () => {
    const { runner } = session({ hooks: { preToolUse: [{ id: 'small', command: nodeAdds('ok', 1) }, { id: 'huge', command: nodeAdds('big', 'x'.repeat(METADATA_LIMITS.maxBytes)) }, { id: 'see', command: nodeSees }] } });
    const d = await (await runner()).run(bash('ls'));
    const huge = d.results.find((r) => r.id === 'huge')!;
    expect(huge.failure?.kind).toBe('output-too-large');
    expect(huge.failure?.message).toContain(`cap of ${METADATA_LIMITS.maxBytes} bytes`);
    expect(d.warnings.join('\n')).toMatch(/hook "huge" failed \(output-too-large: metadata/);
    expect(seen(d, 'see')).toEqual({ ok: 1 });
    expect(d.decision).toBe('continue');
  });

  it('with onFailure: block, an over-cap reply blocks', async () => {
    const { runner } = session({ hooks: { preToolUse: [{ id: 'huge', command: nodeAdds('big', 'x'.repeat(METADATA_LIMITS.maxBytes)), onFailure: 'block' }] } });
    const d = await (await runner()).run(bash('ls'));
    expect(d.decision).toBe('block');
    expect(d.reason).toContain('metadata');
  });

  it('metadata that is not an object is an invalid-json failure', async () => {
    const { runner } = session({ hooks: { preToolUse: [{ id: 'bad', command: `echo '{"metadata": [1,2]}'` }] } });
    const d = await (await runner()).run(bash('ls'));
    expect(d.results[0]!.failure?.kind).toBe('invalid-json');
    expect(d.results[0]!.failure?.message).toContain('"metadata" must be an object');
  });

  it('a corrupt session file is a warning; the run goes on and the guards still block', async () => {
    const { env, runner } = session({ hooks: { preToolUse: [{ builtin: 'command-safety' }, { id: 'see', command: nodeSees }] } });
    const file = sessionFile(metadataDir(env), 'test-session');
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, '{"v":1,"sessionId":"test-session","metadata":{"a":', { mode: 0o600 });
    const blocked = await (await runner()).run(bash('rm -rf /'));
    expect(blocked.decision).toBe('block');
    expect(blocked.warnings.join('\n')).toContain(`metadata file ${file} ignored: not JSON`);
    const fine = await (await runner()).run(bash('ls'));
    expect(seen(fine, 'see')).toBeNull();
  });

  it('a symlink planted at the session file is neither read nor written through', async () => {
    const { dir, env, runner } = session({ hooks: { preToolUse: [{ id: 'a', command: nodeAdds('a', 1) }, { id: 'see', command: nodeSees }] } });
    const target = path.join(dir, 'target.json');
    writeFileSync(target, JSON.stringify({ v: 1, sessionId: 'test-session', metadata: { planted: true } }));
    const file = sessionFile(metadataDir(env), 'test-session');
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    symlinkSync(target, file);
    const d = await (await runner()).run(bash('ls'));
    expect(d.warnings.join('\n')).toContain('symbolic link');
    expect(seen(d, 'a')).toBeNull();
    expect(JSON.parse(readFileSync(target, 'utf8')).metadata).toEqual({ planted: true });
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
  });
});

describe('odd things at the session file never hang or stop a run', () => {
  it('a FIFO is not opened for a blocking read; a folder is not written through; both are said', async () => {
    const { env, runner } = session({ hooks: { preToolUse: [{ builtin: 'command-safety' }, { id: 'a', command: nodeAdds('a', 1) }] } });
    const file = sessionFile(metadataDir(env), 'test-session');
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    spawnSync('mkfifo', [file]);
    const fifo = await (await runner()).run(bash('ls'));
    expect(fifo.warnings.join('\n')).toContain('not a regular file');
    expect((await (await runner()).run(bash('rm -rf /'))).decision).toBe('block');
    rmSync(file);
    mkdirSync(file);
    const folder = await (await runner()).run(bash('ls'));
    expect(folder.warnings.join('\n')).toMatch(/not a regular file[\s\S]*metadata not saved/);
    expect(folder.decision).toBe('continue');
  });
});

describe('concurrent events of one session', () => {
  it('eight `hooks run` processes at once each keep their key, and the file stays whole', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'mark', command: `node -e 'console.log(JSON.stringify({metadata: {[process.env.KEY]: true}}))'` }] } }) });
    const env = isolatedEnv(dir);
    const payload = JSON.stringify({ ...bash('ls').payload, session_id: 'busy', cwd: dir, hook_event_name: 'PreToolUse' });
    const { spawn } = await import('node:child_process');
    const bin = path.resolve('bin/hooks.js');
    const codes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, [bin, 'run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: dir, env: { ...env, KEY: `k${i}` }, stdio: ['pipe', 'ignore', 'ignore'] });
          child.on('close', resolve);
          child.stdin.end(payload);
        }),
      ),
    );
    expect(codes).toEqual(Array(8).fill(0));
    const stored = JSON.parse(readFileSync(sessionFile(metadataDir(env), 'busy'), 'utf8'));
    expect(Object.keys(stored.metadata).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `k${i}`).sort());
    expect(readdirSync(metadataDir(env)).filter((n) => !n.endsWith('.json'))).toEqual([]);
  }, 60_000);

  it('the CLI passes the bag between two hooks run calls of one session', () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({
        hooks: {
          userPromptSubmit: [{ id: 'classify-prompt', command: `python3 ${JSON.stringify(path.join(EXAMPLES, 'classify-prompt.py'))}` }],
          preToolUse: [{ id: 'think-level', command: `node ${JSON.stringify(path.join(EXAMPLES, 'think-level.mjs'))}`, match: 'edit' }],
        },
      }),
    });
    const env = isolatedEnv(dir);
    const first = runCli(['run', 'user-prompt-submit'], { cwd: dir, env, input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'cli-s', cwd: dir, prompt: 'what does this do?' }) });
    expect(first.code).toBe(0);
    const second = runCli(['run', 'pre-tool-use'], { cwd: dir, env, input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'cli-s', cwd: dir, tool_name: 'Edit', tool_input: { file_path: path.join(dir, 'a'), old_string: 'a', new_string: 'b' } }) });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
  });
});
