// The engine: loads a config once, then runs events through it. The same engine serves the CLI and the library.
import path from 'node:path';
import { loadConfigLayers, loadManagedLayer, loadUserLayer, lockedUserLayer, type ConfigLayer, type LoadedLayers } from './config/load.js';
import { lockedNote, readSwitches, switchedOff } from './config/switches.js';
import { lockState } from './lock/detect.js';
import { resolveCached } from './config/cache.js';
import { hooksFor, trustTier, type HandlerSpec, type ResolvedConfig, type ResolvedHook } from './config/resolve.js';
import type { HooksConfig } from './config/schema.js';
import { capHookOutput } from './guards/output-budget/hook-output.js';
import { DEFAULT_STOP_LOOP_LIMIT, guardStopLoop, stopLoopFiles, type StopLoopCounts } from './decide/stop-loop.js';
import { applyResult, chainEnded, finishChain, outcomeOf, startChain, type Decision, type HookResult, type Step } from './decide/combine.js';
import { eventSpec } from './events/catalog.js';
import { TOOL_WORKDIR_FIELDS } from './events/fields.js';
import { isRecord } from './json.js';
import { bagProblem, mergeBag, withBag, withoutBag, type Bag } from './metadata/bag.js';
import { fileStore, type MetadataStore } from './metadata/store.js';
import { selectHooks, type Selection } from './match/select.js';
import { failureReply, readProcessEnd, readReturnValue, rewrites, type Reading, type Reply } from './reply/interpret.js';
import { runFunction } from './run/function.js';
import type { ProcessRunner } from './run/process.js';
import type { PromptSpec } from './run/prompt.js';
import { didYouMean } from './suggest.js';
import { payloadBytes } from './run/payload-bytes.js';
import { cannotJudge, unjudgeable } from './run/unjudgeable.js';
import type { HookEvent, ObservedRun } from './types.js';
import { now } from './clock.js';
import { coversChanged } from './trust/recheck.js';

export interface LoadConfigOptions {
  /** Where the project config search starts; default `process.cwd()`. */
  cwd?: string;
  /** Use this file as the project layer instead of searching. */
  configFile?: string;
  /** Use this object as the project layer instead of reading a file. */
  config?: HooksConfig;
  /** In-process hooks, merged after the file layers. */
  handlers?: HandlerSpec[];
  /** Environment for layer lookup (`XDG_CONFIG_HOME`, `HOME`) and for hooks; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * Run as a locked runner (src/lock): only /etc/agent-hooks/managed.json is the managed layer, no cache
   * the user could write is read, and HOOKS_DISABLE / HOOKS_SKIP do not reach managed hooks. Default:
   * whether this process's runner is locked.
   */
  locked?: boolean;
  /**
   * The tools are not any agent's (`hooks mcp`: the server's own names): a `match` may name any tool,
   * as with `matchUnknownTools` on every hook.
   */
  anyTool?: boolean;
}

export interface RunOptions {
  /** Cancels the run: live hooks are killed. */
  signal?: AbortSignal;
  /** Called as each hook ends, for live traces. */
  onResult?: (result: HookResult) => void;
  /**
   * Where the session's metadata bag is kept between events: default, a private file per session in the
   * user's state dir; `memoryStore()` keeps it in this process; `null` keeps it for this run only.
   */
  metadataStore?: MetadataStore | null;
  /** Runs the command hooks; default: spawned from this process (src/run/process.ts). `hooks serve` passes its own, with spares. */
  runProcess?: ProcessRunner;
  /**
   * The environment this event's hooks get (command hooks' env, http hooks' allowedEnvVars); default the
   * runner's. `hooks serve` passes the environment of the session that sent the event.
   */
  env?: NodeJS.ProcessEnv;
  /**
   * `hooks test`: the prompt hooks' model answers, by hook id, as the case records them. Given (even
   * empty), no prompt hook asks a model: one without a recorded answer fails.
   */
  judgeAnswers?: Readonly<Record<string, string>>;
}

export interface Runner {
  readonly config: ResolvedConfig;
  /** Which hooks would run for this event, in order, and why the others would not. */
  plan(event: HookEvent): Selection<ResolvedHook>[];
  /** Runs the event through every matching hook and combines their replies. */
  run(event: HookEvent, options?: RunOptions): Promise<Decision>;
}

/**
 * Reads and validates every config layer (managed, user, project, local) and the API handlers. A project
 * or local file the search found runs only once trusted (`hooks trust`); the inline `config` object and
 * `configFile` are the caller's own choice and count as trusted.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<ResolvedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const locked = options.locked ?? lockState().locked;
  let loaded: LoadedLayers;
  if (options.config !== undefined) {
    // The inline object is the project layer: files in `cwd` are not read (the user's and managed layers still are).
    const managed = await loadManagedLayer(env, locked);
    const user = locked ? await lockedUserLayer(env) : await loadUserLayer(env);
    const layers: ConfigLayer[] = [...(managed === undefined ? [] : [managed]), ...(user === undefined ? [] : [user])];
    layers.push({ layer: 'project', file: '<inline config>', dir: cwd, config: options.config, trust: 'implicit' });
    loaded = { layers, notices: [], shadowed: [] };
  } else {
    loaded = await loadConfigLayers(options.configFile === undefined ? { cwd, env, locked } : { cwd, env, locked, configFile: options.configFile });
  }
  const resolved = await resolveCached(loaded.layers, { cwd, env, locked, ...(options.handlers === undefined ? {} : { handlers: options.handlers }), ...(options.anyTool === true ? { anyTool: true } : {}) });
  const covered = loaded.layers.flatMap((l) => (l.covers === undefined ? [] : [{ dir: l.dir, covers: l.covers }]));
  return {
    ...resolved,
    ...(locked ? { locked } : {}),
    ...(covered.length === 0 ? {} : { covered }),
    warnings: [...loaded.notices, ...resolved.warnings],
    ...(loaded.search === undefined ? {} : { search: loaded.search }),
    ...(loaded.shadowed.length === 0 ? {} : { shadowed: loaded.shadowed }),
  };
}

/** Loads the config and returns a runner for it; call `run` once per event, as often as you like. */
export async function createRunner(options: LoadConfigOptions = {}): Promise<Runner> {
  const load = async () => runnerFor(await loadConfig(options), options.env ?? process.env);
  return recheckedRunner(await load(), load);
}

/** `first`, reloaded with `load` before any event that finds a covered file changed since it was loaded. */
function recheckedRunner(first: Runner, load: () => Promise<Runner>): Runner {
  let current = first;
  let loading: Promise<Runner> | undefined;
  return {
    get config() {
      return current.config;
    },
    plan: (event) => current.plan(event),
    async run(event, options) {
      if (coversChanged(current.config.covered)) {
        // Events arriving together share one load.
        loading ??= load().finally(() => {
          loading = undefined;
        });
        current = await loading;
      }
      return current.run(event, options);
    },
  };
}

/**
 * How long a locked runner's user and project hooks may take together, from the start of the chain
 * (ms): they run before the managed ones, and a chain kept past the agent's own timeout for the entry
 * (60 s, install/managed.ts) is killed with the managed hooks unrun, which on PostToolUse lets the
 * event go on without them. Past it, a user or project hook times out (its own onFailure applies).
 */
export const lockedBudget = { ms: 30_000 };

/** A runner over an already resolved config. */
export function runnerFor(config: ResolvedConfig, env: NodeJS.ProcessEnv = process.env): Runner {
  const switches = readSwitches(env, config.locked === true);
  const { skip } = switches;
  const off = (hook: ResolvedHook) => switchedOff(switches, hook);
  // A Claude rule's `~/` is this runner's HOME (its env), not the host process's.
  const select = <H extends ResolvedHook>(hooks: readonly H[], event: HookEvent) => selectHooks(hooks, event, off, env.HOME);
  const plan = (event: HookEvent) => select(hooksFor(config, event.name), event);
  // Said on every run, in the agent's own channel: what did not run and why, and a HOOKS_SKIP that names nothing.
  const unknownSkips = [...skip].filter((id) => !config.hooks.some((h) => h.id === id));
  const notes = [
    ...config.warnings,
    ...[lockedNote(switches, config.hooks)].filter((n) => n !== undefined),
    ...(unknownSkips.length === 0 ? [] : [`HOOKS_SKIP names ${unknownSkips.map((id) => `"${id}"`).join(', ')}, which no configured hook has${didYouMean(unknownSkips[0]!, config.hooks.map((h) => h.id))}; nothing was skipped for it`]),
  ];
  const untrusted = config.layers.filter((l) => l.trust === 'untrusted');
  let files: MetadataStore | undefined;
  const defaultStore = () => (files ??= fileStore(env));
  let stopLoop: StopLoopCounts | undefined;
  // output-budget's `hookOutput`: the text every hook gives the model is held to it, on every event.
  const hookOutputCap = config.hooks.flatMap((h) => (h.enabled && h.run.kind === 'builtin' && h.run.guard === 'output-budget' && typeof (h.run.options as { hookOutput?: unknown } | undefined)?.hookOutput === 'number' ? [(h.run.options as { hookOutput: number }).hookOutput] : [])).sort((a, b) => a - b)[0];
  return {
    config,
    plan,
    async run(event, options = {}) {
      if (config.onUntrusted === 'block' && untrusted.length > 0 && eventSpec(event.name).canBlock) {
        // The user asked for it (onUntrusted: block): nothing proceeds while a project config is untrusted.
        return untrustedBlock(event, untrusted.map((l) => l.file), notes);
      }
      if (config.requiredMissing !== undefined && eventSpec(event.name).canBlock) {
        // The managed layer requires a policy it could not load: what it would have judged is not let through unjudged.
        return requiredBlock(event, config.requiredMissing, notes);
      }
      const decision = guardStopLoop(await runChain(event, options), config.stopLoopLimit ?? DEFAULT_STOP_LOOP_LIMIT, (stopLoop ??= stopLoopFiles(env)));
      decision.warnings.unshift(...notes);
      return decision;
    },
  };

  /** A locked runner's user or project hook, with its timeout cut to what is left of their budget. */
  function budgeted(hook: ResolvedHook, started: number): ResolvedHook {
    if (config.locked !== true || hook.source.layer === 'managed') return hook;
    const left = Math.max(1, Math.floor(started + lockedBudget.ms - now()));
    return left >= hook.timeoutMs ? hook : { ...hook, timeoutMs: left };
  }

  async function runChain(given: HookEvent, options: RunOptions): Promise<Decision> {
    const started = now();
    // The metadata key is the runner's: hooks see under it only what hooks of this session answered.
    const event: HookEvent = { ...given, payload: withoutBag(given.payload) };
    const session = sessionOf(event, options.metadataStore === undefined ? defaultStore() : (options.metadataStore ?? undefined));
    const notes: string[] = [];
    let bag: Bag = {};
    if (session !== undefined) {
      const loaded = session.store.load(session.id);
      bag = loaded.bag;
      if (loaded.problem !== undefined) notes.push(loaded.problem);
    }
    const changes = new Map<string, unknown>();
    const hookEnvBase = options.env ?? env;
    const unsendable = unrepresentable(event);
    if (unsendable !== undefined) notes.push(unsendable);
    /** Folds a hook's metadata into the bag; a reply that would take the bag past its limits is that hook's failure. */
    const absorb = (hook: ResolvedHook, result: HookResult): HookResult => {
      const keys = result.reply.metadata;
      if (keys === undefined || result.failure !== undefined) return result;
      const merged = mergeBag(bag, keys);
      const problem = bagProblem(merged);
      if (problem !== undefined) {
        const failure = { kind: problem.includes('over the cap') ? 'output-too-large' : 'invalid-json', message: `metadata: with this reply the session's bag would be unusable (${problem}); none of its keys were kept` } as const;
        return { ...result, reply: failureReply(failure, hook.id, hook.onFailure), failure };
      }
      bag = merged;
      for (const [key, value] of Object.entries(keys)) changes.set(key, value);
      return result;
    };
    const all = hooksFor(config, event.name);
    // Observers (audit-log) take no part in the chain: they see the whole run once it is decided.
    const hooks = all.filter((h) => !isObserver(h));
    const spec = eventSpec(event.name);
    // Judged before any hook: a guard, a copy or a serialization of an over-deep event would overflow.
    // (An event no hook would run on passes as before: there is nothing to judge.)
    const why = select(hooks, event).some((s) => s.selected) ? unjudgeable(event) : undefined;
    const batches = why !== undefined ? [] : spec.mode === 'observe' ? [hooks] : intoBatches(hooks);
    const steps: Step[] = [];
    let state = startChain(event);
    for (const [index, batch] of batches.entries()) {
      const current = state.event;
      const step = (hook: ResolvedHook, rest: Omit<Step, 'id' | 'source' | 'batch'>): Step => ({
        id: hook.id,
        source: hook.source,
        batch: index + 1,
        ...(hook.overriddenBy === undefined ? {} : { overriddenBy: hook.overriddenBy }),
        ...rest,
      });
      if (chainEnded(state) || options.signal?.aborted) {
        const why = options.signal?.aborted ? 'the run was cancelled' : `the chain ended at "${state.halted?.id ?? state.blocked?.id}"`;
        steps.push(...batch.map((hook) => step(hook, { status: 'not-reached', why })));
        continue;
      }
      // Selection is judged on the payload as rewritten so far: `if` sees what will actually run.
      const selection = select(batch, current);
      // One object per batch: hooks of a parallel batch share one serialization of it.
      const input = withBag(current.payload, bag);
      const results = await Promise.all(
        selection.map(async (s) => {
          if (!s.selected) return step(s.hook, { status: 'skipped', why: s.why });
          const result = await runHook(budgeted(s.hook, started), current, input, config, hookEnvBase, options.signal, options.runProcess, options.judgeAnswers);
          options.onResult?.(result);
          return step(s.hook, { status: 'ran', result });
        }),
      );
      steps.push(...results);
      // In config order: in a parallel batch, a later hook's keys win, as its rewrites do.
      for (const [i, s] of results.entries()) {
        if (s.result === undefined) continue;
        s.result = absorb(selection[i]!.hook, s.result);
        if (hookOutputCap !== undefined && s.result.failure === undefined) s.result = { ...s.result, reply: capHookOutput(s.result.reply, hookOutputCap) };
        state = applyResult(state, s.result);
      }
    }
    if (session !== undefined) {
      // Kept whatever the decision: what the hooks that ran learnt is true of the session even when one blocked.
      const problem = event.name === 'sessionEnd' ? session.store.remove(session.id) : changes.size > 0 ? await session.store.save(session.id, Object.fromEntries(changes)) : undefined;
      if (problem !== undefined) notes.push(problem);
    }
    const observers = select(all.filter(isObserver), event).flatMap((s) => (s.selected ? [s.hook] : []));
    steps.push(...observers.map((h): Step => ({ id: h.id, source: h.source, batch: 0, status: 'observer' })));
    const skipped = steps.flatMap((s) => (s.status === 'skipped' ? [{ id: s.id, why: s.why! }] : []));
    const decision: Decision = why !== undefined ? cannotJudge(event, why, hooks) : { ...finishChain(state, event), skipped, steps };
    decision.warnings.push(...notes);
    if (Object.keys(bag).length > 0) decision.metadata = bag;
    if (observers.length > 0) await observe(observers, event, decision, now() - started);
    return decision;
  }
}

function untrustedBlock(event: HookEvent, files: string[], notes: string[]): Decision {
  const reason = `agent-hooks: ${files.join(', ')} ${files.length === 1 ? 'is' : 'are'} not trusted, and your config says onUntrusted: block; review, then run: npx agent-hooks trust`;
  return { decision: 'block', reason, decidedBy: 'agent-hooks:trust', event, additionalContext: [], results: [], warnings: [...notes], skipped: [], steps: [] };
}

function requiredBlock(event: HookEvent, missing: string[], notes: string[]): Decision {
  const reason = `agent-hooks: the managed config requires a policy that cannot be loaded, so nothing it would judge is let through: ${missing[0]}${missing.length > 1 ? ` (+${missing.length - 1} more)` : ''}`;
  return { decision: 'block', reason, decidedBy: 'agent-hooks:requireExtends', event, additionalContext: [], results: [], warnings: [...notes], skipped: [], steps: [] };
}

// --- internal ---

function isObserver(hook: ResolvedHook): boolean {
  return hook.run.kind === 'builtin' && hook.run.observer !== undefined;
}

/** Hands the finished run to each observer; a failing observer is a warning, never a changed decision. */
async function observe(observers: ResolvedHook[], original: HookEvent, decision: Decision, ms: number): Promise<void> {
  const run: ObservedRun = {
    event: original,
    decision: decision.decision,
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    ...(decision.decidedBy === undefined ? {} : { decidedBy: decision.decidedBy }),
    ms: Math.round(ms),
    hooks: decision.results.map((r) => ({
      id: r.id,
      source: r.source,
      outcome: outcomeOf(r.reply),
      ms: r.ms,
      ...(r.reply.reason === undefined ? {} : { reason: r.reply.reason }),
      ...(r.failure === undefined ? {} : { failure: r.failure }),
      ...(r.wouldHave === undefined ? {} : { wouldHave: { outcome: outcomeOf(r.wouldHave), ...(r.wouldHave.reason === undefined ? {} : { reason: r.wouldHave.reason }) } }),
      ...(r.judge === undefined ? {} : { judge: r.judge }),
    })),
  };
  for (const hook of observers) {
    try {
      if (hook.run.kind === 'builtin') await hook.run.observer?.(run);
    } catch (error) {
      decision.warnings.push(`hook "${hook.id}" could not record the run: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/**
 * Adjacent `parallel: true` hooks of one trust tier form one batch; every other hook is a batch of its
 * own. A batch never spans tiers: a user guard must see what a project hook rewrote.
 */
function intoBatches(hooks: ResolvedHook[]): ResolvedHook[][] {
  const batches: ResolvedHook[][] = [];
  for (const hook of hooks) {
    const last = batches.at(-1);
    if (hook.parallel && last !== undefined && last[0]!.parallel && trustTier(last[0]!.source.layer) === trustTier(hook.source.layer)) last.push(hook);
    else batches.push([hook]);
  }
  return batches;
}

async function runHook(
  hook: ResolvedHook,
  event: HookEvent,
  /** What a command or API hook receives: the payload with the session's metadata bag. */
  input: HookEvent['payload'],
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
  given: ProcessRunner | undefined,
  judgeAnswers: Readonly<Record<string, string>> | undefined,
): Promise<HookResult> {
  const spec = eventSpec(event.name);
  // Loaded on first use, and before the clock starts: a config of builtins only never loads the process runner.
  const run = hook.run;
  const runProcess = run.kind === 'command' && run.async !== true ? (given ?? (await import('./run/process.js')).runProcess) : undefined;
  const started = now();
  let reading: Reading;
  let judged: HookResult['judge'];
  if (run.kind === 'prompt') {
    const { runPrompt, judgeDeps, judgeSettings } = await import('./run/prompt.js');
    const session = event.payload.session_id;
    const ended = await runPrompt(
      {
        identity: [hook.source.file ?? hook.source.layer, hook.source.key, hook.id, run.prompt],
        prompt: run.prompt,
        eventJson: JSON.stringify(input),
        settings: judgeSettings(config.judge, run.judge),
        projectDir: config.projectDir,
        timeoutMs: hook.timeoutMs,
        ...(typeof session === 'string' && session !== '' ? { session } : {}),
        ...(config.judge?.budget === undefined ? {} : { budget: config.judge.budget }),
        env,
        ...(signal === undefined ? {} : { signal }),
        ...(judgeAnswers === undefined ? {} : { recorded: Object.hasOwn(judgeAnswers, hook.id) ? judgeAnswers[hook.id]! : null }),
        continueOnBlock: run.continueOnBlock === true,
        ...(run.agent === undefined ? {} : { agent: agentSpec(run.agent.maxTurns, spec.claude, config.projectDir, input, env) }),
        ...(run.agent === undefined && (spec.claude === 'Stop' || spec.claude === 'SubagentStop') ? { stop: typeof input.transcript_path === 'string' ? { transcript: input.transcript_path } : {} } : {}),
      },
      spec,
      judgeDeps(env, config.locked !== true),
    );
    reading = ended.reading;
    judged = ended.judge;
  } else if (run.kind === 'command' && run.async === true) {
    // Claude Code's `async`: started and not waited for; it cannot block or rewrite (src/run/background.ts).
    const { runBackground } = await import('./run/background.js');
    const started = runBackground({
      command: run.command,
      ...(run.args === undefined ? {} : { args: run.args }),
      cwd: hook.cwd,
      env: hookEnv(hook, event, config, env),
      input: payloadBytes(event.payload),
      timeoutMs: hook.timeoutMs,
    });
    reading = started.started ? { ok: true, reply: { decision: 'continue' } } : { ok: false, failure: { kind: 'not-found', message: started.message } };
  } else if (run.kind === 'command') {
    const end = await runProcess!({
      command: run.command,
      ...(run.args === undefined ? {} : { args: run.args }),
      ...(run.shell === undefined ? {} : { shell: run.shell }),
      cwd: hook.cwd,
      env: hookEnv(hook, event, config, env),
      // One buffer per distinct payload, shared by every hook that gets it (memory must not grow with hooks).
      input: payloadBytes(input),
      timeoutMs: hook.timeoutMs,
      ...(signal === undefined ? {} : { signal }),
    });
    reading = readProcessEnd(end, spec);
  } else if (run.kind === 'mcp_tool') {
    // Loaded only for an mcp_tool hook: the MCP SDK costs nothing to the other runs.
    const { runMcpTool } = await import('./run/mcp-tool.js');
    reading = await runMcpTool(
      {
        server: run.server,
        tool: run.tool,
        input: run.input,
        ...(run.target === undefined ? {} : { target: run.target }),
        ...(run.missing === undefined ? {} : { missing: run.missing }),
        event: event.payload,
        timeoutMs: hook.timeoutMs,
        env: hookEnv(hook, event, config, env) as NodeJS.ProcessEnv,
        ...(signal === undefined ? {} : { signal }),
        ...(judgeAnswers === undefined ? {} : { recorded: Object.hasOwn(judgeAnswers, hook.id) ? judgeAnswers[hook.id]! : null }),
      },
      spec,
    );
  } else if (run.kind === 'http') {
    const { runHttp } = await import('./run/http.js');
    reading = await runHttp(
      { url: run.url, headers: run.headers, allowedEnvVars: run.allowedEnvVars, body: payloadBytes(event.payload), timeoutMs: hook.timeoutMs, env, ...(signal === undefined ? {} : { signal }) },
      spec,
    );
  } else {
    const context = event.tool === undefined ? { event: event.name } : { event: event.name, tool: event.tool.canonical };
    const end = await runFunction(run.handler, run.kind === 'builtin' ? guardInput(event.payload) : input, context, hook.timeoutMs, signal);
    reading =
      end.kind === 'returned'
        ? readReturnValue(end.value, spec)
        : end.kind === 'timeout'
          ? readProcessEnd({ kind: 'timeout', timeoutMs: hook.timeoutMs }, spec)
          : { ok: false, failure: { kind: 'error', message: end.message } };
  }
  const ms = Math.round(now() - started);
  const base = { id: hook.id, source: hook.source, ms, ...(judged === undefined ? {} : { judge: judged }) };
  // Shadow (audit) mode: the hook runs, what it would have done is reported, nothing changes.
  const audit = hook.audit ?? (run.kind === 'builtin' && run.audit);
  if (!reading.ok) {
    const failClosed = reading.failure.kind === 'over-budget' && run.kind === 'prompt' && run.overBudgetBlocks === true;
    // The agent can spend a budget on purpose, so a guard that sets no onFailure blocks then (docs/model-judged.md).
    const reply = failClosed ? failureReply(reading.failure, hook.id, 'block', 'a spent budget blocks unless the hook sets onFailure') : failureReply(reading.failure, hook.id, hook.onFailure);
    if (audit) return { ...base, reply: { decision: 'continue' }, failure: reading.failure, ...(reply.decision === 'continue' ? {} : { wouldHave: reply }) };
    return { ...base, reply, failure: reading.failure };
  }
  const reply = reading.reply;
  if (audit && hasEffect(reply)) return { ...base, reply: { decision: 'continue' }, wouldHave: reply };
  return { ...base, reply };
}

/**
 * An agent hook's verifier: its tools confined to the project; on an event that names its transcript
 * (a `.jsonl` file, as Claude Code's are), that file is readable too, as Claude Code's verifier may.
 */
function agentSpec(maxTurns: number, claudeEvent: string, root: string, input: HookEvent['payload'], env: NodeJS.ProcessEnv): NonNullable<PromptSpec['agent']> {
  const transcript = input.transcript_path;
  return {
    maxTurns,
    claudeEvent,
    root,
    ...(typeof transcript === 'string' && transcript.endsWith('.jsonl') && path.isAbsolute(transcript) ? { transcript } : {}),
    ...(env.HOME ? { home: env.HOME } : {}),
  };
}

/**
 * The environment of a command hook: the runner's, the project folder, the event, then the hook's own.
 * Python writes no bytecode cache: trust covers `__pycache__` (a planted `.pyc` runs instead of the
 * source), so a cache a hook's own run wrote would untrust its config. The server's token is never passed on (a hook is not the server's client). A NUL cannot be in an
 * environment (the spawn would fail, and a failed spawn must not let the event through): it is removed
 * from values, and a name holding one, or `=`, is dropped. `unrepresentable` says so in the run's report.
 */
function hookEnv(hook: ResolvedHook, event: HookEvent, config: ResolvedConfig, env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const all: Record<string, string | undefined> = {
    ...env,
    CLAUDE_PROJECT_DIR: env.CLAUDE_PROJECT_DIR ?? config.projectDir,
    HOOKS_PROJECT_DIR: config.projectDir,
    HOOKS_EVENT: event.name,
    HOOKS_TOOL: event.tool?.canonical ?? '',
    PYTHONDONTWRITEBYTECODE: '1',
    ...hook.env,
    [TOKEN_VARIABLE]: undefined,
  };
  for (const [name, value] of Object.entries(all)) {
    if (name === '' || name.includes('\0') || name.includes('=')) delete all[name];
    else if (value?.includes('\0')) all[name] = value.replaceAll('\0', '');
  }
  return all;
}

/** The server's token variable (src/install/serve.ts TOKEN_ENV), kept out of every hook's environment. */
const TOKEN_VARIABLE = 'AGENT_HOOKS_TOKEN';

/** What of the event reaches a hook's environment with a NUL removed, said in the run's report; undefined when nothing. */
function unrepresentable(event: HookEvent): string | undefined {
  const tool = event.tool?.canonical;
  if (tool === undefined || !tool.includes('\0')) return undefined;
  return `the tool name ${JSON.stringify(tool)} holds a NUL byte, which no environment can: HOOKS_TOOL is ${JSON.stringify(tool.replaceAll('\0', ''))} for the command hooks`;
}

/** True when applying the reply would change anything: a decision, a rewrite, context, a message or metadata. */
function hasEffect(reply: Reply): boolean {
  return reply.decision !== 'continue' || rewrites(reply) || reply.additionalContext !== undefined || reply.systemMessage !== undefined || reply.passthrough !== undefined || reply.metadata !== undefined;
}

/** The session the event belongs to, when it names one and there is a store to keep its bag. */
function sessionOf(event: HookEvent, store: MetadataStore | undefined): { id: string; store: MetadataStore } | undefined {
  const id = event.payload.session_id;
  if (store === undefined || typeof id !== 'string' || id === '') return undefined;
  return { id, store };
}

/**
 * The payload a builtin guard judges: with the tool's own working directory as `cwd` when the tool
 * input names one (Codex's `workdir`, Gemini's `dir_path` / `directory`), so `rm -rf ./*` with
 * `dir_path: "$HOME"` is judged where it runs, not where the session started. A working directory
 * that is there but not a string cannot be judged: the guards get no `cwd` and treat relative paths
 * as they do without one.
 */
function guardInput(payload: HookEvent['payload']): HookEvent['payload'] {
  const toolInput = payload.tool_input;
  if (!isRecord(toolInput)) return payload;
  for (const field of TOOL_WORKDIR_FIELDS) {
    const value = toolInput[field];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') return { ...payload, cwd: undefined };
    const base = typeof payload.cwd === 'string' ? payload.cwd : '/';
    return { ...payload, cwd: path.posix.resolve(base, value) };
  }
  return payload;
}
