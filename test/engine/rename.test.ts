// A reply that renames the tool (ai4j's modify can): no agent's answer can carry a rename, so it is
// refused by name (the call blocked), never dropped while the rewrite runs on the original tool.
import { describe, expect, it } from 'vitest';
import { bash, event, runnerWith } from '../helpers.js';

const reply = (o: object) => `printf '%s' '${JSON.stringify(o)}'`;

async function decide(answer: object, ev = bash('ls -la')) {
  const runner = await runnerWith({ hooks: { [ev.name]: [{ id: 'renamer', command: reply(answer) }] } });
  return runner.run(ev);
}

describe('a reply naming another tool', () => {
  it('a modify that renames blocks, naming the hook and both tools', async () => {
    const d = await decide({ decision: 'modify', tool_name: 'safe_shell', updatedInput: { command: 'ls' } });
    expect(d.decision).toBe('block');
    expect(d.reason).toBe('hook "renamer" renames the tool (Bash → safe_shell), which no agent\'s answer can carry; the call is blocked instead');
    expect(d.updatedInput).toBeUndefined();
  });

  it('an allow that renames blocks too, keeping the hook\'s own reason first', async () => {
    const d = await decide({ decision: 'allow', reason: 'use the safe one', toolName: 'safe_shell' });
    expect(d.decision).toBe('block');
    expect(d.reason).toMatch(/^use the safe one — hook "renamer" renames the tool \(Bash → safe_shell\)/);
  });

  it('the call\'s own tool, in any agent\'s spelling, is no rename', async () => {
    for (const name of ['Bash', 'exec', 'run_shell_command', 'shell']) {
      const d = await decide({ decision: 'modify', tool_name: name, updatedInput: { command: 'ls' } });
      expect(d.decision, name).toBe('modify');
      expect(d.updatedInput).toEqual({ command: 'ls' });
    }
  });

  it('a tool_name that is not a name is a failure of the hook, said', async () => {
    const d = await decide({ decision: 'modify', tool_name: 5, updatedInput: { command: 'ls' } });
    expect(d.results[0]!.failure?.message).toContain('"tool_name" must be a tool name');
  });

  it('on an event after the call, a tool_name (an echoed payload) is not read as a rename', async () => {
    const ev = event('postToolUse', { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'x', cwd: '/p' });
    const d = await decide({ tool_name: 'Other', additionalContext: 'seen' }, ev);
    expect(d.decision).toBe('continue');
  });
});
