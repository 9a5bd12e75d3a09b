// Codex CLI for real (`codex exec`), Claude-format hooks in .codex/hooks.json, against a fake OpenAI
// Responses server. The shell tool is `exec_command` with `{cmd}`; hooks see it as Bash `{command}`.
import { expect, it } from 'vitest';
import { AGENT_SPECS } from './harness/agents.js';
import { installAgent } from './harness/install-agent.js';
import { startModelServer } from './harness/model-server.js';
import { run } from './harness/process.js';
import { shellAgentSuite } from './harness/shell-agent-suite.js';
import { makeWorkspace } from './harness/workspace.js';

shellAgentSuite('codex', {
  title: 'Codex CLI (real CLI, --dialect codex)',
  dialect: 'codex',
  shell: (cmd) => ({ tool: { name: 'exec_command', input: { cmd } } }),
  // Codex takes no rewritten tool output: the codex dialect answers PostToolUse with a block whose
  // reason is the redacted output, and Codex hands the reason to the model in place of the output.
  promptBlock: 'blocks',
  extra() {
    // Why the codex dialect sends every rewrite with permissionDecision "allow" (unlike claude-code):
    // a raw hook (no agent-hooks) answering updatedInput alone is marked failed and the original runs.
    it('Codex ignores updatedInput without permissionDecision "allow" (a raw hook, no runner)', async () => {
      const ws = makeWorkspace('codex-updatedinput-alone');
      const model = await startModelServer('responses', [{ tool: { name: 'exec_command', input: { cmd: 'echo original > out.txt' } } }, { text: 'done' }], ws.root);
      try {
        const setup = AGENT_SPECS.codex.setup(ws, model, 'codex', 'clean up');
        const answer = { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'echo rewritten > out.txt' } } };
        ws.write({
          '.codex/hooks.json': { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `cat >/dev/null; echo '${JSON.stringify(answer)}'`, timeout: 30 }] }] } },
        });
        const result = await run(await installAgent('codex'), setup.args, { cwd: ws.dir, env: ws.env(setup.env), timeoutMs: 90_000 });
        expect(result.timedOut).toBe(false);
        expect(ws.read('out.txt'), result.stderr.slice(-2000)).toBe('original\n');
        expect(result.stderr).toContain('PreToolUse Failed');
      } finally {
        model.stop();
      }
    });
  },
});
