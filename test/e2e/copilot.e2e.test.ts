// GitHub Copilot CLI for real (`copilot -p`, BYOK offline), camelCase hooks in .github/hooks/*.json,
// against a fake Chat Completions server. The shell tool is `bash`.
import { shellAgentSuite } from './harness/shell-agent-suite.js';

shellAgentSuite('copilot', {
  title: 'Copilot CLI (real CLI, camelCase hooks, --dialect copilot)',
  dialect: 'copilot',
  shell: (command) => ({ tool: { name: 'bash', input: { command, description: 'run it' } } }),
  // userPromptSubmitted output is ignored by Copilot and exit 2 there is only a warning.
  promptBlock: 'cannot-block',
});
