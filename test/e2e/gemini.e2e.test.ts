// Gemini CLI for real (`gemini -p --yolo`), hooks in .gemini/settings.json (BeforeTool, AfterTool,
// BeforeAgent, ...), against a fake Gemini v1beta server. The shell tool is `run_shell_command`.
import { expect } from 'vitest';
import { shellAgentSuite } from './harness/shell-agent-suite.js';

shellAgentSuite('gemini', {
  title: 'Gemini CLI (real CLI, --dialect gemini)',
  dialect: 'gemini',
  shell: (command) => ({ tool: { name: 'run_shell_command', input: { command, description: 'run it' } } }),
  // Gemini CLI 0.61.0 ignores AfterTool `hookSpecificOutput.tool_output`; the gemini dialect also
  // denies with the redacted output as the reason, which Gemini sends as the call's *error*.
  redacted: (output) => expect(output.error).toBe(true),
  promptBlock: 'blocks',
});
