// hooks doctor says which first-party guards act on which events, and which events have none.
import { describe, expect, it } from 'vitest';
import { guardCoverage } from '../../src/doctor/coverage.js';
import { EVENTS } from '../../src/events/catalog.js';
import { isolatedEnv, runCli, runnerWith, tmpProject } from '../helpers.js';

describe('guard coverage', () => {
  it('with no config anywhere: the built-in defaults, said as such (real CLI)', () => {
    const dir = tmpProject();
    const r = runCli(['doctor'], { cwd: dir, env: isolatedEnv(dir) });
    expect(r.stdout).toContain('guards: no config runs, so the built-in defaults do');
    expect(r.stdout).toContain('guards on preToolUse: command-safety, sensitive-paths\n');
    expect(r.stdout).toContain('guards on postToolUse: redact-secrets\n');
    expect(r.stdout).toMatch(/no guard acts on: stop, subagentStop, preCompact, sessionStart, sessionEnd, notification, postToolUseFailure, permissionRequest, /);
    const json = JSON.parse(runCli(['doctor', '--json'], { cwd: dir, env: isolatedEnv(dir) }).stdout);
    expect(json.coverage.find((c: { event: string }) => c.event === 'preToolUse').guards).toEqual([
      { id: 'command-safety', guard: 'command-safety', layer: 'defaults' },
      { id: 'sensitive-paths', guard: 'sensitive-paths', layer: 'defaults' },
    ]);
  });

  it('an untrusted project config does not count: the defaults still guard, and doctor says so', () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ command: 'true' }] } }) });
    const r = runCli(['doctor'], { cwd: dir, env: isolatedEnv(dir, {}, { trust: false }) });
    expect(r.stdout).toContain('guards on preToolUse: command-safety, sensitive-paths');
  });

  it('a config that runs decides: audit-mode and disabled guards do not count, other hooks are counted', () => {
    const dir = tmpProject({
      '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ builtin: 'command-safety', audit: true }, { builtin: 'sensitive-paths', enabled: false }, { command: 'true' }], stop: [{ command: 'true' }] } }),
    });
    const r = runCli(['doctor'], { cwd: dir, env: isolatedEnv(dir) });
    expect(r.stdout).toContain('guards on preToolUse: command-safety (audit mode: reports, never acts), sensitive-paths (disabled); and 1 other hook');
    expect(r.stdout).toMatch(/no guard acts on: preToolUse \(1 other hook\), postToolUse, userPromptSubmit, stop \(1 other hook\), /);
    expect(r.stdout).toContain('the built-in defaults do not; to keep them on preToolUse, postToolUse, userPromptSubmit');
    expect(r.code).toBe(0);
  });

  it('a guard under "*" is counted on every event it acts on', async () => {
    const runner = await runnerWith({ hooks: { '*': [{ builtin: 'audit-log', options: { path: 'a.jsonl' } }, { builtin: 'command-safety' }] } });
    const coverage = guardCoverage(runner.config);
    expect(coverage.map((c) => c.event)).toEqual(EVENTS.map((e) => e.name));
    for (const c of coverage) expect(c.guards.map((g) => g.guard)).toContain('audit-log');
    expect(coverage.filter((c) => c.guards.some((g) => g.guard === 'command-safety')).map((c) => c.event)).toEqual(['preToolUse']);
  });
});
