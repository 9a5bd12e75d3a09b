// hooks serve for real: the installed settings from `agent-hooks install <agent> --serve`, the real
// Claude Code 2.1.328 and Codex CLI through agent-hooks-client (curl over the Unix socket, the default),
// Claude Code calling the server with `type: "http"` hooks (`--user --http`: the token from
// $AGENT_HOOKS_TOKEN through its header interpolation), and what each install does while the server is
// stopped.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_SPECS, claudeEnv, hooksConfig, REWRITE_HOOK } from './harness/agents.js';
import { everything, toolResults } from './harness/anthropic.js';
import { DANGER_REASON, DANGEROUS, REDACTED, TOKEN } from './harness/fixtures.js';
import { AGENTS, installAgent, REPO } from './harness/install-agent.js';
import { startModelServer, type Step } from './harness/model-server.js';
import { freePort, run, track, untrack, waitFor } from './harness/process.js';
import { toolOutputs } from './harness/requests.js';
import { cleanUpAfterAll, HOOKS_BIN, makeWorkspace, type Workspace } from './harness/workspace.js';

const CLIENT = path.join(REPO, 'bin', 'agent-hooks-client');

beforeAll(async () => {
  await installAgent('claude');
  await installAgent('codex');
});
cleanUpAfterAll();

interface ServeWorkspace {
  ws: Workspace;
  /** The workspace's environment plus the server's port (install, server and agent agree on it). */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  hooks(args: string[]): { code: number | null; stdout: string; stderr: string };
  /** Events the server answered (undefined: not running). */
  served(): number | undefined;
  /** The TCP connections the server took, once it has answered. */
  connections(): number | undefined;
  token(): string;
  /** The --when-down the Codex install gets (default: the install's own). */
  whenDown?: string;
}

/** A project that depends on agent-hooks (node_modules/.bin has agent-hooks and agent-hooks-client), with the guards in its trusted .hooksrc.json. */
async function serveWorkspace(label: string, options: { hooks?: Record<string, object[]>; files?: Record<string, string> } = {}): Promise<ServeWorkspace> {
  const ws = makeWorkspace(`serve-${label}`);
  ws.write({ 'package.json': { name: 'app', private: true, devDependencies: { 'agent-hooks': '^0.1.0' } }, '.hooksrc.json': hooksConfig(options.hooks), ...options.files });
  mkdirSync(path.join(ws.dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(HOOKS_BIN, path.join(ws.dir, 'node_modules', '.bin', 'agent-hooks'));
  symlinkSync(CLIENT, path.join(ws.dir, 'node_modules', '.bin', 'agent-hooks-client'));
  const port = String(await freePort());
  // No server starts by itself in these tests: each one says whether there is one.
  const env = (extra: Record<string, string> = {}) => ws.env({ AGENT_HOOKS_SERVE_PORT: port, AGENT_HOOKS_SERVE_AUTOSTART: '0', ...extra });
  const hooks = (args: string[]) => {
    const r = spawnSync(process.execPath, [HOOKS_BIN, ...args], { cwd: ws.dir, env: env(), encoding: 'utf8', timeout: 30_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return {
    ws,
    env,
    hooks,
    served: () => {
      const r = hooks(['serve', 'status']);
      return r.code === 0 ? Number(/(\d+) answered/.exec(r.stdout)![1]) : undefined;
    },
    connections: () => {
      const r = hooks(['serve', 'status']);
      return r.code === 0 ? Number(/(\d+) TCP connections/.exec(r.stdout)![1]) : undefined;
    },
    token: () => readFileSync(path.join(ws.home, '.local', 'state', 'agent-hooks', 'serve', 'token'), 'utf8').trim(),
  };
}

/** `agent-hooks serve` in the foreground, as systemd would run it; stopped (SIGTERM) by the returned function. */
async function startServer(s: ServeWorkspace): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, [HOOKS_BIN, 'serve'], { cwd: '/', env: s.env(), stdio: 'ignore', detached: true });
  track(child.pid!);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await waitFor(() => s.served() !== undefined, { timeoutMs: 15_000, what: 'hooks serve to answer', everyMs: 200 });
  return async () => {
    child.kill('SIGTERM');
    await exited;
    untrack(child.pid!);
  };
}

function install(s: ServeWorkspace, agent: string, flags: string[] = []): string {
  const r = s.hooks(['install', agent, '--serve', ...flags]);
  expect(r.code, r.stderr).toBe(0);
  return r.stderr;
}

const claudeBash = (command: string): Step => ({ tool: { name: 'Bash', input: { command, description: 'run it' } } });

async function runClaude(s: ServeWorkspace, script: Step[], options: { prompt?: string; withToken?: boolean; continue?: boolean } = {}) {
  const claude = await installAgent('claude');
  const model = await startModelServer('anthropic', script, s.ws.root);
  try {
    const result = await run(claude, [...(options.continue === true ? ['--continue'] : []), '-p', options.prompt ?? 'clean up the workspace', '--output-format', 'json', '--allowedTools', 'Bash Write Edit Read'], {
      cwd: s.ws.dir,
      timeoutMs: 90_000,
      env: s.env({ ...claudeEnv(model.url), ...(options.withToken === false ? {} : { AGENT_HOOKS_TOKEN: s.token() }) }),
    });
    const turns = model.turns();
    const describeRun = `exit ${result.code}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-1500)}\nturns: ${turns.length}`;
    expect(result.timedOut, describeRun).toBe(false);
    return { result, model, turns, describeRun, results: turns.length > 1 ? toolResults(turns[1]!) : [] };
  } finally {
    model.stop();
  }
}

describe(`Claude Code ${AGENTS.claude.version} through agent-hooks-client (the default install --serve)`, () => {
  it('blocks a dangerous command: it never runs, the reason reaches the model, and the server answered over its socket', async () => {
    const s = await serveWorkspace('claude-block');
    install(s, 'claude-code');
    const settings = JSON.parse(s.ws.read('.claude/settings.json')!);
    expect(settings.hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: 'command', command: expect.stringMatching(/agent-hooks-client .*agent-hooks run pre-tool-use --dialect claude-code # agent-hooks$/) });
    expect(s.ws.read('.claude/settings.json')).not.toContain('127.0.0.1');
    const stop = await startServer(s);
    try {
      const r = await runClaude(s, [claudeBash(DANGEROUS)]);
      expect(s.ws.exists('ran.marker'), r.describeRun).toBe(false);
      expect(r.results, r.describeRun).toHaveLength(1);
      expect(r.results[0]!.text).toContain(DANGER_REASON);
      // Exactly SessionStart and PreToolUse, through the socket, none over TCP. A project-scope install
      // registers only the events the project's config acts on (plus SessionStart, which starts a server
      // that is down): this config has no userPromptSubmit hook, so there is no UserPromptSubmit entry
      // for Claude Code to call (a prompt hook is registered and runs: the prompt tests below).
      expect(Object.keys(settings.hooks).sort()).toEqual(['PostToolUse', 'PreToolUse', 'SessionStart']);
      expect(s.served(), r.describeRun).toBe(2);
      expect(s.connections()).toBe(0);
    } finally {
      await stop();
    }
  });

  it('applies a rewrite: the rewritten command is the one that runs', async () => {
    const s = await serveWorkspace('claude-rewrite', { hooks: { preToolUse: [REWRITE_HOOK.entry] }, files: REWRITE_HOOK.files });
    install(s, 'claude-code');
    const stop = await startServer(s);
    try {
      const r = await runClaude(s, [claudeBash('echo original > out.txt')]);
      expect(s.ws.read('out.txt'), r.describeRun).toBe('rewritten\n');
    } finally {
      await stop();
    }
  });

  it('redacts a secret in the output the model receives', async () => {
    const s = await serveWorkspace('claude-redact');
    install(s, 'claude-code');
    const stop = await startServer(s);
    try {
      const r = await runClaude(s, [claudeBash(`echo OUTPUT-MARKER-3141; echo ${TOKEN}`)]);
      expect(r.results, r.describeRun).toHaveLength(1);
      expect(r.results[0]!.text).not.toContain(TOKEN);
      expect(r.results[0]!.text).toContain(REDACTED);
      expect(r.results[0]!.text).toContain('OUTPUT-MARKER-3141');
    } finally {
      await stop();
    }
  });

  it('blocks a prompt: the model never sees it; the next prompt is blocked by the same hook run in the spare the server started for it', async () => {
    const s = await serveWorkspace('claude-prompt', {
      hooks: { userPromptSubmit: [{ id: 'no-deploy', command: `grep -q 'deploy' && { echo "deploys are not done by the agent (pid $$)" >&2; exit 2; }; exit 0` }] },
    });
    install(s, 'claude-code');
    const stop = await startServer(s);
    const spares = () => /pids ([\d ]+)\)/.exec(s.hooks(['serve', 'status']).stdout)?.[1]?.split(' ').map(Number);
    const hookPid = (r: { result: { stdout: string; stderr: string } }) => Number(/deploys are not done by the agent \(pid (\d+)\)/.exec(r.result.stdout + r.result.stderr)?.[1]);
    try {
      const r = await runClaude(s, [{ text: 'I should never be asked.' }], { prompt: 'please deploy PROMPT-SECRET-5150 to production' });
      expect(r.model.requests().filter((q) => everything(q).includes('PROMPT-SECRET-5150')), r.describeRun).toEqual([]);
      expect(r.turns).toEqual([]);
      expect(r.result.stdout + r.result.stderr).toContain('deploys are not done by the agent');
      const waiting = await waitFor(spares, { timeoutMs: 10_000, what: 'a spare for the prompt hook' });
      const again = await runClaude(s, [{ text: 'I should never be asked.' }], { prompt: 'please deploy PROMPT-SECRET-5150 to production' });
      expect(again.model.requests().filter((q) => everything(q).includes('PROMPT-SECRET-5150')), again.describeRun).toEqual([]);
      expect(again.turns).toEqual([]);
      expect(waiting, again.describeRun).toContain(hookPid(again));
    } finally {
      await stop();
    }
  });

});

describe(`Claude Code ${AGENTS.claude.version}, install --user --serve: a prompt guard and a tool guard each run and block, on the first prompt and later ones`, () => {
  // Each hook writes its event and its parent's pid: a hook the server ran is the server's child (spawned,
  // or a spare the server started that exec'd it); `hooks run` is the parent of one run in-process.
  const PROMPT_GUARD = `in=$(cat); echo "ups $PPID" >> "$HOOKS_PROJECT_DIR/calls.log"; case $in in *deploy*) echo 'deploys are not done by the agent' >&2; exit 2 ;; esac; exit 0`;
  const TOOL_GUARD = `in=$(cat); echo "ptu $PPID" >> "$HOOKS_PROJECT_DIR/calls.log"; case $in in *forbidden*) echo 'forbidden is not run here' >&2; exit 2 ;; esac; exit 0`;
  const SECRET = 'PROMPT-SECRET-5150';

  const guarded = (label: string) =>
    serveWorkspace(label, { hooks: { userPromptSubmit: [{ id: 'no-deploy', command: PROMPT_GUARD }], preToolUse: [{ id: 'no-forbidden', command: TOOL_GUARD }] } });
  const calls = (s: ServeWorkspace) =>
    (s.ws.read('calls.log') ?? '')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => ({ event: line.split(' ')[0], parent: Number(line.split(' ')[1]) }));
  const userSettings = (s: ServeWorkspace) => JSON.parse(readFileSync(path.join(s.ws.home, '.claude', 'settings.json'), 'utf8'));
  const secretSeen = (r: Awaited<ReturnType<typeof runClaude>>) => r.model.requests().filter((q) => everything(q).includes(SECRET));

  /**
   * A session whose first prompt is blocked, a second session whose harmless prompt passes and whose tool
   * call is blocked, and the same session continued (--continue) with a prompt that is blocked again.
   * Returns every hook call, in order. No AGENT_HOOKS_TOKEN: the client needs none (the socket is the user's).
   */
  async function threePrompts(s: ServeWorkspace) {
    const first = await runClaude(s, [{ text: 'I should never be asked.' }], { prompt: `please deploy ${SECRET} to production`, withToken: false });
    expect(secretSeen(first), first.describeRun).toEqual([]);
    expect(first.turns, first.describeRun).toEqual([]);
    expect(first.result.stdout, first.describeRun).toContain('deploys are not done by the agent');
    expect(calls(s).map((c) => c.event), first.describeRun).toEqual(['ups']);

    const tool = await runClaude(s, [claudeBash('echo forbidden > ran.marker')], { withToken: false });
    expect(s.ws.exists('ran.marker'), tool.describeRun).toBe(false);
    expect(tool.results, tool.describeRun).toHaveLength(1);
    expect(tool.results[0]!.text).toContain('forbidden is not run here');
    expect(calls(s).map((c) => c.event), tool.describeRun).toEqual(['ups', 'ups', 'ptu']);

    const later = await runClaude(s, [{ text: 'I should never be asked.' }], { prompt: `deploy ${SECRET} again`, continue: true, withToken: false });
    expect(secretSeen(later), later.describeRun).toEqual([]);
    expect(later.turns, later.describeRun).toEqual([]);
    expect(later.result.stdout, later.describeRun).toContain('deploys are not done by the agent');
    expect(calls(s).map((c) => c.event), later.describeRun).toEqual(['ups', 'ups', 'ptu', 'ups']);
    return calls(s);
  }

  it('with the server up: UserPromptSubmit is registered, and each guard is run by the server and blocks', async () => {
    const s = await guarded('guards-up');
    install(s, 'claude-code', ['--user']);
    expect(userSettings(s).hooks.UserPromptSubmit[0].hooks[0]).toMatchObject({ type: 'command', command: expect.stringMatching(/agent-hooks-client \S+ run user-prompt-submit --dialect claude-code # agent-hooks$/) });
    const stop = await startServer(s);
    try {
      const serverPid = Number(/running \(pid (\d+)/.exec(s.hooks(['serve', 'status']).stdout)![1]);
      const all = await threePrompts(s);
      expect(all.map((c) => c.parent)).toEqual(all.map(() => serverPid));
      expect(s.connections()).toBe(0);
    } finally {
      await stop();
    }
  });

  it('with the server up, several prompts in one session (stream-json): the harmless one reaches the model, the later ones are judged by the served guard and blocked', async () => {
    const s = await guarded('guards-stream');
    install(s, 'claude-code', ['--user']);
    const stop = await startServer(s);
    try {
      const serverPid = Number(/running \(pid (\d+)/.exec(s.hooks(['serve', 'status']).stdout)![1]);
      const claude = await installAgent('claude');
      const model = await startModelServer('anthropic', [{ text: 'hello back' }, claudeBash('echo forbidden > ran.marker')], s.ws.root);
      try {
        const message = (content: string) => `${JSON.stringify({ type: 'user', message: { role: 'user', content } })}\n`;
        const result = await run(claude, ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash Write Edit Read'], {
          cwd: s.ws.dir,
          timeoutMs: 90_000,
          env: s.env(claudeEnv(model.url)),
          input: message('say hello') + message('clean up') + message(`deploy ${SECRET} now`),
        });
        const describeRun = `exit ${result.code}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-800)}`;
        expect(result.timedOut, describeRun).toBe(false);
        // 2.1.328 runs the first prompt alone and hands the ones queued meanwhile to one UserPromptSubmit,
        // joined (the hook sees them all); taken one by one, the tool guard would block the tool call.
        expect(model.turns().length, describeRun).toBeGreaterThanOrEqual(1);
        expect(model.requests().filter((q) => everything(q).includes(SECRET)), describeRun).toEqual([]);
        expect(s.ws.exists('ran.marker')).toBe(false);
        const all = calls(s);
        expect(all.filter((c) => c.event === 'ups').length, describeRun).toBeGreaterThanOrEqual(2);
        expect(all.map((c) => c.parent)).toEqual(all.map(() => serverPid));
        expect(result.stdout).toContain('deploys are not done by the agent');
      } finally {
        model.stop();
      }
    } finally {
      await stop();
    }
  });

  it('with the server down and the default --when-down run: each guard runs in-process and blocks, and no server answered', async () => {
    const s = await guarded('guards-down-run');
    install(s, 'claude-code', ['--user']);
    await threePrompts(s);
    expect(s.served()).toBeUndefined();
  });

  it('with the server down and --when-down block: every prompt is blocked before any hook or the model, with the reason', async () => {
    const s = await guarded('guards-down-block');
    install(s, 'claude-code', ['--user', '--when-down', 'block']);
    expect(userSettings(s).hooks.UserPromptSubmit[0].hooks[0].command).toContain('agent-hooks-client --when-down block ');
    for (const [prompt, script] of [[`please deploy ${SECRET}`, [{ text: 'I should never be asked.' }]], ['clean up the workspace', [claudeBash('touch ran.marker')]]] as const) {
      const r = await runClaude(s, [...script], { prompt, withToken: false });
      expect(r.turns, r.describeRun).toEqual([]);
      expect(secretSeen(r), r.describeRun).toEqual([]);
      expect(r.result.stdout, r.describeRun).toContain('the agent-hooks server is not running, and this install blocks when it is down');
    }
    expect(s.ws.exists('ran.marker')).toBe(false);
    expect(calls(s)).toEqual([]);
  });

  it('the same guards with a plain install (no --serve) behave alike: the baseline the served install must match', async () => {
    const s = await guarded('guards-plain');
    const r = s.hooks(['install', 'claude-code', '--user']);
    expect(r.code, r.stderr).toBe(0);
    expect(userSettings(s).hooks.UserPromptSubmit[0].hooks[0].command).not.toContain('agent-hooks-client');
    await threePrompts(s);
  });
});

describe(`Claude Code ${AGENTS.claude.version} with type "http" hooks (install --user --serve --http)`, () => {
  const http = (s: ServeWorkspace, flags: string[] = []) => install(s, 'claude-code', ['--user', '--http', ...flags]);

  it('blocks a dangerous command over loopback HTTP, through the owner check', async () => {
    const s = await serveWorkspace('claude-http-block');
    const notes = http(s);
    expect(notes).toContain('AGENT_HOOKS_TOKEN');
    expect(notes).toContain('only for a machine where no other user can bind loopback ports');
    const settings = JSON.parse(readFileSync(path.join(s.ws.home, '.claude', 'settings.json'), 'utf8'));
    expect(settings.hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: 'http', onFailure: 'block' });
    const stop = await startServer(s);
    try {
      const r = await runClaude(s, [claudeBash(DANGEROUS)]);
      expect(s.ws.exists('ran.marker'), r.describeRun).toBe(false);
      expect(r.results, r.describeRun).toHaveLength(1);
      expect(r.results[0]!.text).toContain(DANGER_REASON);
      expect(s.served()).toBeGreaterThanOrEqual(3);
      // Over TCP, through the owner check (the kernel's word that the socket is this user's): Claude Code's
      // own connection passes it. (2.1.328 kept one connection for its two HTTP events here.)
      expect(s.connections()).toBeGreaterThanOrEqual(1);
    } finally {
      await stop();
    }
  });

  it('with the server stopped, the http install blocks the gated events (onFailure "block"): the prompt never reaches the model; --when-down continue lets everything through', async () => {
    const s = await serveWorkspace('claude-down');
    http(s);
    const blocked = await runClaude(s, [claudeBash('touch ran.marker')]);
    expect(s.ws.exists('ran.marker'), blocked.describeRun).toBe(false);
    expect(blocked.turns, blocked.describeRun).toEqual([]);
    expect(blocked.result.stdout, blocked.describeRun).toContain('blocking because onFailure is \\"block\\"');
    expect(blocked.result.stdout).toContain('ECONNREFUSED');

    http(s, ['--when-down', 'continue']);
    const open = await runClaude(s, [claudeBash('touch ran.marker')]);
    expect(s.ws.exists('ran.marker'), open.describeRun).toBe(true);
  });

  it('a request without the token is refused (401), and the http install blocks on it as on a server that is down', async () => {
    const s = await serveWorkspace('claude-no-token');
    http(s);
    const stop = await startServer(s);
    try {
      const r = await runClaude(s, [claudeBash('touch ran.marker')], { withToken: false });
      expect(s.ws.exists('ran.marker'), r.describeRun).toBe(false);
      expect(r.turns, r.describeRun).toEqual([]);
      expect(r.result.stdout, r.describeRun).toContain('HTTP 401');
    } finally {
      await stop();
    }
  });
});

describe('Codex CLI through agent-hooks-client (curl over the Unix socket)', () => {
  const shell = (cmd: string): Step => ({ tool: { name: 'exec_command', input: { cmd } } });

  async function runCodex(s: ServeWorkspace, script: Step[], prompt = 'clean up the workspace') {
    const codex = await installAgent('codex');
    const model = await startModelServer('responses', script, s.ws.root);
    try {
      const setup = AGENT_SPECS.codex.setup(s.ws, model, 'codex', prompt);
      // The harness's own hook entries go: the installed ones are what runs.
      rmSync(path.join(s.ws.dir, '.codex', 'hooks.json'));
      install(s, 'codex', s.whenDown === undefined ? [] : ['--when-down', s.whenDown]);
      const result = await run(codex, setup.args, { cwd: s.ws.dir, env: s.env(setup.env), timeoutMs: 90_000 });
      const describeRun = `exit ${result.code}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-2500)}\nturns: ${model.turns().length}`;
      expect(result.timedOut, describeRun).toBe(false);
      const outputs = (n: number) => {
        const req = model.turns()[n];
        return req === undefined ? [] : toolOutputs('responses', req);
      };
      return { result, model, describeRun, outputs };
    } finally {
      model.stop();
    }
  }

  async function withServer<T>(s: ServeWorkspace, body: () => Promise<T>): Promise<T> {
    const stop = await startServer(s);
    try {
      return await body();
    } finally {
      await stop();
    }
  }

  it('blocks a dangerous command through the server', async () => {
    const s = await serveWorkspace('codex-block');
    await withServer(s, async () => {
      const r = await runCodex(s, [shell(DANGEROUS)]);
      expect(s.ws.exists('ran.marker'), r.describeRun).toBe(false);
      expect(r.outputs(1)[0]?.text, r.describeRun).toContain(DANGER_REASON);
      expect(s.served(), r.describeRun).toBeGreaterThanOrEqual(2);
    });
  });

  it('applies a rewrite through the server', async () => {
    const s = await serveWorkspace('codex-rewrite', { hooks: { preToolUse: [REWRITE_HOOK.entry] }, files: REWRITE_HOOK.files });
    await withServer(s, async () => {
      const r = await runCodex(s, [shell('echo original > out.txt')]);
      expect(s.ws.read('out.txt'), r.describeRun).toBe('rewritten\n');
    });
  });

  it('redacts a secret in the output through the server', async () => {
    const s = await serveWorkspace('codex-redact');
    await withServer(s, async () => {
      const r = await runCodex(s, [shell(`echo OUTPUT-MARKER-3141; echo ${TOKEN}`)]);
      const out = r.outputs(1);
      expect(out, r.describeRun).toHaveLength(1);
      expect(out[0]!.text).not.toContain(TOKEN);
      expect(out[0]!.text).toContain(REDACTED);
    });
  });

  it('blocks a prompt through the server', async () => {
    const s = await serveWorkspace('codex-prompt', {
      hooks: { userPromptSubmit: [{ id: 'no-deploy', command: `grep -q 'deploy' && { echo 'deploys are not done by the agent' >&2; exit 2; }; exit 0` }] },
    });
    await withServer(s, async () => {
      const r = await runCodex(s, [{ text: 'Not deploying.' }], 'please deploy PROMPT-SECRET-5150 to production');
      expect(r.model.requests().filter((q) => everything(q).includes('PROMPT-SECRET-5150')), r.describeRun).toEqual([]);
    });
  });

  it('with the server stopped: the default install runs the event in-process (still blocked); --when-down block blocks even a harmless call', async () => {
    const s = await serveWorkspace('codex-down');
    const r = await runCodex(s, [shell(DANGEROUS)]);
    expect(s.ws.exists('ran.marker'), r.describeRun).toBe(false);
    expect(r.outputs(1)[0]?.text, r.describeRun).toContain(DANGER_REASON);
    expect(s.served()).toBeUndefined();

    // block: the gated events are blocked while the server is down (the prompt, before any tool call).
    s.whenDown = 'block';
    const harmless = await runCodex(s, [shell('touch ran.marker')]);
    expect(s.ws.exists('ran.marker'), harmless.describeRun).toBe(false);
    expect(harmless.model.turns(), harmless.describeRun).toEqual([]);
    expect(harmless.result.stderr).toContain('UserPromptSubmit Blocked');
  });
});
