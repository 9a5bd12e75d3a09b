// Claude Code 2.1.332's PreSkillShellCommand, for real (issue 24 item 1): a skill's `!`shell`` command is
// guarded by a hook that exits 2. Natively (the hook in .claude/settings.json) and through agent-hooks
// (`hooks run pre-skill-shell-command --dialect claude-code`), the command does not run and the hook's
// reason reaches the model. The native run is the oracle: agent-hooks must do what Claude Code does.
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeEnv, hooksConfig } from './harness/agents.js';
import { everything } from './harness/anthropic.js';
import { installAgent } from './harness/install-agent.js';
import { startModelServer, type ModelServer } from './harness/model-server.js';
import { run } from './harness/process.js';
import { cleanUpAfterAll, hooksRun, makeWorkspace } from './harness/workspace.js';

/** A skill whose content runs a shell command when it is invoked; the marker proves whether it ran. */
const SKILL = `---
name: when
description: Tells the time
allowed-tools: Bash(touch:*), Bash(date:*)
---
The time: !\`touch skill-ran.marker && date\`
`;

const REASON = 'skill shell commands are refused here';
const GUARD = `cat >/dev/null; echo "${REASON}" >&2; exit 2`;

let claude: string;
const servers: ModelServer[] = [];

beforeAll(async () => {
  claude = await installAgent('claude');
});

cleanUpAfterAll(servers);

async function invokeSkill(label: string, settingsHook: string, config: object) {
  const ws = makeWorkspace(`claude-skill-${label}`);
  const settings = { hooks: { PreSkillShellCommand: [{ matcher: 'Bash', hooks: [{ type: 'command', command: settingsHook, timeout: 30 }] }] } };
  ws.write({ '.claude/settings.json': settings, '.claude/skills/when/SKILL.md': SKILL, '.hooksrc.json': config }, { trust: true });
  const model = await startModelServer('anthropic', [{ text: 'done' }], ws.root);
  servers.push(model);
  const result = await run(claude, ['-p', '/when', '--output-format', 'json', '--allowedTools', 'Bash'], { cwd: ws.dir, timeoutMs: 90_000, env: ws.env(claudeEnv(model.url)) });
  model.stop();
  expect(result.timedOut, `claude timed out\n${result.stderr}`).toBe(false);
  const sent = model.requests().map(everything).join('\n');
  return { ws, result, sent, describe: () => `exit ${result.code}\nstdout: ${result.stdout.slice(0, 1500)}\nstderr: ${result.stderr.slice(0, 1500)}\nsent: ${sent.slice(0, 3000)}` };
}

describe('Claude Code PreSkillShellCommand (real CLI)', () => {
  it('without a guard the skill command runs (the control)', async () => {
    const r = await invokeSkill('control', 'cat >/dev/null; exit 0', hooksConfig());
    expect(r.ws.exists('skill-ran.marker'), r.describe()).toBe(true);
  });

  it('natively: exit 2 stops the command, and the reason reaches the model', async () => {
    const r = await invokeSkill('native', GUARD, hooksConfig());
    expect(r.ws.exists('skill-ran.marker'), r.describe()).toBe(false);
    expect(r.sent, r.describe()).toContain(REASON);
  });

  it('through agent-hooks: the same', async () => {
    const r = await invokeSkill('runner', hooksRun('pre-skill-shell-command', 'claude-code'), hooksConfig({ preSkillShellCommand: [{ id: 'no-skill-shell', match: 'Bash', command: GUARD }] }));
    expect(r.ws.exists('skill-ran.marker'), r.describe()).toBe(false);
    expect(r.sent, r.describe()).toContain(REASON);
  });

});
