// Gemini CLI for real (`gemini -p --yolo`), hooks in .gemini/settings.json (BeforeTool, AfterTool,
// BeforeAgent, ...), against a fake Gemini v1beta server. The shell tool is `run_shell_command`.
import { expect, it } from 'vitest';
import { runAgent } from './harness/agents.js';
import type { RecordedRequest } from './harness/model-server.js';
import { shellAgentSuite } from './harness/shell-agent-suite.js';

/** Gemini's model events, wired to the runner like the others. */
const MODEL_EVENTS = { BeforeModel: 'before-model', AfterModel: 'after-model', BeforeToolSelection: 'before-tool-selection' };

type Json = Record<string, any>;

/** A node hook that prints one reply object. */
const reply = (value: object) => `node -e ${JSON.stringify(`process.stdin.resume();process.stdin.on('end',()=>console.log(${JSON.stringify(JSON.stringify(value))}))`)}`;

/** The function names a turn declared, and what its toolConfig allowed. */
function toolsOf(turn: RecordedRequest): { declared: string[]; allowed: string[] | undefined; mode: string | undefined } {
  const body = turn.body as Json;
  const declared = ((body.tools ?? []) as Json[]).flatMap((t) => ((t.functionDeclarations ?? []) as Json[]).map((d) => String(d.name)));
  const config = body.toolConfig?.functionCallingConfig as Json | undefined;
  return { declared, allowed: config?.allowedFunctionNames, mode: config?.mode };
}

shellAgentSuite('gemini', {
  title: 'Gemini CLI (real CLI, --dialect gemini)',
  dialect: 'gemini',
  shell: (command) => ({ tool: { name: 'run_shell_command', input: { command, description: 'run it' } } }),
  // Gemini CLI 0.61.0 ignores AfterTool `hookSpecificOutput.tool_output`; the gemini dialect also
  // denies with the redacted output as the reason, which Gemini sends as the call's *error*.
  redacted: (output) => expect(output.error).toBe(true),
  promptBlock: 'blocks',
  extra: () => {
    it('beforeModel: a hook changes the temperature, and the model server receives the new one', async () => {
      const r = await runAgent('gemini', {
        label: 'temperature',
        dialect: 'gemini',
        script: [{ text: 'Done.' }],
        agentEvents: MODEL_EVENTS,
        hooks: { beforeModel: [{ id: 'cool-down', command: reply({ decision: 'modify', updatedRequest: { parameters: { temperature: 0.125 } } }) }] },
      });
      expect(r.result.timedOut, r.describe()).toBe(false);
      const turns = r.model.turns();
      expect(turns.length, r.describe()).toBeGreaterThanOrEqual(1);
      for (const turn of turns) expect((turn.body as Json).generationConfig?.temperature, r.describe()).toBe(0.125);
    });

    it('beforeModel: a hook blocks the model call, and the model server never gets it', async () => {
      const r = await runAgent('gemini', {
        label: 'model-block',
        dialect: 'gemini',
        prompt: 'say MODEL-BLOCK-PROMPT-7',
        script: [{ text: 'Done.' }],
        agentEvents: MODEL_EVENTS,
        hooks: { beforeModel: [{ id: 'no-model', command: `echo 'model calls are off for this test' >&2; exit 2` }] },
      });
      expect(r.result.timedOut, r.describe()).toBe(false);
      expect(r.model.turns(), r.describe()).toEqual([]);
      // Gemini's model router classifies the prompt with a utility call that no hook sees (it asks for
      // JSON by responseJsonSchema); the conversation itself never reaches the model.
      const others = r.model.requests().filter((q) => (q.body as Json).generationConfig?.responseJsonSchema === undefined);
      expect(others, r.describe()).toEqual([]);
      expect(`${r.result.stdout}\n${r.result.stderr}`, r.describe()).toContain('model calls are off for this test');
    });

    it("beforeModel: a hook answers with a synthetic response; the model server gets no conversation turn, and Gemini prints the hook's answer", async () => {
      const r = await runAgent('gemini', {
        label: 'model-synthetic',
        dialect: 'gemini',
        prompt: 'say MODEL-SYNTHETIC-PROMPT-9',
        script: [{ text: 'FROM-THE-MODEL-SERVER' }],
        agentEvents: MODEL_EVENTS,
        hooks: { beforeModel: [{ id: 'canned', command: reply({ updatedResponse: { text: 'SYNTHETIC-ANSWER-42' } }) }] },
      });
      expect(r.result.timedOut, r.describe()).toBe(false);
      expect(r.model.turns(), r.describe()).toEqual([]);
      const others = r.model.requests().filter((q) => (q.body as Json).generationConfig?.responseJsonSchema === undefined);
      expect(others, r.describe()).toEqual([]);
      expect(r.result.stdout, r.describe()).toContain('SYNTHETIC-ANSWER-42');
      expect(r.result.stdout, r.describe()).not.toContain('FROM-THE-MODEL-SERVER');
    });

    it('beforeToolSelection: a hook removes a tool; the request no longer allows it', async () => {
      const r = await runAgent('gemini', {
        label: 'tool-selection',
        dialect: 'gemini',
        script: [{ text: 'Done.' }],
        agentEvents: MODEL_EVENTS,
        hooks: { beforeToolSelection: [{ id: 'read-only', command: reply({ decision: 'modify', updatedRequest: { allowed_tools: ['read_file', 'list_directory', 'glob'] } }) }] },
      });
      expect(r.result.timedOut, r.describe()).toBe(false);
      const turns = r.model.turns();
      expect(turns.length, r.describe()).toBeGreaterThanOrEqual(1);
      const tools = toolsOf(turns[0]!);
      // Gemini CLI 0.61 still declares every tool and restricts the choice with toolConfig.
      expect(tools.declared, r.describe()).toContain('run_shell_command');
      expect(tools.allowed, r.describe()).toEqual(['glob', 'list_directory', 'read_file']);
      expect(tools.allowed).not.toContain('run_shell_command');
    });

    // Found with the real CLI: Gemini CLI 0.61 leaves allowedFunctionNames to the model API and runs a
    // tool the model calls anyway. A restriction that matters is backed by a preToolUse guard.
    it('beforeToolSelection: Gemini runs a restricted tool the model calls anyway; a preToolUse guard backs the restriction', async () => {
      const restrict = { id: 'read-only', command: reply({ updatedRequest: { allowed_tools: ['read_file'] } }) };
      const call = [{ tool: { name: 'run_shell_command', input: { command: 'touch ran.marker', description: 'x' } } }, { text: 'Done.' }];
      const alone = await runAgent('gemini', { label: 'restrict-alone', dialect: 'gemini', script: call, agentEvents: MODEL_EVENTS, hooks: { beforeToolSelection: [restrict] } });
      expect(toolsOf(alone.model.turns()[0]!).allowed, alone.describe()).toEqual(['read_file']);
      expect(alone.ws.exists('ran.marker'), alone.describe()).toBe(true);
      const backed = await runAgent('gemini', {
        label: 'restrict-backed',
        dialect: 'gemini',
        script: call,
        agentEvents: MODEL_EVENTS,
        hooks: { beforeToolSelection: [restrict], preToolUse: [{ id: 'read-only-tools', match: 'exec', command: `echo 'read-only session: no shell' >&2; exit 2` }] },
      });
      expect(backed.ws.exists('ran.marker'), backed.describe()).toBe(false);
      expect(backed.outputs(1)[0]?.text, backed.describe()).toContain('read-only session: no shell');
    });
  },
});
