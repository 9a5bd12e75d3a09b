// Gemini CLI's model events (BeforeModel, AfterModel, BeforeToolSelection) both ways: Gemini's
// llm_request / llm_response become the agent-neutral model_request / model_response hooks see, and
// the combined decision comes back in the only fields Gemini CLI 0.61 reads on each event.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gemini } from '../../src/dialects/gemini.js';
import { cliInProcess, dialectKit, isolatedEnv, tmpProject } from '../helpers.js';

const { load, ev, decide, json } = dialectKit(gemini, 'gemini');

describe('gemini model events: toEvent', () => {
  it.each([
    ['BeforeModel.json', 'beforeModel', 'BeforeModel'],
    ['AfterModel.json', 'afterModel', 'AfterModel'],
    ['BeforeToolSelection.json', 'beforeToolSelection', 'BeforeToolSelection'],
  ])('%s → %s with model_request', (file, name, claude) => {
    const e = ev(file);
    expect(e.name).toBe(name);
    expect(e.payload.hook_event_name).toBe(claude);
    expect(e.tool).toBeUndefined();
    expect(e.payload.model_request).toMatchObject({ model: 'gemini-3.8-flash', parameters: { temperature: 1, top_p: 0.95, top_k: 64 } });
    const messages = (e.payload.model_request as { messages: { role: string; content: string }[] }).messages;
    expect(messages).toHaveLength(1);
    expect(messages[0]!.role).toBe('user');
    expect(messages[0]!.content).toContain('</session_context>clean up');
    // Gemini's own fields stay for hooks written for Gemini.
    expect(e.payload.llm_request).toEqual(load(file).llm_request);
  });

  it('AfterModel: llm_response becomes model_response (text, finish_reason); Gemini "model" is our "assistant"', () => {
    expect(ev('AfterModel.json').payload.model_response).toEqual({ text: '', finish_reason: 'STOP' });
    const e = gemini.toEvent({ ...load('AfterModel.json'), llm_request: { model: 'm', messages: [{ role: 'model', content: 'hi' }], config: {} }, llm_response: { candidates: [{ content: { role: 'model', parts: ['Do', 'ne.'] } }] } }, undefined);
    expect(e.payload.model_request).toEqual({ model: 'm', messages: [{ role: 'assistant', content: 'hi' }], parameters: {} });
    expect(e.payload.model_response).toEqual({ text: 'Done.' });
  });

  it('every spelling of the event names works', () => {
    for (const name of ['BeforeModel', 'before-model', 'beforeModel']) expect(ev('BeforeModel.json', name).name).toBe('beforeModel');
    expect(() => ev('BeforeModel.json', 'AfterModel')).toThrow(expect.objectContaining({ code: 'EVENT_INVALID' }));
  });
});

describe('gemini model events: answer', () => {
  const request = (file: string) => ev(file).payload.model_request as Record<string, any>;

  it('BeforeModel block: decision deny (Gemini skips the call); halt: continue false', () => {
    expect(json(decide(ev('BeforeModel.json'), 'block', { reason: 'over budget' })).json).toEqual({ decision: 'deny', reason: 'over budget' });
    expect(json(decide(ev('BeforeModel.json'), 'halt', { reason: 'stop' })).json).toEqual({ continue: false, stopReason: 'stop' });
  });

  it('BeforeModel modify: llm_request carries all four generation settings (Gemini resets any left out)', () => {
    const updated = { ...request('BeforeModel.json'), parameters: { temperature: 0.2, top_p: 0.95, top_k: 64 } };
    expect(json(decide(ev('BeforeModel.json'), 'modify', { updatedRequest: updated })).json).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: { config: { temperature: 0.2, maxOutputTokens: undefined, topP: 0.95, topK: 64 } } },
    });
  });

  it('BeforeModel modify: rewritten messages go back with Gemini roles; the model too', () => {
    const updated = { ...request('BeforeModel.json'), model: 'gemini-lite', messages: [{ role: 'user', content: 'short' }, { role: 'assistant', content: 'ok' }] };
    const out = json(decide(ev('BeforeModel.json'), 'modify', { updatedRequest: updated })).json!;
    expect(out.hookSpecificOutput.llm_request).toEqual({ model: 'gemini-lite', messages: [{ role: 'user', content: 'short' }, { role: 'model', content: 'ok' }] });
  });

  it('BeforeModel: a thinking level Gemini hooks cannot set is said, never dropped in silence', () => {
    const updated = { ...request('BeforeModel.json'), parameters: { ...request('BeforeModel.json').parameters, thinking_level: 'low' } };
    const a = json(decide(ev('BeforeModel.json'), 'modify', { updatedRequest: updated }));
    expect(a.json?.hookSpecificOutput).toBeUndefined();
    expect(a.json?.systemMessage).toContain('thinking_level was not applied');
    expect(a.stderr).toContain('thinking_level was not applied');
  });

  it('BeforeModel: a tool restriction Gemini cannot carry there refuses the call (never every tool)', () => {
    const updated = { ...request('BeforeModel.json'), allowed_tools: ['read_file'] };
    expect(json(decide(ev('BeforeModel.json'), 'modify', { updatedRequest: updated })).json).toMatchObject({ decision: 'deny', reason: expect.stringContaining('restrict tools on beforeToolSelection') });
  });

  it('BeforeToolSelection: allowed tools become toolConfig; none left is mode NONE; a block offers no tools', () => {
    const e = ev('BeforeToolSelection.json');
    expect(json(decide(e, 'modify', { updatedRequest: { ...request('BeforeToolSelection.json'), allowed_tools: ['read_file', 'glob'] } })).json).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { mode: 'AUTO', allowedFunctionNames: ['read_file', 'glob'] } },
    });
    expect(json(decide(e, 'modify', { updatedRequest: { ...request('BeforeToolSelection.json'), allowed_tools: [] } })).json?.hookSpecificOutput.toolConfig).toEqual({ mode: 'NONE', allowedFunctionNames: [] });
    expect(json(decide(e, 'block', { reason: 'x' })).json?.hookSpecificOutput.toolConfig).toEqual({ mode: 'NONE', allowedFunctionNames: [] });
  });

  it('BeforeToolSelection: nothing to say is empty stdout (any output makes Gemini send a toolConfig)', () => {
    expect(gemini.answer(decide(ev('BeforeToolSelection.json'), 'continue', { warnings: ['w'] })).stdout).toBe('');
  });

  it('AfterModel: block denies, a rewritten response is llm_response with one candidate', () => {
    expect(json(decide(ev('AfterModel.json'), 'block', { reason: 'leak' })).json).toEqual({ decision: 'deny', reason: 'leak' });
    expect(json(decide(ev('AfterModel.json'), 'modify', { updatedResponse: { text: 'safe', finish_reason: 'STOP' } })).json?.hookSpecificOutput).toEqual({
      hookEventName: 'AfterModel',
      llm_response: { text: 'safe', candidates: [{ content: { role: 'model', parts: ['safe'] }, finishReason: 'STOP' }] },
    });
  });
});

describe('gemini model events through real hook processes (hooks run --dialect gemini)', () => {
  function project(hooks: object, files: Record<string, string> = {}) {
    const dir = tmpProject(files);
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks }));
    return { dir, env: isolatedEnv(dir) };
  }
  const run = async (p: { dir: string; env: NodeJS.ProcessEnv }, args: string[], payload: unknown) => {
    const r = await cliInProcess(['run', ...args, '--dialect', 'gemini'], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) });
    return { ...r, json: r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as Record<string, any>) };
  };

  it('a synthetic response (updatedResponse on beforeModel) skips the model: deny + llm_response, and no later hook runs', async () => {
    const marker = 'later-ran';
    const p = project({
      beforeModel: [
        { id: 'cache', command: `echo '{"updatedResponse":{"text":"cached answer"}}'` },
        { id: 'later', command: `touch ${marker}` },
      ],
    });
    const r = await run(p, ['BeforeModel'], load('BeforeModel.json'));
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      decision: 'deny',
      reason: 'answered by a hook instead of the model',
      hookSpecificOutput: { hookEventName: 'BeforeModel', llm_response: { text: 'cached answer', candidates: [{ content: { role: 'model', parts: ['cached answer'] } }] } },
    });
    expect(existsSync(path.join(p.dir, marker))).toBe(false);
  });

  it("a hook written for Gemini (deny + its own llm_response) is passed on the same way, with the hook's reason", async () => {
    const llm = { candidates: [{ content: { role: 'model', parts: [{ text: 'from ' }, 'policy'] } }] };
    const p = project({ beforeModel: [{ command: `echo '${JSON.stringify({ decision: 'deny', reason: 'canned', hookSpecificOutput: { hookEventName: 'BeforeModel', llm_response: llm } })}'` }] });
    const r = await run(p, ['BeforeModel'], load('BeforeModel.json'));
    expect(r.json?.decision).toBe('deny');
    expect(r.json?.reason).toBe('canned');
    expect(r.json?.hookSpecificOutput.llm_response.candidates[0].content.parts).toEqual(['from policy']);
  });

  it('a synthetic response that is not one is a failure of the hook, said; the model call goes on', async () => {
    const p = project({ beforeModel: [{ id: 'bad', command: `echo '{"updatedResponse":"text"}'` }] });
    const r = await run(p, ['BeforeModel'], load('BeforeModel.json'));
    expect(r.json?.decision).toBeUndefined();
    expect(r.stderr).toMatch(/hook "bad" failed \(invalid-json: "updatedResponse" must be an object/);
  });

  it('a python hook lowers the temperature; a later bash hook sees the rewritten request', async () => {
    const p = project(
      {
        beforeModel: [
          { id: 'cool', command: `python3 -c "import json,sys; e=json.load(sys.stdin); print(json.dumps({'decision':'modify','updatedRequest':{'parameters':{'temperature': e['model_request']['parameters']['temperature']/4}}}))"` },
          { id: 'check', command: `grep -q '"temperature":0.25' || { echo "saw the old temperature" >&2; exit 2; }` },
        ],
      },
    );
    const r = await run(p, ['BeforeModel'], load('BeforeModel.json'));
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: { config: { temperature: 0.25, topP: 0.95, topK: 64 } } } });
  });

  it('exit 2 on BeforeModel blocks the call; the stderr is the reason', async () => {
    const p = project({ beforeModel: [{ command: `echo 'token budget spent' >&2; exit 2` }] });
    expect((await run(p, ['before-model'], load('BeforeModel.json'))).json).toEqual({ decision: 'deny', reason: 'token budget spent' });
  });

  it('a hook written for Gemini (hookSpecificOutput.toolConfig / llm_request) is understood, not dropped', async () => {
    const p = project({
      beforeToolSelection: [{ command: `echo '{"hookSpecificOutput":{"hookEventName":"BeforeToolSelection","toolConfig":{"mode":"ANY","allowedFunctionNames":["read_file"]}}}'` }],
      beforeModel: [{ command: `echo '{"hookSpecificOutput":{"llm_request":{"config":{"temperature":0.5}}}}'` }],
    });
    expect((await run(p, ['BeforeToolSelection'], load('BeforeToolSelection.json'))).json?.hookSpecificOutput.toolConfig).toEqual({ mode: 'AUTO', allowedFunctionNames: ['read_file'] });
    expect((await run(p, ['BeforeModel'], load('BeforeModel.json'))).json?.hookSpecificOutput.llm_request.config.temperature).toBe(0.5);
  });

  it('tool restrictions only narrow: a later hook cannot give back a tool an earlier one took away', async () => {
    const p = project({
      beforeToolSelection: [
        { id: 'first', command: `echo '{"updatedRequest":{"allowed_tools":["read_file","glob"]}}'` },
        { id: 'second', command: `echo '{"updatedRequest":{"allowed_tools":["glob","run_shell_command"]}}'` },
      ],
    });
    expect((await run(p, ['BeforeToolSelection'], load('BeforeToolSelection.json'))).json?.hookSpecificOutput.toolConfig).toEqual({ mode: 'AUTO', allowedFunctionNames: ['glob'] });
  });

  it('a malformed rewrite is a named failure, reported, and changes nothing', async () => {
    const p = project({ beforeModel: [{ id: 'bad', command: `echo '{"updatedRequest":{"parameters":{"temperature":{"deep":1}}}}'` }] });
    const r = await run(p, ['BeforeModel'], load('BeforeModel.json'));
    expect(r.json?.hookSpecificOutput).toBeUndefined();
    expect(r.stderr).toContain('hook "bad" failed (invalid-json: "updatedRequest.parameters.temperature" must be a number, string, boolean or null)');
  });

  it('AfterModel: a hook rewrites the answer text', async () => {
    const p = project({ afterModel: [{ command: `echo '{"decision":"modify","updatedResponse":{"text":"[answer withheld]"}}'` }] });
    const r = await run(p, ['AfterModel'], load('AfterModel.json'));
    expect(r.json?.hookSpecificOutput.llm_response.candidates[0].content.parts).toEqual(['[answer withheld]']);
  });
});

describe('the native dialect answers the model events with the whole rewritten request', () => {
  it('updatedRequest and updatedResponse are in the native answer', async () => {
    const dir = tmpProject();
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { beforeModel: [{ command: `echo '{"updatedRequest":{"parameters":{"temperature":0}}}'` }], afterModel: [{ command: `echo '{"updatedResponse":{"text":"x"}}'` }] } }));
    const env = isolatedEnv(dir);
    const before = await cliInProcess(['run', 'before-model', '--dialect', 'native'], { cwd: dir, env, input: JSON.stringify({ model_request: { model: 'm', messages: [], parameters: { temperature: 1, top_k: 3 } } }) });
    expect(JSON.parse(before.stdout)).toMatchObject({ decision: 'modify', updatedRequest: { model: 'm', messages: [], parameters: { temperature: 0, top_k: 3 } } });
    const after = await cliInProcess(['run', 'after-model', '--dialect', 'native'], { cwd: dir, env, input: JSON.stringify({ model_request: { messages: [], parameters: {} }, model_response: { text: 'y' } }) });
    expect(JSON.parse(after.stdout)).toMatchObject({ decision: 'modify', updatedResponse: { text: 'x' } });
  });
});

describe("Gemini's own fields follow a rewrite", () => {
  it('a hook written for Gemini, after one written for us, reads the rewritten llm_request', async () => {
    const dir = tmpProject();
    writeFileSync(
      path.join(dir, '.hooksrc.json'),
      JSON.stringify({
        hooks: {
          beforeModel: [
            { id: 'ours', command: `echo '{"updatedRequest":{"parameters":{"temperature":0.5},"messages":[{"role":"user","content":"short"}]}}'` },
            { id: 'gemini-style', command: `jq -e '.llm_request.config.temperature == 0.5 and .llm_request.messages[0].content == "short"' >/dev/null || { echo 'stale llm_request' >&2; exit 2; }` },
          ],
        },
      }),
    );
    const r = await cliInProcess(['run', 'BeforeModel', '--dialect', 'gemini'], { cwd: dir, env: isolatedEnv(dir), input: JSON.stringify(load('BeforeModel.json')) });
    const out = JSON.parse(r.stdout);
    expect(out.decision).toBeUndefined();
    expect(out.hookSpecificOutput.llm_request).toEqual({ messages: [{ role: 'user', content: 'short' }], config: { temperature: 0.5, topP: 0.95, topK: 64 } });
  });
});
