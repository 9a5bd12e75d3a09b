// pi and oh-my-pi for real (`pi -p <prompt>`, `omp -p <prompt>`, print mode): neither has command hooks,
// so `hooks install pi|omp --project` writes a TypeScript extension into .pi/extensions/ (.omp/extensions/)
// whose tool_call handler runs `hooks run` and blocks a call with the reason, which the model reads as
// that call's result. The model is an OpenAI-compatible custom provider in ~/.pi/agent/models.json
// (~/.omp/agent/models.yml) pointing at the fake server. oh-my-pi runs under Bun (from npm, beside it).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hooksConfig } from './harness/agents.js';
import { installAgent } from './harness/install-agent.js';
import { startModelServer, type Step } from './harness/model-server.js';
import { run, track, untrack } from './harness/process.js';
import { everything } from './harness/requests.js';
import { cleanUpAfterAll, HOOKS_BIN, makeWorkspace } from './harness/workspace.js';
import { toolCallCases, toolCallRun } from './harness/tool-call-cases.js';

type Host = 'pi' | 'omp';
const bins: Partial<Record<Host, string>> = {};

beforeAll(async () => {
  [bins.pi, bins.omp] = await Promise.all([installAgent('pi'), installAgent('omp')]);
});
cleanUpAfterAll();

const bash = (command: string): Step => ({ tool: { name: 'bash', input: { command } } });

interface RunOptions {
  script: Step[];
  hooks?: Record<string, object[]>;
  files?: Record<string, string>;
  prompt?: string;
  runnerGone?: boolean;
  /** Files for the agent's own folder (~/.pi/agent, ~/.omp/agent), by name. */
  agentFiles?: Record<string, string>;
}

async function runAgent(host: Host, label: string, options: RunOptions) {
  const { ws, env, bin, model, args } = await prepare(host, label, options);
  try {
    const result = await run(bin, args(['-p', options.prompt ?? 'clean up the workspace']), { cwd: ws.dir, env, timeoutMs: 120_000 });
    const describeRun = () => `${host} exit ${result.code} in ${result.ms} ms, ${model.turns().length} turns\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-2500)}`;
    expect(result.timedOut, describeRun()).toBe(false);
    return { ws, model, result, describeRun };
  } finally {
    model.stop();
  }
}

/** A workspace with the extension installed by `hooks install <host> --project`, the fake model, and the agent's arguments. */
async function prepare(host: Host, label: string, options: RunOptions) {
  const ws = makeWorkspace(`${host}-${label}`);
  ws.write({ '.hooksrc.json': hooksConfig(options.hooks), ...options.files });
  // The project depends on agent-hooks (as after npm i -D): the extension runs node_modules/.bin/agent-hooks.
  ws.write({ 'package.json': { name: 'app', private: true, devDependencies: { 'agent-hooks': '^0.1.0' } } });
  mkdirSync(path.join(ws.dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(HOOKS_BIN, path.join(ws.dir, 'node_modules', '.bin', 'agent-hooks'));
  const bin = bins[host]!;
  // omp's bin starts with `#!/usr/bin/env bun`: the bun installed beside it comes first on PATH.
  const env = ws.env({ PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PATH: `${path.dirname(bin)}:${process.env.PATH ?? '/usr/bin:/bin'}` });

  // What a user runs: our installer writes the extension.
  const install = await run(process.execPath, [HOOKS_BIN, 'install', host, '--project'], { cwd: ws.dir, env, timeoutMs: 30_000 });
  expect(install.code, `hooks install ${host} --project: ${install.stdout}${install.stderr}`).toBe(0);
  expect(ws.exists(`.${host}/extensions/agent-hooks.ts`)).toBe(true);
  // A clone where `npm ci` has not run yet: the extension is there, the runner it names is not.
  if (options.runnerGone === true) rmSync(path.join(ws.dir, 'node_modules'), { recursive: true });

  const model = await startModelServer('chat', options.script, ws.root);
  const agentDir = path.join(ws.home, `.${host}`, 'agent');
  mkdirSync(agentDir, { recursive: true });
  const provider = { baseUrl: `${model.url}/v1`, api: 'openai-completions', apiKey: 'sk-test', models: [{ id: 'fake-model' }] };
  // JSON is YAML too: omp reads models.yml.
  writeFileSync(path.join(agentDir, host === 'pi' ? 'models.json' : 'models.yml'), JSON.stringify({ providers: { fake: host === 'pi' ? { ...provider, compat: { supportsDeveloperRole: false, supportsReasoningEffort: false } } : provider } }));
  for (const [name, text] of Object.entries(options.agentFiles ?? {})) writeFileSync(path.join(agentDir, name), text);
  const args = (rest: string[]) => (host === 'pi' ? ['--provider', 'fake', '--model', 'fake-model', ...rest] : ['--model', 'fake/fake-model', '--auto-approve', '--no-lsp', '--no-title', '--no-skills', ...rest]);
  return { ws, env, bin, model, args };
}

/** A command of an RPC conversation, made from the response to the one before it (if any). */
type RpcStep = (previous: Record<string, unknown> | undefined) => Record<string, unknown>;

/**
 * pi or omp in RPC mode: one prompt, then `command` (`{"type": "compact"}`, `{"type": "new_session"}`,
 * or several, each made from the response before it) once the agent is done; the last command's
 * response, and the agent's stderr.
 */
async function afterPromptOverRpc(host: Host, label: string, hooks: Record<string, object[]>, command: Record<string, unknown> | RpcStep[], script: Step[] = [{ text: 'hello there' }, { text: 'SUMMARY-OF-THE-TALK' }], waitFor?: (ws: ReturnType<typeof makeWorkspace>) => boolean, agentFiles?: Record<string, string>) {
  const { ws, env, bin, model, args } = await prepare(host, label, { script, hooks, agentFiles });
  const child = spawn(bin, args(['--mode', 'rpc', '--no-session']), { cwd: ws.dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  track(child.pid!);
  let stderr = '';
  // What the agent said on stdout besides the response: in RPC mode ctx.hasUI is true, and a notify is an event there.
  let stdout = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  try {
    const response = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const steps: RpcStep[] = Array.isArray(command) ? [...command] : [() => command];
      const timer = setTimeout(() => reject(new Error(`no response to the last command in 90 s; stderr: ${stderr}`)), 90_000);
      let buffer = '';
      let sent = false;
      let waiting: string | undefined;
      const next = (previous: Record<string, unknown> | undefined) => {
        const out: Record<string, unknown> = { id: `c${steps.length}`, ...steps.shift()!(previous) };
        waiting = String(out.type);
        child.stdin.write(`${JSON.stringify(out)}\n`);
      };
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
          const line = buffer.slice(0, at);
          buffer = buffer.slice(at + 1);
          stdout += `${line}\n`;
          let message: Record<string, unknown>;
          try {
            message = JSON.parse(line) as Record<string, unknown>;
          } catch {
            continue;
          }
          if (message.type === 'agent_end' && !sent) {
            sent = true;
            next(undefined);
          }
          if (message.type === 'response' && message.command === waiting) {
            if (steps.length > 0) next(message);
            else {
              clearTimeout(timer);
              resolve(message);
            }
          }
        }
      });
      child.stdin.write(`${JSON.stringify({ id: 'p1', type: 'prompt', message: 'say hello' })}\n`);
    });
    // Hooks of events the agent does not wait for (agent_end) may still be running: give them a moment.
    if (waitFor !== undefined) for (let i = 0; i < 100 && !waitFor(ws); i++) await new Promise((r) => setTimeout(r, 200));
    return { response, stderr, stdout, model, ws };
  } finally {
    child.kill('SIGKILL');
    untrack(child.pid!);
    model.stop();
  }
}

const compactOverRpc = (label: string, hooks: Record<string, object[]>) => afterPromptOverRpc('pi', label, hooks, { type: 'compact' });

describe('pi over RPC: compaction', () => {
  it('a preCompact block cancels the compaction: the model is never asked for a summary', async () => {
    const r = await compactOverRpc('compact-block', { preCompact: [{ id: 'keep', command: "echo 'keep the whole history' >&2; exit 2" }] });
    expect(r.response, r.stderr).toMatchObject({ success: false, error: 'Compaction cancelled' });
    expect(r.stderr).toContain('agent-hooks: compaction cancelled: keep the whole history');
    expect(r.model.requests().filter((q) => everything(q).includes('SUMMARY-OF-THE-TALK'))).toEqual([]);
    expect(r.model.requests()).toHaveLength(1);
  });

  it('without it, the same compaction runs (the control)', async () => {
    const r = await compactOverRpc('compact-allow', {});
    expect(r.response, r.stderr).toMatchObject({ success: true });
    expect(r.model.requests().length).toBeGreaterThanOrEqual(2);
  });
});

describe.each(['pi', 'omp'] as const)('%s over RPC: a change of session (preSessionSwitch)', (host) => {
  it('a preSessionSwitch block cancels a new session, saying why', async () => {
    const r = await afterPromptOverRpc(host, 'switch-block', { preSessionSwitch: [{ id: 'stay', command: "echo 'finish this session first' >&2; exit 2" }] }, { type: 'new_session' }, [{ text: 'hello there' }]);
    expect(r.response, r.stderr).toMatchObject({ success: true, data: { cancelled: true } });
    // Said through ctx.ui.notify: RPC mode has a UI, whose requests are events on stdout.
    expect(r.stdout, r.stderr).toContain('Blocked by agent-hooks: finish this session first');
  });

  it('a fork (omp: branch) from the first prompt reaches the hook as reason fork with its entry id, and is cancelled', async () => {
    const [list, fork] = host === 'pi' ? ['get_fork_messages', 'fork'] : ['get_branch_messages', 'branch'];
    const say = `node -e "const e=JSON.parse(require('fs').readFileSync(0,'utf8'));console.error('no ' + e.reason + ' from ' + e.entry_id);process.exit(2)"`;
    let entryId = '';
    const r = await afterPromptOverRpc(host, 'fork-block', { preSessionSwitch: [{ id: 'no-fork', command: say }] }, [
      () => ({ type: list }),
      (previous) => {
        const messages = ((previous?.data as { messages?: { entryId: string }[] } | undefined)?.messages ?? []);
        entryId = messages[0]?.entryId ?? 'none';
        return { type: fork, entryId };
      },
    ], [{ text: 'hello there' }]);
    expect(entryId, r.stdout).not.toBe('none');
    expect(r.response, r.stderr).toMatchObject({ success: true, data: { cancelled: true } });
    expect(r.stdout, r.stderr).toContain(`Blocked by agent-hooks: no fork from ${entryId}`);
  });

  it('without it, the same new session goes ahead (the control)', async () => {
    const r = await afterPromptOverRpc(host, 'switch-allow', {}, { type: 'new_session' }, [{ text: 'hello there' }]);
    expect(r.response, r.stderr).toMatchObject({ success: true, data: { cancelled: false } });
  });
});

describe('omp: session_stop is stop', () => {
  it("a stop block keeps the agent going: the model reads the reason in one more turn, and then it stops", async () => {
    const block = `node -e "const e=JSON.parse(require('fs').readFileSync(0,'utf8'));if(!e.stop_hook_active){console.error('STOP-REASON-4242: run the tests first');process.exit(2)}"`;
    const r = await runAgent('omp', 'stop-block', { prompt: 'finish up', script: [{ text: 'All done.' }, { text: 'Tests ran.' }], hooks: { stop: [{ id: 'tests-first', command: block }] } });
    const turns = r.model.turns();
    expect(turns.length, r.describeRun()).toBe(2);
    expect(everything(turns[0]!)).not.toContain('STOP-REASON-4242');
    expect(everything(turns[1]!), r.describeRun()).toContain('STOP-REASON-4242: run the tests first');
  });
});

describe.each(['pi', 'omp'] as const)('%s over RPC: the agent loop', (host) => {
  it('agent and turn start and end run their hooks: the audit log has a line for each (in order where the agent waits for them)', async () => {
    const audited = (ws: ReturnType<typeof makeWorkspace>) => (ws.read('audit.jsonl') ?? '').includes('"event":"agentEnd"');
    const r = await afterPromptOverRpc(host, 'loop', { '*': [{ id: 'audit', builtin: 'audit-log', options: { path: 'audit.jsonl' } }] }, { type: 'get_state' }, [bash('echo fine > fine.txt'), { text: 'Done.' }], audited);
    expect(r.ws.read('fine.txt'), r.stderr).toBe('fine\n');
    const events = (r.ws.read('audit.jsonl') ?? '').trim().split('\n').map((l) => (JSON.parse(l) as { event: string }).event);
    const loop = events.filter((e) => ['agentStart', 'turnStart', 'turnEnd', 'agentEnd'].includes(e));
    const expected = ['agentStart', 'turnStart', 'turnEnd', 'turnStart', 'turnEnd', 'agentEnd'];
    // omp does not wait for these observe hooks, so under load their runs finish, and are logged, in any order:
    // there only each line's presence holds. pi waits for each, so its log is in the loop's order.
    if (host === 'omp') {
      expect([...loop].sort(), events.join(' ')).toEqual([...expected].sort());
      return;
    }
    expect(loop, events.join(' ')).toEqual(expected);
    // The tool call sits inside the first turn.
    expect(events.indexOf('preToolUse')).toBeGreaterThan(events.indexOf('turnStart'));
    expect(events.indexOf('preToolUse')).toBeLessThan(events.indexOf('turnEnd'));
  });
});

describe('omp over RPC: compaction', () => {
  it("preCompactSummary: a hook's context reaches the model that writes the summary", async () => {
    const r = await afterPromptOverRpc('omp', 'compact-context', { preCompactSummary: [{ id: 'keep', command: "echo 'KEEP-THE-TODO-LIST-2718'" }] }, { type: 'compact' }, undefined, undefined, {
      // omp keeps the last 20000 tokens out of a summary: with none kept, this short talk can be compacted.
      'config.yml': JSON.stringify({ compaction: { keepRecentTokens: 1 } }),
    });
    expect(r.response, JSON.stringify(r.response) + r.stderr).toMatchObject({ success: true });
    const requests = r.model.requests();
    expect(requests.length, r.stderr).toBeGreaterThanOrEqual(2);
    // The prompt's call never carries it; the summary's call does.
    expect(everything(requests[0]!)).not.toContain('KEEP-THE-TODO-LIST-2718');
    expect(requests.slice(1).filter((q) => everything(q).includes('KEEP-THE-TODO-LIST-2718')), r.stderr).toHaveLength(1);
  });
});

describe.each(['pi', 'omp'] as const)('%s (real CLI, extension from `hooks install <host> --project`)', (host) => {
  const runPi = (label: string, options: Parameters<typeof runAgent>[2]) => runAgent(host, label, options);

  // One agent start for the four tool-call cases (harness/tool-call-cases.ts).
  describe('block, allow, rewrite and redact-secrets, one call each in one run', () => {
    let r: Awaited<ReturnType<typeof runAgent>>;
    beforeAll(async () => {
      r = await runPi('tool-calls', toolCallRun(bash));
    });
    toolCallCases(() => r);
  });

  it('a userPromptSubmit block: the model is never asked, and the reason is said', async () => {
    const r = await runPi('prompt', {
      prompt: 'please deploy PROMPT-SECRET-5150 to production',
      script: [{ text: 'Not deploying.' }],
      hooks: { userPromptSubmit: [{ id: 'no-deploy', command: `grep -q 'deploy' && { echo 'deploys are not done by the agent' >&2; exit 2; }; exit 0` }] },
    });
    expect(r.model.requests().filter((q) => everything(q).includes('PROMPT-SECRET-5150')), r.describeRun()).toEqual([]);
    expect(r.result.stderr, r.describeRun()).toContain('Blocked by agent-hooks: deploys are not done by the agent');
  });

  it('a userPromptSubmit rewrite is the prompt the model receives', async () => {
    const r = await runPi('prompt-rewrite', {
      prompt: 'summarise PROMPT-ORIGINAL-11',
      script: [{ text: 'Summary.' }],
      hooks: { userPromptSubmit: [{ id: 'rewrite', command: `echo '{"decision":"modify","prompt":"summarise PROMPT-REWRITTEN-12"}'` }] },
    });
    const turns = r.model.turns();
    expect(turns.length, r.describeRun()).toBeGreaterThanOrEqual(1);
    expect(everything(turns[0]!), r.describeRun()).toContain('summarise PROMPT-REWRITTEN-12');
    expect(r.model.requests().filter((q) => everything(q).includes('PROMPT-ORIGINAL-11')), r.describeRun()).toEqual([]);
  });

  it("beforeModel (pi's context event): a hook's rewrite of the messages is what the model receives", async () => {
    const scrub = `node -e "const e=JSON.parse(require('fs').readFileSync(0,'utf8'));const m=e.model_request.messages.map((x)=>({...x,content:x.content.split('CONTEXT-SECRET-7').join('[scrubbed]')}));console.log(JSON.stringify({decision:'modify',updatedRequest:{messages:m}}))"`;
    const r = await runPi('context', {
      prompt: 'the password is CONTEXT-SECRET-7, list the files',
      script: [bash('echo listed'), { text: 'Done.' }],
      hooks: { beforeModel: [{ id: 'scrub', command: scrub }] },
    });
    const turns = r.model.turns();
    expect(turns.length, r.describeRun()).toBeGreaterThanOrEqual(2);
    expect(r.model.requests().filter((q) => everything(q).includes('CONTEXT-SECRET-7')), r.describeRun()).toEqual([]);
    for (const turn of turns) expect(everything(turn)).toContain('the password is [scrubbed], list the files');
  });

  it('a beforeModel block aborts the run: the model is never asked', async () => {
    const r = await runPi('model-block', {
      script: [bash('touch ran.marker')],
      hooks: { beforeModel: [{ id: 'no-model', command: "echo 'no model calls from this folder' >&2; exit 2" }] },
    });
    expect(r.model.turns(), r.describeRun()).toEqual([]);
    expect(r.ws.exists('ran.marker'), r.describeRun()).toBe(false);
    expect(r.result.stderr, r.describeRun()).toContain('Blocked by agent-hooks: no model calls from this folder');
  });

  it('a runner that is gone blocks the prompt before the model is asked (fail closed)', async () => {
    const r = await runPi('nobin', { script: [bash('touch ran.marker')], runnerGone: true });
    expect(r.ws.exists('ran.marker'), r.describeRun()).toBe(false);
    expect(r.model.turns(), r.describeRun()).toEqual([]);
    expect(r.result.stderr, r.describeRun()).toMatch(/Blocked by agent-hooks \(the runner failed, so nothing was checked\): agent-hooks: cannot run .*node_modules\/\.bin\/agent-hooks/);
  });
});
