// Qwen Code for real (`qwen -p --yolo`), Claude-format hooks in .qwen/settings.json, against a fake
// OpenAI Chat Completions server. The shell tool is Gemini's `run_shell_command`; hooks see it as exec.
import { shellAgentSuite } from './harness/shell-agent-suite.js';

shellAgentSuite('qwen', {
  title: 'Qwen Code (real CLI, --dialect qwen-code)',
  dialect: 'qwen-code',
  shell: (command) => ({ tool: { name: 'run_shell_command', input: { command, description: 'run it' } } }),
  promptBlock: 'blocks',
  // Qwen Code 0.24 reads updatedInput only on PermissionRequest: the dialect denies a rewritten call.
  rewrite: 'denied',
  // Its PostToolUse takes no rewritten output; `continue: false` + stopReason replaces the result.
});
