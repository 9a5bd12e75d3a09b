// runRecord: what a run's outcome becomes before the SDK sees it.
import { describe, expect, it } from 'vitest';
import { runRecord } from '../../src/telemetry/record.js';
import { bash, runnerWith } from '../helpers.js';

const TOKEN = `ghp_${'a7Xq'.repeat(9)}`; // not a placeholder (one repeated character is one)

describe('runRecord', () => {
  it('starts the hooks of a parallel batch together and the next batch after the slowest; shadow mode and payloads as configured', async () => {
    const runner = await runnerWith({}, {
      handlers: [
        { id: 'a', event: 'preToolUse', parallel: true, handler: () => undefined },
        { id: 'b', event: 'preToolUse', parallel: true, handler: () => undefined },
        { id: 'c', event: 'preToolUse', audit: true, handler: () => ({ decision: 'block', reason: `would stop ${TOKEN}` }) },
      ],
    });
    const decision = await runner.run(bash(`echo ${TOKEN}`));
    // Fixed times: the layout is checked, not this machine's speed.
    for (const r of decision.results) r.ms = { a: 30, b: 50, c: 10 }[r.id]!;
    const kinds = new Map(runner.config.hooks.map((h) => [h.id, h.run.kind]));
    const record = runRecord({ decision, dialect: 'claude-code', projectDir: '/p', startedAt: 1_000, endedAt: 1_100, kinds }, { payloads: false });
    const at = Object.fromEntries(record.hooks.map((h) => [h.attributes['agent_hooks.hook.id'], [h.start, h.end]]));
    expect(at).toEqual({ a: [1_000, 1_030], b: [1_000, 1_050], c: [1_050, 1_060] });
    const c = record.hooks.find((h) => h.attributes['agent_hooks.hook.id'] === 'c')!;
    expect(c.attributes).toMatchObject({ 'agent_hooks.hook.kind': 'function', 'agent_hooks.hook.audit': true, 'agent_hooks.hook.would_have': 'block', 'agent_hooks.hook.decision': 'continue' });
    expect(c.attributes['agent_hooks.hook.would_have_reason']).toMatch(/^would stop (?!ghp_)/);
    expect(record.event.attributes['agent_hooks.decision']).toBe('continue');
    expect(record.event.attributes['agent_hooks.payload']).toBeUndefined();
    expect(record.event.error).toBeUndefined();

    const withPayload = runRecord({ decision, dialect: 'codex', projectDir: '/p', startedAt: 1_000, endedAt: 1_100, kinds }, { payloads: true });
    const payload = String(withPayload.event.attributes['agent_hooks.payload']);
    expect(payload).toContain('"tool_name":"Bash"');
    expect(payload).not.toContain(TOKEN);
    expect(JSON.stringify(withPayload)).not.toContain(TOKEN);
    expect(withPayload.event.attributes['agent_hooks.agent']).toBe('Codex');
  });
});
