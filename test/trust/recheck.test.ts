// A runner kept for many events re-checks the files trust covers before each one: `hooks serve` (its
// runner per project is kept while the config files stay as they were) and a library user's runner.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner } from '../../src/engine.js';
import { resolveCached } from '../../src/config/cache.js';
import type { ConfigLayer } from '../../src/config/load.js';
import { bash, isolatedEnv, tmpProject, trustProject } from '../helpers.js';
import { claudeBash, RUN, serversClosedAfterEach, unframe } from '../serve/kit.js';

const started = serversClosedAfterEach();

/** A guard script that blocks `rm` and writes `marker` each time it runs. */
const guard = (marker: string, verdict: 'block' | 'allow') =>
  `import json, sys\nopen(${JSON.stringify(marker)}, 'a').write('x')\n${verdict === 'block' ? `print(json.dumps({"decision": "block", "reason": "guard.py says no"}))` : 'print("{}")'}\n`;

describe('hooks serve', () => {
  it('a trusted hook\'s script edited after the server loaded the config does not run at the next event; the agent is told', async () => {
    const s = await started();
    const project = tmpProject({ '.git/HEAD': '', '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ command: 'python3 guard.py' }] } }), 'guard.py': guard('ran', 'block') });
    trustProject(project, s.env);
    // Past the server's "changed within the last second" window, so that only the re-check can see the edit.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const first = unframe((await s.unix(`${RUN}&client=1`, claudeBash('ls', project))).body);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain('guard.py says no');

    // The agent rewrites the guard to let everything through, and to leave a trace if it ever runs.
    writeFileSync(path.join(project, 'guard.py'), guard('pwned', 'allow'));
    const after = unframe((await s.unix(`${RUN}&client=1`, claudeBash('ls', project))).body);
    expect(existsSync(path.join(project, 'pwned'))).toBe(false);
    expect(after.stdout).toContain('is no longer trusted: guard.py changed since \\"npx agent-hooks trust\\"');
    // Ran once, at the first event only.
    expect(readFileSync(path.join(project, 'ran'), 'utf8')).toBe('x');
  });
});

describe('createRunner', () => {
  it('reloads before an event when a covered file changed, and again when it is back as trusted', async () => {
    const home = tmpProject();
    const project = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ command: 'python3 guard.py' }] } }), 'guard.py': guard('ran', 'block') });
    const env = isolatedEnv(home, {}, { trust: project });
    const runner = await createRunner({ cwd: project, env });
    expect((await runner.run(bash('ls'))).decision).toBe('block');

    const original = readFileSync(path.join(project, 'guard.py'), 'utf8');
    writeFileSync(path.join(project, 'guard.py'), guard('pwned', 'allow'));
    const changed = await runner.run(bash('ls'));
    expect(changed.decision).not.toBe('block');
    expect(existsSync(path.join(project, 'pwned'))).toBe(false);
    expect(changed.warnings.join('\n')).toContain('guard.py changed since "npx agent-hooks trust"');
    expect(runner.config.layers.find((l) => l.layer === 'project')?.trust).toBe('untrusted');

    writeFileSync(path.join(project, 'guard.py'), original);
    expect((await runner.run(bash('ls'))).decision).toBe('block');
  });
});

describe('the config cache key', () => {
  it('includes the covered files\' states: the same bytes with other covers are checked afresh', async () => {
    const home = tmpProject();
    const env = isolatedEnv(home);
    const layer = (command: string, covers: Record<string, string>): ConfigLayer => ({
      layer: 'project',
      file: path.join(home, '.hooksrc.json'),
      dir: home,
      // The same digest for both: only the covers differ (a stand-in for "the same config, another script").
      sha256: 'a'.repeat(64),
      trust: 'trusted',
      config: { hooks: { preToolUse: [{ command }] } },
      covers,
    });
    const first = await resolveCached([layer('echo first', { 'x.py': `sha256:${'1'.repeat(64)}` })], { cwd: home, env });
    expect(first.hooks[0]?.run).toMatchObject({ command: 'echo first' });
    const again = await resolveCached([layer('echo second', { 'x.py': `sha256:${'1'.repeat(64)}` })], { cwd: home, env });
    expect(again.hooks[0]?.run).toMatchObject({ command: 'echo first' }); // the cache at work: same key
    const other = await resolveCached([layer('echo second', { 'x.py': `sha256:${'2'.repeat(64)}` })], { cwd: home, env });
    expect(other.hooks[0]?.run).toMatchObject({ command: 'echo second' });
  });
});
