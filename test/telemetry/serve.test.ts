// `hooks serve` keeps one exporter for its life, batches, and flushes on shutdown.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { claudeBash, RUN, serve } from '../serve/kit.js';
import { startReceiver, type Receiver } from './receiver.js';

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
});

it('exports each event it judges, batched, and flushes on close', async () => {
  receiver = await startReceiver();
  const s = await serve({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'served' } });
  writeFileSync(path.join(s.home, '.hooksrc.json'), JSON.stringify({ hooks: { preToolUse: [{ id: 'no-rm', builtin: 'command-safety' }] } }));
  const { trustProject } = await import('../helpers.js');
  trustProject(s.home, s.env);
  const first = await s.tcp(RUN, claudeBash('ls', s.home));
  const second = await s.tcp(RUN, claudeBash('echo two', s.home, { session_id: 's-2' }));
  expect(first.status).toBe(200);
  expect(second.status).toBe(200);
  // Batched: nothing is sent per event (the batch's delay is seconds), all of it on close.
  expect(receiver.received.filter((r) => r.path === '/v1/traces')).toEqual([]);
  await s.server.close(1_000);

  const events = receiver.spans().filter((sp) => sp.name === 'agent-hooks preToolUse');
  expect(events.map((e) => e.attributes['session.id']).sort()).toEqual(['s-1', 's-2']);
  expect(events.every((e) => e.resource['service.name'] === 'served')).toBe(true);
  const hooks = receiver.spans().filter((sp) => sp.name === 'agent-hooks hook no-rm');
  expect(hooks).toHaveLength(2);
  expect(hooks[0]!.attributes).toMatchObject({ 'agent_hooks.hook.kind': 'builtin', 'agent_hooks.hook.layer': 'project', 'agent_hooks.hook.decision': 'continue' });
  expect(new Set(hooks.map((h) => h.parentSpanId))).toEqual(new Set(events.map((e) => e.spanId)));
  // One provider, cumulative: one point counting both events.
  const counted = receiver.metrics().find((m) => m.name === 'agent_hooks.events');
  expect(counted?.temporality).toBe(2); // CUMULATIVE
  expect(counted?.points).toEqual([{ attributes: { 'agent_hooks.event': 'preToolUse', 'agent_hooks.decision': 'continue', 'agent_hooks.dialect': 'claude-code' }, value: 2 }]);
});
