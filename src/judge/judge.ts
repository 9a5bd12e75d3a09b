// Asks a judge model about one event: the text to send, the verdict cache, the session's request budget,
// the request itself and the reading of its answer. Every way it ends is a value: a verdict, or a named
// failure (bad-reply, over-budget, timeout, error) for the hook's onFailure to decide.
import { now } from '../clock.js';
import type { Failure } from '../reply/interpret.js';
import { askModel, hide, type Conversation, type Usage } from './ask.js';
import type { Budget } from './budget.js';
import { verdictKey, type VerdictCache } from './cache.js';
import { fillPrompt, STOP_JUDGE_SYSTEM_PROMPT, stopQuestion } from './prompt-text.js';
import { cutNote, readTranscript } from './transcript.js';
import { judgeTarget, type JudgeSettings, type Provider, type Target } from './target.js';
import { readVerdict, type Verdict } from './verdict.js';

export interface JudgeRequest {
  /** The hook's identity for the cache: where it is declared and its id. */
  identity: readonly string[];
  prompt: string;
  /** The event JSON as the hook gets it. */
  eventJson: string;
  settings: JudgeSettings;
  timeoutMs: number;
  session?: string;
  /** Requests one session may make. */
  budget: number;
  env: NodeJS.ProcessEnv;
  /** The project: a `.env` in it must not choose the endpoint (src/config/project-env.ts). */
  projectDir?: string;
  signal?: AbortSignal;
  /**
   * `hooks test`: the model's answer as recorded in the case (no request is made); `null`: the case
   * records none for this hook, which is a failure, never a network call.
   */
  recorded?: string | null;
  /** A Stop/SubagentStop prompt hook's: the judge reads the transcript first, with Claude Code's Stop prompts. */
  stop?: { transcript?: string };
  /** `type: "agent"`: a verifier with read-only tools over the project answers, in a loop (src/judge/agent). */
  agent?: AgentSpec;
}

export interface AgentSpec {
  maxTurns: number;
  /** The event's Claude Code name, for the verifier's system prompt. */
  claudeEvent: string;
  /** The project root the tools are confined to. */
  root: string;
  /** The Stop event's transcript, which the verifier may read besides the project. */
  transcript?: string;
  home?: string;
}

/** What a judged run tells the traces, `explain` and the audit log. Never holds the key. */
export interface JudgeNote {
  provider: Provider;
  model: string;
  /** `ok` / `not ok`, or absent when no verdict was read. */
  verdict?: 'ok' | 'not ok';
  /** How the verdict was had: asked, from the cache, from the test case's recording. */
  via: 'model' | 'cache' | 'recorded';
  /** Time spent on the model request (0 for a cache hit). */
  ms: number;
  inputTokens?: number;
  outputTokens?: number;
  /** An agent hook's: the model requests its verifier made. */
  turns?: number;
}

export type JudgeEnd = { ok: true; verdict: Verdict; note: JudgeNote } | { ok: false; failure: Failure; note?: JudgeNote };

export interface JudgeDeps {
  cache: VerdictCache;
  budget: Budget;
}

export async function judge(request: JudgeRequest, deps: JudgeDeps): Promise<JudgeEnd> {
  const target = judgeTarget(request.settings, request.env, request.projectDir);
  const text = fillPrompt(request.stop === undefined || request.agent !== undefined ? request.prompt : stopQuestion(request.prompt), request.eventJson);
  if (request.recorded !== undefined) {
    // A recorded answer needs no endpoint or key: hooks test runs where none is set.
    if (request.recorded === null) return { ok: false, failure: { kind: 'error', message: 'the test case records no model answer for this prompt hook (add it under "judge"), and hooks test never asks a model' } };
    const named = 'problem' in target ? { provider: request.settings.provider ?? 'anthropic', model: request.settings.model ?? 'the default model' } : { provider: target.provider, model: target.model };
    return fromAnswer(request.recorded, { ...named, via: 'recorded', ms: 0 });
  }
  if ('problem' in target) return { ok: false, failure: { kind: 'error', message: target.problem } };
  if (request.agent !== undefined) return judgeByAgent(request, request.agent, target, deps);
  const base = { provider: target.provider, model: target.model };
  const conversation = request.stop === undefined ? undefined : stopConversation(request.stop.transcript);
  const key = verdictKey([...request.identity, target.provider, target.model, target.url, text, ...(conversation === undefined ? [] : [JSON.stringify(conversation)])]);
  const hit = deps.cache.get(key);
  if (hit !== undefined) return { ok: true, verdict: hit.verdict, note: { ...base, model: hit.model, via: 'cache', ms: 0, verdict: hit.verdict.ok ? 'ok' : 'not ok' } };
  const taken = deps.budget.take(request.session, request.budget);
  if (!taken.ok) {
    return { ok: false, failure: { kind: 'over-budget', message: `this session has used its ${request.budget} judge requests (defaults.judge.budget); no request was made` }, note: { ...base, via: 'model', ms: 0 } };
  }
  const started = now();
  const end = await askModel(target, text, request.timeoutMs, request.signal, conversation);
  const ms = Math.round(now() - started);
  if (end.kind === 'timeout') return { ok: false, failure: { kind: 'timeout', message: `the ${target.provider} model ${target.model} gave no answer within ${request.timeoutMs / 1000} s` }, note: { ...base, via: 'model', ms } };
  if (end.kind === 'cancelled') return { ok: false, failure: { kind: 'signal', message: 'cancelled: the runner itself was interrupted' } };
  if (end.kind === 'error') return { ok: false, failure: { kind: 'error', message: end.message }, note: { ...base, via: 'model', ms } };
  const note: JudgeNote = { ...base, via: 'model', ms, ...usage(end.usage) };
  if (end.kind === 'refused') return { ok: false, failure: { kind: 'bad-reply', message: end.message }, note };
  const read = fromAnswer(end.text, { ...note, model: end.model }, target.secret);
  if (read.ok) deps.cache.set(key, { verdict: read.verdict, model: end.model });
  return read;
}

/**
 * An agent hook: the verifier's loop. Its verdict is cached with the tool calls it rested on; a hit
 * counts only when each of them, run again, returns what it returned (a file changed since is a miss).
 * Each model request takes one from the session's budget.
 */
async function judgeByAgent(request: JudgeRequest, agent: AgentSpec, target: Target, deps: JudgeDeps): Promise<JudgeEnd> {
  const { agentSystemPrompt } = await import('./agent/prompt-text.js');
  const { evidenceHolds, runAgent } = await import('./agent/loop.js');
  const system = agentSystemPrompt(agent.claudeEvent, agent.transcript);
  const user = fillPrompt(request.prompt, request.eventJson);
  const tools = { root: agent.root, ...(agent.home === undefined ? {} : { home: agent.home }), ...(agent.transcript === undefined ? {} : { alsoReadable: [agent.transcript] }) };
  const base = { provider: target.provider, model: target.model };
  const started = now();
  const key = verdictKey([...request.identity, 'agent', String(agent.maxTurns), agent.root, target.provider, target.model, target.url, system, user]);
  const hit = deps.cache.get(key);
  if (hit !== undefined && (await evidenceHolds(hit.evidence ?? [], tools, request.timeoutMs))) {
    return { ok: true, verdict: hit.verdict, note: { ...base, model: hit.model, via: 'cache', ms: 0, verdict: hit.verdict.ok ? 'ok' : 'not ok' } };
  }
  let refusedBudget = false;
  const end = await runAgent({
    target,
    system,
    user,
    maxTurns: agent.maxTurns,
    timeoutMs: Math.max(1, request.timeoutMs - (now() - started)),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    tools,
    take: () => {
      const taken = deps.budget.take(request.session, request.budget);
      if (!taken.ok) refusedBudget = true;
      return taken.ok;
    },
  });
  const ms = Math.round(now() - started);
  if (end.kind === 'cancelled') return { ok: false, failure: { kind: 'signal', message: 'cancelled: the runner itself was interrupted' } };
  const note: JudgeNote = { ...base, via: 'model', ms, turns: end.turns, ...usage(end.usage) };
  const said = `the ${target.provider} verifier ${target.model}`;
  if (end.kind === 'over-budget' || refusedBudget) {
    return { ok: false, failure: { kind: 'over-budget', message: `this session has used its ${request.budget} judge requests (defaults.judge.budget) after ${end.turns} of the verifier's turns; no further request was made` }, note };
  }
  if (end.kind === 'timeout') return { ok: false, failure: { kind: 'timeout', message: `${said} gave no answer within ${request.timeoutMs / 1000} s (${end.turns} turns)` }, note };
  if (end.kind === 'max-turns') return { ok: false, failure: { kind: 'max-turns', message: `${said} used its ${agent.maxTurns} turns (maxTurns) without answering` }, note };
  if (end.kind === 'error') return { ok: false, failure: { kind: 'error', message: end.message }, note };
  if (end.kind === 'refused') return { ok: false, failure: { kind: 'bad-reply', message: end.message }, note };
  const read = fromAnswer(end.text, { ...note, model: end.model }, target.secret);
  if (read.ok) deps.cache.set(key, { verdict: read.verdict, model: end.model, evidence: end.evidence });
  return read;
}

/** Claude Code's Stop judge: its system prompt, the transcript (cut from the front, said so) before the question. */
function stopConversation(file: string | undefined): Conversation {
  const read = readTranscript(file);
  const history = read?.turns ?? [];
  if (read?.cut === true && history[0] !== undefined) history[0] = { ...history[0], content: `${cutNote()}\n\n${history[0].content}` };
  return { system: STOP_JUDGE_SYSTEM_PROMPT, history };
}

function fromAnswer(answer: string, note: JudgeNote, secret?: string): JudgeEnd {
  const read = readVerdict(answer);
  if (!read.ok) return { ok: false, failure: { kind: 'bad-reply', message: hide(read.problem, secret) }, note };
  return { ok: true, verdict: read.verdict, note: { ...note, verdict: read.verdict.ok ? 'ok' : 'not ok' } };
}

function usage(u: Usage): Pick<JudgeNote, 'inputTokens' | 'outputTokens'> {
  return { ...(u.inputTokens === undefined ? {} : { inputTokens: u.inputTokens }), ...(u.outputTokens === undefined ? {} : { outputTokens: u.outputTokens }) };
}
