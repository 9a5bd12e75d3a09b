// Codex CLI for real (`codex exec`), Claude-format hooks in .codex/hooks.json, against a fake OpenAI
// Responses server. The shell tool is `exec_command` with `{cmd}`; hooks see it as Bash `{command}`.
import { shellAgentSuite } from './harness/shell-agent-suite.js';

shellAgentSuite('codex', {
  title: 'Codex CLI (real CLI, --dialect codex)',
  dialect: 'codex',
  shell: (cmd) => ({ tool: { name: 'exec_command', input: { cmd } } }),
  // Codex takes no rewritten tool output: the codex dialect answers PostToolUse with a block whose
  // reason is the redacted output, and Codex hands the reason to the model in place of the output.
  promptBlock: 'blocks',
});
