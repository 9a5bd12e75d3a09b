// hooks list, doctor, init, schema and --help: on real files. In-process (cliInProcess: the same argv, cwd,
// env and exit code); the built bin as a real process for doctor's exit 1 and the top-level --help.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, ROOT, runCli, tmpProject } from '../helpers.js';

const cli = cliInProcess;

describe('hooks list', () => {
  it('shows the merged layers per event in run order, with provenance', async () => {
    const home = tmpProject({
      '.config/agent-hooks/config.json': JSON.stringify({ hooks: { preToolUse: [{ id: 'mine', command: 'true', priority: 5 }] } }),
      'p/.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ builtin: 'command-safety', options: { audit: true } }, { id: 'fmt', command: 'node', args: ['fmt.mjs', 'a b'], match: 'exec' }] } }),
    });
    const cwd = path.join(home, 'p');
    const r = await cli(['list'], { cwd, env: isolatedEnv(home, {}, { trust: cwd }) });
    expect(r.code).toBe(0);
    const text = r.stdout;
    expect(text).toMatch(/user .*config\.json  trusted \(user layer\)\nproject \.hooksrc\.json  trusted\n/);
    // The project's hooks first: the user's hook (whatever the priorities) judges what they leave.
    expect(text).toMatch(/preToolUse\n  1\. command-safety  builtin command-safety \(audit mode\)\n\s+match exec/);
    expect(text).toMatch(/2\. fmt  node fmt\.mjs "a b"/);
    expect(text).toMatch(/3\. mine  true\n.*priority 5 .* user .* hooks\.preToolUse\[0\]/);
    const json = JSON.parse((await cli(['list', '--json'], { cwd, env: isolatedEnv(home, {}, { trust: cwd }) })).stdout);
    expect(json.hooks.map((h: { id: string; source: { layer: string } }) => [h.id, h.source.layer])).toEqual([['command-safety', 'project'], ['fmt', 'project'], ['mine', 'user']]);
  });
});

describe('hooks doctor', () => {
  it('finds missing and non-executable commands, dead if fields, duplicate ids and long chains; exit 1 on errors (the built bin)', () => {
    const dir = tmpProject({
      'guards/not-exec.sh': '#!/bin/sh\nexit 0\n',
      'guards/ok.sh': '#!/bin/sh\nexit 0\n',
      '.hooksrc.json': JSON.stringify({
        // Command hooks wait 600 s by default (as in Claude Code): four in a row would be a long chain too.
        defaults: { timeout: 10 },
        hooks: {
          preToolUse: [
            { id: 'typo', command: './guards/no-such.sh' },
            { id: 'noexec', command: './guards/not-exec.sh' },
            { id: 'ok', command: './guards/ok.sh', match: 'exec', if: { command: 'git*' } },
            { id: 'ok', command: 'python3 guards/missing.py' },
          ],
          userPromptSubmit: [{ command: 'true', timeout: 20 }, { command: 'true', timeout: 20 }],
        },
      }),
    });
    chmodSync(path.join(dir, 'guards/ok.sh'), 0o755);
    const r = runCli(['doctor'], { cwd: dir, env: isolatedEnv(dir) });
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    const findings = lines.filter((l) => /^(error|warning)/.test(l));
    expect(findings).toHaveLength(5);
    expect(r.stdout).toMatch(/error +\S+ hooks\.preToolUse\[0\] \(typo\): \.\/guards\/no-such\.sh does not exist/);
    expect(r.stdout).toMatch(/error +\S+ hooks\.preToolUse\[1\] \(noexec\): \.\/guards\/not-exec\.sh is not executable — fix: chmod \+x/);
    expect(r.stdout).toMatch(/error +\S+ hooks\.preToolUse\[3\] \(ok\): python3 guards\/missing\.py: guards\/missing\.py does not exist/);
    expect(r.stdout).toMatch(/warning \S+ hooks\.preToolUse\[3\] \(ok\): id "ok" is also used/);
    expect(r.stdout).toMatch(/warning userPromptSubmit: hooks may take up to 40.5 s .* Claude Code waits 30 s/);
    expect(lines.at(-1)).toBe('3 errors, 2 warnings');
  });

  it('reports every config error, one line each, with exit 1', async () => {
    const dir = tmpProject({ '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ command: 'a', timeout: 'x' }, { command: 'b', timout: 1 }] } }) });
    const r = await cli(['doctor', '--json'], { cwd: dir, env: isolatedEnv(dir) });
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.errors).toBe(2);
    expect(json.findings.map((f: { message: string }) => f.message)).toEqual([
      expect.stringContaining('hooks.preToolUse[0].timeout: expected number'),
      expect.stringContaining('hooks.preToolUse[1].timout: unknown key (did you mean "timeout"?)'),
    ]);
    expect(json.findings.every((f: { message: string }) => !f.message.includes('\n'))).toBe(true);
  });

  it('is happy with the bundled example config', async () => {
    const r = await cli(['doctor', '--config', '.hooksrc.example.json'], { cwd: ROOT, env: isolatedEnv(tmpProject()) });
    expect(r.stdout.trim().split('\n').at(-1)).toBe('no problems found');
    expect(r.code).toBe(0);
  });
});

describe('hooks init', () => {
  it('writes a starter config with $schema and a working guard; never overwrites without --force', async () => {
    const dir = tmpProject();
    const env = isolatedEnv(dir);
    expect((await cli(['init'], { cwd: dir, env })).code).toBe(0);
    const config = JSON.parse(readFileSync(path.join(dir, '.hooksrc.json'), 'utf8'));
    expect(existsSync(path.resolve(dir, config.$schema))).toBe(true);
    const push = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push --force origin main' } });
    expect((await cli(['run'], { cwd: dir, env, input: push })).code).toBe(2);
    const lease = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push --force-with-lease' } });
    expect((await cli(['run'], { cwd: dir, env, input: lease })).code).toBe(0);
    expect((await cli(['doctor'], { cwd: dir, env })).code).toBe(0);

    writeFileSync(path.join(dir, '.hooksrc.json'), '{"hooks":{}}');
    const again = await cli(['init'], { cwd: dir, env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists; nothing written (use --force to overwrite)');
    expect(readFileSync(path.join(dir, '.hooksrc.json'), 'utf8')).toBe('{"hooks":{}}');
    expect((await cli(['init', '--force'], { cwd: dir, env })).code).toBe(0);
    expect(readFileSync(path.join(dir, '.hooksrc.json'), 'utf8')).toContain('command-safety');
  });
});

describe('help', () => {
  it('hooks --help lists every command (the built bin); each command has its own --help', async () => {
    const r = runCli(['--help']);
    expect(r.code).toBe(0);
    for (const name of ['run', 'explain', 'list', 'doctor', 'init', 'schema', 'guard', 'test', 'sample', 'install', 'uninstall']) {
      expect(r.stdout).toMatch(new RegExp(`^  hooks ${name} +\\S`, 'm'));
      const help = await cli([name, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: hooks /);
    }
    expect((await cli(['help', 'run'])).stdout).toMatch(/^Usage: hooks run/);
  });

  it('unknown commands and options get one line with a suggestion', async () => {
    expect((await cli(['explian'])).stderr).toBe('agent-hooks: unknown command "explian" (did you mean "explain"?); run "npx agent-hooks --help"\n');
    expect((await cli(['list', '--jsn'])).stderr).toBe('agent-hooks: unknown option --jsn (did you mean "--json"?)\n');
  });

  it('hooks schema prints the shipped JSON Schema', async () => {
    expect(JSON.parse((await cli(['schema'])).stdout)).toEqual(JSON.parse(readFileSync(path.join(ROOT, 'schema', 'hooks.schema.json'), 'utf8')));
  });
});
