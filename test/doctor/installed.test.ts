// `hooks doctor` on the agents' installed entries: each must resolve, start and answer as the agent
// runs it; a stale path, a machine's absolute path in a committed file, and guards that would fail
// open are reported. Real files, real processes (the entries are run with `--version`).
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findInstalled } from '../../src/doctor/installed.js';
import { tmpProject } from '../helpers.js';
import { BIN, dependentProject, hooks, testEnv } from '../install/kit.js';

interface Finding {
  level: string;
  where: string;
  message: string;
  fix: string;
}

async function doctor(dir: string, home: string): Promise<Finding[]> {
  const r = await hooks(['doctor', '--json'], dir, home);
  return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
}

const fixed = tmpProject({ '.claude/settings.json': '', '.opencode/plugin/agent-hooks.js': '' });
const fixedHome = tmpProject();

const about = (findings: Finding[], file: string) => findings.filter((f) => f.where.startsWith(file));

describe('doctor checks the installed entries', () => {
  it('a working project install answers; only the fail-open warning remains, and --fail-closed clears it', async () => {
    const dir = dependentProject();
    const home = tmpProject();
    await hooks(['install', 'claude-code'], dir, home);
    const findings = about(await doctor(dir, home), '.claude/settings.json');
    expect(findings).toEqual([
      {
        level: 'warning',
        where: '.claude/settings.json (claude-code project)',
        message: 'guards fail open: if the runner errors or is missing, a missing or failing runner lets the call go on (a notice in the transcript)',
        fix: 'npx agent-hooks install claude-code --fail-closed (onFailure "block": a missing, crashing or timed-out runner blocks PreToolUse and UserPromptSubmit)',
      },
    ]);
    await hooks(['install', 'claude-code', '--fail-closed'], dir, home);
    expect(about(await doctor(dir, home), '.claude/settings.json')).toEqual([]);
  });

  it('every agent installed in a working project: no error, no machine path; the shared copy is started once', async () => {
    const dir = dependentProject();
    const home = tmpProject();
    for (const agent of ['claude-code', 'gemini', 'codex', 'cursor', 'copilot', 'opencode', 'cline', 'goose', 'pi', 'omp']) await hooks(['install', agent, '--fail-closed'], dir, home);
    const findings = await doctor(dir, home);
    expect(findings.filter((f) => /\((claude-code|gemini|codex|cursor|copilot|opencode|cline|goose|pi|omp) project\)$/.test(f.where))).toEqual([]);
  });

  it('a clone before `npm ci` (no node_modules): the entries do not resolve, an error, with the fix', async () => {
    const dir = dependentProject();
    const home = tmpProject();
    for (const agent of ['claude-code', 'gemini', 'codex', 'cursor', 'copilot', 'opencode']) await hooks(['install', agent, '--fail-closed'], dir, home);
    rmSync(path.join(dir, 'node_modules'), { recursive: true });
    const r = await hooks(['doctor'], dir, home);
    expect(r.code).toBe(1);
    const findings = await doctor(dir, home);
    const errors = findings.filter((f) => f.level === 'error');
    expect(errors.map((f) => f.where).sort()).toEqual(
      [
        '.claude/settings.json (claude-code project)',
        '.codex/hooks.json (codex project)',
        '.cursor/hooks.json (cursor project)',
        '.gemini/settings.json (gemini project)',
        '.github/hooks/agent-hooks.json (copilot project)',
        '.opencode/plugin/agent-hooks.js (opencode project)',
      ].sort(),
    );
    for (const e of errors) {
      expect(e.message).toMatch(/which (does not resolve \(stale path: .*\)|could not be started .*): the agent proceeds with every guard off$/);
      expect(e.fix).toMatch(/^install the project's dependencies \(npm ci\)/);
    }
  });

  it('a machine\'s absolute path in a committed project file: a warning, and an error when it is gone', async () => {
    const dir = tmpProject({
      '.claude/settings.json': JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '/home/someone-else/agent-hooks/bin/hooks.js run pre-tool-use --dialect claude-code # agent-hooks' }] }] } }),
    });
    // (The events this hand-written file does not register are test/doctor/registered.test.ts's.)
    const findings = about(await doctor(dir, tmpProject()), '.claude/settings.json').filter((f) => !f.message.includes('the installed entries'));
    expect(findings.map((f) => f.level)).toEqual(['warning', 'error', 'warning']);
    expect(findings[0]!.message).toBe("the entries run /home/someone-else/agent-hooks/bin/hooks.js, an absolute path of one machine, in a file teams commit: in a teammate's clone it does not exist and every guard is off");
    expect(findings[2]!.message).toMatch(/^guards fail open/);
    expect(findings[1]!.message).toContain('does not resolve (stale path:');
  });

  it('a user install whose global copy moved away is a stale path', async () => {
    const home = tmpProject();
    const moved = path.join(tmpProject(), 'lib', 'node_modules', 'agent-hooks', 'bin', 'hooks.js');
    mkdirSync(path.join(home, '.gemini'), { recursive: true });
    writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: `${moved} run pre-tool-use --dialect gemini --on-error block # agent-hooks` }] }] } }));
    const findings = about(await doctor(tmpProject(), home), '~/.gemini/settings.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ level: 'error', where: '~/.gemini/settings.json (gemini user)', fix: 'install agent-hooks globally (npm i -g agent-hooks) and run npx agent-hooks install gemini --user' });
    expect(findings[0]!.message).toMatch(new RegExp(`^the entries run ${moved.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, which does not resolve`));
  });

  it('doctor never runs the repository\'s code: an impostor bin in the project is checked, not run', async () => {
    const dir = dependentProject();
    const home = tmpProject();
    await hooks(['install', 'cursor', '--fail-closed'], dir, home);
    const impostor = path.join(dir, 'node_modules', '.bin', 'agent-hooks');
    rmSync(impostor);
    writeFileSync(impostor, `#!/bin/sh\ntouch ${path.join(dir, 'ran.marker')}\necho "Adds pre and post hook functionality"\n`);
    chmodSync(impostor, 0o755);
    const findings = about(await doctor(dir, home), '.cursor/hooks.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toContain(`resolves to ${impostor}, which is not agent-hooks (no agent-hooks package.json above it)`);
    expect(existsSync(path.join(dir, 'ran.marker'))).toBe(false);
  });

  it('a hand-written command ending in the marker is never handed to a shell', async () => {
    const dir = tmpProject({
      '.claude/settings.json': JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'touch pwned.marker; agent-hooks run pre-tool-use --dialect claude-code # agent-hooks' }] }] } }),
    });
    const findings = about(await doctor(dir, tmpProject()), '.claude/settings.json');
    expect(findings.find((f) => f.level === 'error')!.message).toBe(
      'the entries run touch pwned.marker; agent-hooks, which is not a command agent-hooks writes (edited by hand?), so doctor did not run it: the agent proceeds with every guard off',
    );
    expect(existsSync(path.join(dir, 'pwned.marker'))).toBe(false);
  });

  it('a global copy outside the project is run with --version and must answer with a version', async () => {
    const home = tmpProject();
    const global = path.join(tmpProject(), 'bin', 'agent-hooks');
    mkdirSync(path.dirname(global), { recursive: true });
    writeFileSync(global, '#!/bin/sh\necho "Adds pre and post hook functionality"\n');
    chmodSync(global, 0o755);
    mkdirSync(path.join(home, '.cursor'), { recursive: true });
    writeFileSync(path.join(home, '.cursor', 'hooks.json'), JSON.stringify({ version: 1, hooks: { preToolUse: [{ command: `${global} run pre-tool-use --dialect cursor --on-error block # agent-hooks`, failClosed: true }] } }));
    const findings = about(await doctor(tmpProject(), home), '~/.cursor/hooks.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toContain("answered something that is not agent-hooks' version (Adds pre and post hook functionality)");
  });

  it('a project settings file linked out of the project is not read; doctor says so', async () => {
    const home = tmpProject({ 'secret.json': '{"token": "s3cret"}' });
    const dir = tmpProject();
    mkdirSync(path.join(dir, '.claude'));
    symlinkSync(path.join(home, 'secret.json'), path.join(dir, '.claude', 'settings.json'));
    const findings = about(await doctor(dir, home), '.claude/settings.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ level: 'warning', where: '.claude/settings.json (claude-code project)' });
    expect(findings[0]!.message).toMatch(/^not checked: .*resolves to .*secret\.json, outside /);
  });

  it('any settings text (a repository\'s) is read without a crash', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ command: v }] }] } }))), fc.string(), (settings, plugin) => {
        const dir = fixed;
        writeFileSync(path.join(dir, '.claude', 'settings.json'), settings);
        writeFileSync(path.join(dir, '.opencode', 'plugin', 'agent-hooks.js'), `// Generated by agent-hooks ("hooks install opencode"); "hooks uninstall opencode" removes it.\n${plugin}`);
        for (const found of findInstalled({ cwd: dir, home: fixedHome, env: {} })) expect(Array.isArray(found.launchers)).toBe(true);
      }),
      { seed: 20261122, numRuns: 200, interruptAfterTimeLimit: 3_000 },
    );
  });

  it('finds entries in every agent\'s file and reads fail-closed per agent', async () => {
    const dir = dependentProject();
    const home = tmpProject();
    await hooks(['install', 'claude-code', '--fail-closed'], dir, home);
    await hooks(['install', 'codex'], dir, home);
    await hooks(['install', 'opencode', '--fail-closed'], dir, home);
    const found = findInstalled({ cwd: dir, home, env: testEnv(home) });
    expect(found.map((f) => [f.agent, f.scope, f.failClosed, f.launchers])).toEqual([
      ['claude-code', 'project', true, ['"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks']],
      ['codex', 'project', false, ['"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"/node_modules/.bin/agent-hooks']],
      ['opencode', 'project', true, [path.join(dir, 'node_modules', '.bin', 'agent-hooks')]],
    ]);
    expect(BIN).toBeDefined();
  });
});

describe('the Cline plugin', () => {
  it('is found by doctor: its runner is checked (a clone before `npm ci` is an error), and without --fail-closed it warns', async () => {
    const dir = dependentProject();
    const home = tmpProject();
    await hooks(['install', 'cline'], dir, home);
    const where = '.cline/plugins/agent-hooks.js (cline project)';
    // The plugin blocks on a failed, missing or slow runner anyway: only a hook's own error goes through.
    const open = (await doctor(dir, home)).filter((f) => f.where === where);
    expect(open.map((f) => [f.level, f.message])).toEqual([
      ['warning', "a hook's own error does not block: the runner reports it and the call goes on (a runner that fails, is missing or times out blocks the call or prompt all the same)"],
    ]);
    expect(open[0]!.fix).toBe("npx agent-hooks install cline --fail-closed (a hook's own error then blocks the tool call or prompt too)");
    expect(open[0]!.message).not.toMatch(/guards fail open/);
    rmSync(path.join(dir, 'node_modules'), { recursive: true });
    const errors = (await doctor(dir, home)).filter((f) => f.where === where && f.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/node_modules\/\.bin\/agent-hooks, which (does not resolve|could not be started)/);
  });
});

describe('the pi and oh-my-pi extensions', () => {
  it.each(['pi', 'omp'])('%s: found by doctor, its runner checked (a clone before `npm ci` is an error), and without --fail-closed it warns', async (agent) => {
    const dir = dependentProject();
    const home = tmpProject();
    await hooks(['install', agent], dir, home);
    const where = `.${agent}/extensions/agent-hooks.ts (${agent} project)`;
    const open = (await doctor(dir, home)).filter((f) => f.where === where);
    expect(open.map((f) => [f.level, f.message])).toEqual([
      ['warning', "a hook's own error does not block: the runner reports it and the call goes on (a runner that fails, is missing or times out blocks the call or prompt all the same)"],
    ]);
    rmSync(path.join(dir, 'node_modules'), { recursive: true });
    const errors = (await doctor(dir, home)).filter((f) => f.where === where && f.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/node_modules\/\.bin\/agent-hooks, which (does not resolve|could not be started)/);
  });
});
