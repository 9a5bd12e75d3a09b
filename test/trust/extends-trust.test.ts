// `hooks trust` with extends: the review fetches a pinned git source (a bare repository made here), shows
// each extended file and its hooks, and says which one changed since trusted; `list`, `explain` and the
// audit log name how a hook came in. In-process CLI (no spawn).
import { readFileSync, writeFileSync } from 'node:fs';
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
