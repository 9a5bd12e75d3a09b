// Native vs runner: every corpus case run the way Claude Code 2.1.328 runs the script itself, and through
// `hooks run <event> --dialect claude-code` configured from the same settings entry; both judged by the same
// oracle (claude-oracle.ts). They must agree, except for the short list of deliberate differences below.
// Cases the runner cannot pass before the claude-events / claude-settings work lands are listed in KNOWN_GAPS and
// run as `it.fails` with the gap in their title: they turn red the moment the gap closes, so the list is pruned.
// A summary (agree / deliberate / gap counts and every difference) is printed, and written as JSON to
// $CLAUDE_FIDELITY_SUMMARY when that is set.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess, trustProject } from '../helpers.js';
import { CASES } from './claude-cases.js';
import { defaultTimeoutSeconds, describe as describeEffect, type Effect } from './claude-oracle.js';
import { CORPUS, SCRIPTS, configKey, hooksOf, makeWorld, runNative, runThroughRunner, sameRoot, selectHandlers, setHttpBase, writeRunnerConfig, type FidelityCase } from './claude-run.js';

// The http hook cases POST to this server (127.0.0.1 only): /deny answers a JSON deny, /fail a 500 whose body is a
// deny (Claude Code must not act on it), /context a UserPromptSubmit context.
let server: Server;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answers: Record<string, [number, object]> = {
        '/deny': [200, { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'denied over http' } }],
        '/fail': [500, { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'a 500 must not block' } }],
        '/context': [200, { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'from the http hook' } }],
      };
      const [status, body] = answers[req.url ?? ''] ?? [404, {}];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the http hook server has no port');
  setHttpBase(`http://127.0.0.1:${address.port}`);
});

/** Deliberate differences: the case, the fields allowed to differ, and why (docs/agents.md has the table). */
export const DELIBERATE: Record<string, { fields: (keyof Effect)[]; why: string }> = {
  'pr-halt-pre': {
    fields: ['blocked', 'permission', 'reasons'],
    why: 'A halt on PreToolUse also denies the tool: Claude Code runs the tool first and stops after, agent-hooks refuses to run a call a hook wanted the whole session stopped for.',
  },
  'pr-top-deny': {
    fields: ['blocked', 'permission', 'reasons'],
    why: "Top-level decision \"deny\" is agent-hooks' own protocol (shared by every agent's hooks): a block here, where Claude Code rejects the reply and runs the call.",
  },
  'pr-top-ask': {
    fields: ['permission'],
    why: "Top-level decision \"ask\" is agent-hooks' own protocol: an ask here, where Claude Code rejects the reply.",
  },
  'pr-perm-exit2': {
    fields: ['permissionRequest', 'blocked', 'reasons'],
    why: "Exit 2 on PermissionRequest denies: exit 2 is agent-hooks' block on every event of every agent, and a hook that said block must not see the call allowed by another hook's answer, where Claude Code ignores exit 2 there.",
  },
  'pr-perm-allow-exit2': {
    fields: ['permissionRequest', 'blocked', 'reasons'],
    why: 'The same: exit 2 on PermissionRequest is a deny, which beats another hook\'s allow.',
  },
  'awf-npm': {
    fields: ['systemMessages'],
    why: 'A hookSpecificOutput without hookEventName is read (other agents send it so); Claude Code rejects the whole reply, so its systemMessage is not shown there.',
  },
  'pr-sysmsgs-all': {
    fields: ['systemMessages'],
    why: 'PreToolUse is a chain: a block stops later hooks (deterministic, a guard judges what will run), so the second hook never runs and its systemMessage never comes; Claude Code runs both in parallel.',
  },
};

/**
 * Known gaps on the current build: case id -> what is missing and which branch brings it. These run as
 * `it.fails`; when the comparison agrees, the test fails and the entry must go.
 */
export const KNOWN_GAPS: Record<string, string> = {
};

/**
 * The runner side runs the CLI in-process (claude-run.ts, RunnerVia). These cases also run it as the real process
 * Claude Code spawns (`node bin/hooks.js run <Event> --dialect claude-code`, the built bundle, its launcher and code
 * cache, stdin a real pipe, exit by process.exit), which must reply exactly as the in-process run did: the same exit
 * code and stdout. One per event kind, and each reply shape: exit-2 block, JSON deny, rewrite, context, permission
 * answer, timeout, failing hook, http hook. (On the whole corpus both ways agreed, 176 of 176, when this was set up.)
 */
export const VIA_BIN: Record<string, string> = {
  'bcv-grep': 'PreToolUse, exit 2 with the reason on stderr: a block',
  'paa-rm-root': 'PreToolUse, a JSON deny without a reason and a systemMessage',
  'pr-allow-rewrite': 'PreToolUse, allow + updatedInput: a rewrite',
  'pr-timeout': "PreToolUse, the handler's 1 s timeout on a 4 s guard: killed, no decision",
  'pr-exit1': 'PreToolUse, exit 1 with text: a failing hook, the tool runs',
  'pr-source': 'PreToolUse, a command /bin/sh cannot run (127)',
  'pr-http-deny': 'PreToolUse, an http hook answering a JSON deny',
  'pr-ups-context': 'UserPromptSubmit, additionalContext',
  'pr-ups-block': 'UserPromptSubmit, decision block',
  'ssh-stop': 'Stop, decision block with an empty reason',
  'pr-post-rewrite': 'PostToolUse, updatedToolOutput',
  'pr-perm-allow': 'PermissionRequest, allow + updatedInput',
  'sscl-file': 'SessionStart, context from a bash script',
  'cw-block': "ConfigChange, a node script's exit 2 blocks the change",
  'pss-json-deny': 'PreSkillShellCommand, a JSON deny after a passing hook',
  'pr-precompact-exit2': 'PreCompact, exit 2',
  'pr-denied-retry': 'PermissionDenied, retry',
  'pr-post-batch-context': 'PostToolBatch, context',
  'pr-sysmsg-notification': 'Notification, a systemMessage',
  'ia-hostile': 'InstructionsLoaded, continue:false + a systemMessage',
  'pr-subagent-stop-context': 'SubagentStop, context',
  'pr-subagent-start': 'SubagentStart, context',
  'pr-session-end-exit2': 'SessionEnd, exit 2 (no effect)',
  'pr-elicitation-decline': 'Elicitation, decline',
};

/** Fields compared exactly; text lists are compared by containment (see agreeOn). */
const EXACT: (keyof Effect)[] = ['blocked', 'permission', 'updatedInput', 'permissionRequest', 'halt', 'updatedToolOutput', 'retry', 'elicitationAction', 'continues'];

/**
 * Deliberate everywhere: the runner tells the user, in a systemMessage naming the hook, when a hook fails (times
 * out, answers JSON it cannot read, cannot be found) or when it sets part of a hook's reply aside the way Claude
 * Code does silently (a permissionDecision on PostToolUse, continue:false on PreCompact, `{`-looking text taken as
 * text). The effect is compared all the same; only the notice is extra. A guard that fails open, or a reply that
 * is dropped, without a word is worse than no guard. The same for a config warning about an entry that does
 * nothing (an `if` rule on an event without a tool). A config error that switches a layer off is not a notice: it
 * is a difference.
 */
const FAILURE_NOTICE = /^agent-hooks: (?!.*switched off)/s;

/** Runner-only failure notices (deliberate), given the two effects. */
export function failureNotices(native: Effect, runner: Effect): string[] {
  // Where Claude Code shows a notice of its own (a hook error, a timeout, stderr of an exit 2 it cannot act on), the
  // runner's notice is its counterpart, not a difference.
  if (native.errors > 0) return [];
  return runner.systemMessages.filter((m) => FAILURE_NOTICE.test(m) && !native.systemMessages.includes(m));
}

/** Claude Code's own words for a block whose hook gave no reason: any reason of the runner's stands for them. */
const STAND_INS = new Set(['Blocked by hook', 'Elicitation denied by hook', 'Elicitation result blocked by hook', 'No stderr output']);

/** Where the two effects differ, in words (deliberate differences left out). */
export function differences(native: Effect, runner: Effect, allowed: (keyof Effect)[] = []): string[] {
  const out: string[] = [];
  const notices = failureNotices(native, runner);
  runner = { ...runner, systemMessages: runner.systemMessages.filter((m) => !notices.includes(m)) };
  for (const f of EXACT) {
    if (allowed.includes(f)) continue;
    if (JSON.stringify(native[f]) !== JSON.stringify(runner[f])) out.push(`${f}: native ${JSON.stringify(native[f])}, runner ${JSON.stringify(runner[f])}`);
  }
  // Text: every native text must reach the same channel through the runner (the runner may prefix it with the hook's id
  // or join several); Claude's stand-in "Blocked by hook" for a reason-less block matches any reason.
  const texts: [keyof Effect, string[], string[]][] = [
    ['reasons', native.reasons, runner.reasons],
    ['feedback', native.feedback, runner.feedback],
    ['context', native.context, runner.context],
    ['systemMessages', native.systemMessages, runner.systemMessages],
  ];
  for (const [f, n, r] of texts) {
    if (allowed.includes(f)) continue;
    const joined = r.join('\n');
    const missing = n.filter((t) => !(STAND_INS.has(t) && r.length > 0) && !joined.includes(t));
    if (missing.length > 0) out.push(`${f}: runner lacks ${JSON.stringify(missing)} (runner has ${JSON.stringify(r)})`);
    // Extra text where Claude Code shows none. A runner notice about a failed hook is the counterpart of Claude's
    // "hook error" notice, so extra systemMessages are fine when the native side had an error.
    if (n.length === 0 && r.length > 0 && !(f === 'systemMessages' && native.errors > 0 && r.every((m) => FAILURE_NOTICE.test(m)))) out.push(`${f}: runner adds ${JSON.stringify(r)} where Claude Code has none`);
  }
  if (!allowed.includes('stopReason') && native.stopReason !== undefined && !(runner.stopReason ?? '').includes(native.stopReason)) out.push(`stopReason: native ${JSON.stringify(native.stopReason)}, runner ${JSON.stringify(runner.stopReason)}`);
  return out;
}

/** Does the native effect show what the case means to exercise? Text lists: same length, each expected text contained. */
function expectationProblems(c: FidelityCase, native: Effect): string[] {
  const out: string[] = [];
  for (const [key, want] of Object.entries(c.expect) as [keyof Effect, unknown][]) {
    const got = native[key];
    if (Array.isArray(want) && want.every((w) => typeof w === 'string') && Array.isArray(got)) {
      if (want.length !== got.length || !want.every((w, i) => String(got[i]).includes(w as string))) out.push(`${key}: expected ${JSON.stringify(want)}, native ${JSON.stringify(got)}`);
    } else if (JSON.stringify(want) !== JSON.stringify(got)) out.push(`${key}: expected ${JSON.stringify(want)}, native ${JSON.stringify(got)}`);
  }
  return out;
}

interface Row {
  id: string;
  event: string;
  native: string;
  runner: string;
  verdict: 'agree' | 'deliberate' | 'differ';
  diffs: string[];
  /** For a deliberate verdict: what differs, and the runner's notices. */
  notes: string[];
  config: string;
}
const rows: Row[] = [];

const manifest = JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { scripts: { id: string; file: string; kind: string; source: { repo: string; path: string; commit: string; licence: string } }[] };

describe('the Claude Code corpus', () => {
  it('has at least 30 public scripts, each recorded with repo, path, commit and licence, each exercised by a case', () => {
    const publicScripts = manifest.scripts.filter((s) => s.kind !== 'probe');
    expect(publicScripts.length).toBeGreaterThanOrEqual(30);
    for (const s of manifest.scripts) {
      expect(s.source.repo, s.id).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(s.source.path, s.id).not.toBe('');
      expect(s.source.commit, s.id).toMatch(/^[0-9a-f]{7,40}$/);
      expect(s.source.licence, s.id).not.toBe('');
      expect(readFileSync(path.join(SCRIPTS, s.file), 'utf8'), s.id).toMatch(/^#!/);
      expect(CASES.some((c) => c.scripts.includes(s.id)), `${s.id} has no case`).toBe(true);
    }
    for (const c of CASES) for (const id of c.scripts) expect(manifest.scripts.some((s) => s.id === id), `${c.id} names unknown script ${id}`).toBe(true);
  });

  // Default timeouts, checked on the config the runner resolves rather than by outwaiting them: a case whose guard
  // slept past 30 s proved the runner's default is longer than that at the cost of a minute per run. Here each
  // handler's timeout through `hooks import claude-code` + `hooks list --json` must be the one Claude Code gives
  // it: its own `timeout`, else 600 s (PreToolUse, PermissionRequest), else 30 s (UserPromptSubmit). That the
  // runner enforces the timeout it resolved is pr-timeout's case (a 1 s timeout on a 4 s guard), run for real (and
  // through the real bin: VIA_BIN). `hooks list` runs in-process: it is the resolved config that is checked here.
  it.concurrent.each(['pr-slow-guard', 'awf-npm', 'sat-first', 'pr-timeout'])('default timeouts: %s gets the timeout Claude Code gives it', async (id) => {
    const c = CASES.find((x) => x.id === id)!;
    const world = makeWorld(c, 'timeouts');
    await writeRunnerConfig(c, world);
    trustProject(world.dir, world.env);
    const r = await cliInProcess(['list', '--json'], { cwd: world.dir, env: world.env });
    expect(r.code, r.stderr).toBe(0);
    const listed = (JSON.parse(r.stdout) as { hooks: { event: string; runs: string; timeoutMs: number }[] }).hooks.filter((h) => h.event === configKey(c.event));
    const claude = selectHandlers(hooksOf(c), c.event, world.payload).map((h) => ({ runs: h.command, timeoutMs: (h.timeout ?? defaultTimeoutSeconds(c.event)) * 1000 }));
    expect(claude.length).toBeGreaterThan(0);
    expect(listed.map((h) => ({ runs: h.runs, timeoutMs: h.timeoutMs }))).toEqual(claude);
  });

  it('runs a real-process sample of every event kind (VIA_BIN)', () => {
    for (const id of Object.keys(VIA_BIN)) expect(CASES.some((c) => c.id === id), `VIA_BIN names unknown case ${id}`).toBe(true);
    const sampled = new Set(CASES.filter((c) => VIA_BIN[c.id] !== undefined).map((c) => c.event));
    expect([...new Set(CASES.map((c) => c.event))].filter((e) => !sampled.has(e))).toEqual([]);
  });

  it('has at least 100 cases with unique ids', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(100);
    expect(new Set(CASES.map((c) => c.id)).size).toBe(CASES.length);
  });
});

describe.concurrent('native Claude Code vs hooks run --dialect claude-code', () => {
  for (const c of CASES) {
    const gap = KNOWN_GAPS[c.id];
    const title = `${c.id} (${c.event}): ${c.note}`;
    const body = async () => {
      const native = await runNative(c, makeWorld(c, 'native'));
      // The case must mean what it says on the native side before the runner is judged against it.
      expect(expectationProblems(c, native.effect), `native run of ${c.id}:\n${JSON.stringify(native.runs, null, 2)}`).toEqual([]);
      const world = makeWorld(c, 'runner');
      const runner = await runThroughRunner(c, world, trustProject);
      if (VIA_BIN[c.id] !== undefined) {
        const binWorld = makeWorld(c, 'runner-bin');
        const bin = await runThroughRunner(c, binWorld, trustProject, 'bin');
        const reply = (r: typeof runner, w: typeof world) => sameRoot({ exitCode: r.runs[0]!.exitCode, stdout: r.runs[0]!.stdout }, w);
        expect(reply(runner, world), `in-process and the real bin replied otherwise\nin-process stderr: ${runner.runs[0]!.stderr}\nbin stderr: ${bin.runs[0]!.stderr}`).toEqual(reply(bin, binWorld));
      }
      const deliberate = DELIBERATE[c.id];
      const diffs = differences(native.effect, runner.effect, deliberate?.fields);
      const notes = [...differences(native.effect, runner.effect), ...failureNotices(native.effect, runner.effect).map((n) => `notice: ${n}`)];
      const verdict = diffs.length > 0 ? 'differ' : notes.length > 0 ? 'deliberate' : 'agree';
      rows.push({ id: c.id, event: c.event, native: describeEffect(native.effect), runner: describeEffect(runner.effect), verdict, diffs, notes, config: runner.config.how + (runner.config.note ? `: ${runner.config.note}` : '') });
      expect(diffs, `runner reply: exit ${runner.runs[0]!.exitCode}\nstdout: ${runner.runs[0]!.stdout}\nstderr: ${runner.runs[0]!.stderr}`).toEqual([]);
    };
    if (gap !== undefined) it.fails(`KNOWN GAP (${gap}) ${title}`, body, 150_000);
    else it(title, body, 150_000);
  }
});

afterAll(() => {
  server?.close();
  if (rows.length === 0) return;
  rows.sort((a, b) => a.id.localeCompare(b.id));
  const count = (v: Row['verdict']) => rows.filter((r) => r.verdict === v).length;
  const summary = { cases: rows.length, agree: count('agree'), deliberate: count('deliberate'), differ: count('differ'), differences: rows.filter((r) => r.verdict === 'differ').map((r) => ({ id: r.id, event: r.event, native: r.native, runner: r.runner, diffs: r.diffs, config: r.config })), deliberateCases: rows.filter((r) => r.verdict === 'deliberate').map((r) => ({ id: r.id, event: r.event, why: DELIBERATE[r.id]?.why ?? 'the runner names the hook in a notice', notes: r.notes })) };
  const lines = [`claude fidelity: ${summary.agree}/${summary.cases} agree, ${summary.deliberate} deliberate, ${summary.differ} differ`];
  for (const d of summary.differences) lines.push(`  ${d.id} [${d.event}] native: ${d.native} | runner: ${d.runner}\n      ${d.diffs.join('\n      ')}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (process.env.CLAUDE_FIDELITY_SUMMARY) writeFileSync(process.env.CLAUDE_FIDELITY_SUMMARY, `${JSON.stringify(summary, null, 2)}\n`);
});
