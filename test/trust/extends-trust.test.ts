// `hooks trust` with extends: the review fetches a pinned git source (a bare repository made here), shows
// each extended file and its hooks, and says which one changed since trusted; `list`, `explain` and the
// audit log name how a hook came in. In-process CLI (no spawn).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, sample, tmpProject } from '../helpers.js';
import { bareRepo } from '../config/git-repo.js';

const json = (v: unknown) => JSON.stringify(v);

describe('hooks trust with extends', () => {
  it('fetches the pinned source, shows what each extended file runs, trusts them; list, explain and the audit log say how the hooks came', async () => {
    const repo = bareRepo({ '.hooksrc.json': json({ hooks: { preToolUse: [{ id: 'team-guard', command: 'true' }] } }) });
    const spec = `${repo.url}#${repo.commit}`;
    const dir = tmpProject({
      '.git/HEAD': '',
      '.hooksrc.json': json({ extends: [spec, './local-policy.json'], hooks: { preToolUse: [{ builtin: 'audit-log', options: { path: 'audit.jsonl' } }] } }),
      'local-policy.json': json({ hooks: { preToolUse: [{ id: 'local-guard', command: 'true' }] } }),
    });
    const env = isolatedEnv(dir, {}, { trust: false });

    const review = await cliInProcess(['trust', '--yes'], { cwd: dir, env });
    expect(review.code).toBe(0);
    expect(review.stdout).toContain(`extends ${JSON.stringify(spec)}`);
    expect(review.stdout).toMatch(/runs sh -c "true"\s+\(id team-guard\)/);
    expect(review.stdout).toContain('extends "./local-policy.json"');
    expect(review.stdout).toMatch(/trusted .*\.hooksrc\.json/);

    const list = await cliInProcess(['list', '--json'], { cwd: dir, env });
    const hooks = (JSON.parse(list.stdout) as { hooks: { id: string; source: { via?: { extends: string }[] } }[] }).hooks;
    expect(hooks.map((h) => [h.id, h.source.via?.map((v) => v.extends)])).toEqual([
      ['team-guard', [spec]],
      ['local-guard', ['./local-policy.json']],
      ['audit-log', undefined],
    ]);
    const text = await cliInProcess(['list'], { cwd: dir, env });
    expect(text.stdout).toContain(`via .hooksrc.json extends ${JSON.stringify(spec)}`);

    const input = JSON.stringify({ ...sample('pre-tool-use.ls'), cwd: dir });
    const explained = await cliInProcess(['explain', '--json'], { cwd: dir, env, input });
    expect(explained.stdout).toContain(`"extends": ${JSON.stringify(spec)}`);
    const explainedText = await cliInProcess(['explain'], { cwd: dir, env, input });
    expect(explainedText.stdout).toContain('via .hooksrc.json extends "./local-policy.json"');
    const records = readFileSync(path.join(dir, 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; hook?: string; source?: { via?: unknown[] } });
    expect(records.find((r) => r.kind === 'hook' && r.hook === 'team-guard')?.source?.via).toEqual([{ file: path.join(dir, '.hooksrc.json'), extends: spec }]);

    // The agent edits the extended file: the review says which one changed.
    writeFileSync(path.join(dir, 'local-policy.json'), json({ hooks: { preToolUse: [{ id: 'local-guard', command: 'false' }] } }));
    const again = await cliInProcess(['trust'], { cwd: dir, env });
    expect(again.stdout).toMatch(/extends "\.\/local-policy\.json".*\(changed since trusted\)/);
    expect(again.stdout).toMatch(/extends ".*".*\(as trusted\)/);
  });
});

// A fetch runs git with the user's credentials and ssh keys on URLs the reviewed repository chose: asked first.
describe('hooks trust asks before it fetches', () => {
  const project = () => {
    const repo = bareRepo({ '.hooksrc.json': json({ hooks: { preToolUse: [{ id: 'team-guard', command: 'true' }] } }) });
    const spec = `${repo.url}#${repo.commit}`;
    const dir = tmpProject({ '.git/HEAD': '', '.hooksrc.json': json({ extends: spec, hooks: { preToolUse: [{ id: 'own', command: 'true' }] } }) });
    const env = isolatedEnv(dir, {}, { trust: false });
    return { dir, env, source: `${repo.url.replace(/^git\+/, '')}#${repo.commit}`, cache: path.join(env.XDG_CACHE_HOME!, 'agent-hooks', 'extends') };
  };
  /** The project's hooks that run (list --json also names the built-in defaults). */
  const ids = async (dir: string, env: NodeJS.ProcessEnv) =>
    (JSON.parse((await cliInProcess(['list', '--json'], { cwd: dir, env })).stdout) as { hooks: { id: string; source: { layer: string } }[] }).hooks.filter((h) => h.source.layer === 'project').map((h) => h.id);

  it('not a terminal and no --yes: the source is named, nothing is fetched, nothing trusted', async () => {
    const { dir, env, source, cache } = project();
    const r = await cliInProcess(['trust'], { cwd: dir, env });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain(`a git source extended here is not fetched yet:\n  ${source}`);
    expect(r.stdout).toContain('not fetched: their hooks do not run');
    expect(existsSync(cache) && readdirSync(cache).length > 0).toBe(false);
    expect(await ids(dir, env)).toEqual([]);
  });

  it('on a terminal, "no" to the fetch: the project can be trusted without it, and the source runs only once fetched and reviewed', async () => {
    const { dir, env, cache } = project();
    const r = await cliInProcess(['trust'], { cwd: dir, env, answers: ['n', 'y'] });
    expect(r.questions![0]).toMatch(/^Fetch it now \(git, over the network\), to review what it adds\? \[y\/N\] $/);
    expect(r.code, r.stdout).toBe(0);
    expect(existsSync(cache) && readdirSync(cache).length > 0).toBe(false);
    expect(await ids(dir, env)).toEqual(['own']);
    // Each run says so, and names the review (which asks) as the way to fetch it, not a command that fetches unasked.
    const run = await cliInProcess(['run', 'pre-tool-use'], { cwd: dir, env, input: JSON.stringify({ ...sample('pre-tool-use.ls'), cwd: dir }) });
    expect(run.stderr).toMatch(/is not fetched yet, so its hooks do not run; review the project \(it asks before it fetches\): npx agent-hooks trust;/);
    // Fetched later: what it adds was never reviewed, so the project is untrusted until it is.
    const fetched = await cliInProcess(['trust', '--fetch'], { cwd: dir, env });
    expect(fetched.stdout).toMatch(/runs sh -c "true"\s+\(id team-guard\)/);
    expect(await ids(dir, env)).toEqual([]);
    expect((await cliInProcess(['trust', '--yes'], { cwd: dir, env })).code).toBe(0);
    expect(await ids(dir, env)).toEqual(['team-guard', 'own']);
  });

  it('on a terminal, "yes": fetched, and the review shows what it runs', async () => {
    const { dir, env } = project();
    const r = await cliInProcess(['trust'], { cwd: dir, env, answers: ['y', 'y'] });
    expect(r.questions!).toHaveLength(2);
    expect(r.stdout).toMatch(/runs sh -c "true"\s+\(id team-guard\)/);
    expect(r.code).toBe(0);
    expect(await ids(dir, env)).toEqual(['team-guard', 'own']);
  });

  it('what a fetched source extends in turn is asked about in a second round, by its own URL', async () => {
    const inner = bareRepo({ '.hooksrc.json': json({ hooks: { preToolUse: [{ id: 'inner-guard', command: 'true' }] } }) });
    const outer = bareRepo({ '.hooksrc.json': json({ extends: `${inner.url}#${inner.commit}`, hooks: { preToolUse: [{ id: 'outer-guard', command: 'true' }] } }) });
    const dir = tmpProject({ '.git/HEAD': '', '.hooksrc.json': json({ extends: `${outer.url}#${outer.commit}` }) });
    const env = isolatedEnv(dir, {}, { trust: false });
    const r = await cliInProcess(['trust'], { cwd: dir, env, answers: ['y', 'n', 'y'] });
    expect(r.questions!.map((q) => q.slice(0, 9))).toEqual(['Fetch it ', 'Fetch it ', 'Trust thi']);
    const listed = [...r.stdout.matchAll(/is not fetched yet:\n {2}(\S+)/g)].map((m) => m[1]);
    expect(listed).toEqual([`${outer.url.replace(/^git\+/, '')}#${outer.commit}`, `${inner.url.replace(/^git\+/, '')}#${inner.commit}`]);
    expect(r.code, r.stdout).toBe(0);
    expect(await ids(dir, env)).toEqual(['outer-guard']);
  });

  it('a source that cannot be fetched is said once, in one line, and not tried again; the review goes on', async () => {
    const repo = bareRepo({ '.hooksrc.json': json({ hooks: {} }) });
    const missing = `${repo.url}#${'0'.repeat(40)}`;
    const dir = tmpProject({ '.git/HEAD': '', '.hooksrc.json': json({ extends: missing, hooks: { preToolUse: [{ id: 'own', command: 'true' }] } }), '.hooksrc.local.json': json({ extends: missing }) });
    const env = isolatedEnv(dir, {}, { trust: false });
    const r = await cliInProcess(['trust'], { cwd: dir, env, answers: ['y', 'y'] });
    expect(r.questions!.map((q) => q.slice(0, 9))).toEqual(['Fetch it ', 'Trust the']);
    expect(r.stdout.match(/^not fetched .*$/gm)).toHaveLength(1);
    expect(r.code, r.stdout).toBe(0);
    expect(await ids(dir, env)).toEqual(['own']);
  });
});
