// Validates config layers and merges them into one ordered list of resolved hooks, each knowing where it came from.
import path from 'node:path';
import type { z } from 'zod';
import { HooksError } from '../errors.js';
import { aliasNote, EVENTS, eventFor, eventSpec, findEvent, type EventSpec } from '../events/catalog.js';
import { EVENT_GROUPS, eventsOfKey, findEventGroup, keySpecificity } from '../events/groups.js';
import { isOverride, noEventMessage, wildcardApplies } from './wildcard.js';
import { GUARD_IDS, loadGuard } from '../guards/index.js';
import { checkToolPattern, type Matchable } from '../match/select.js';
import { didYouMean } from '../suggest.js';
import type { EventName, Guard, GuardContext, HandlerFn, ObservedRun } from '../types.js';
import type { ConfigLayer, ExtendsStep, LayerName, SearchReport, TrustState } from './load.js';
import type { CoveredLayer } from '../trust/recheck.js';
import { unknownIfFields } from '../match/fields.js';
import type { ConfigSchema as ConfigSchemaType, HandlerSchema } from './schema.js';
import { expandClaudeShape } from './claude-shape.js';
import { defaultTimeoutSeconds } from './claude-defaults.js';
import { idFromCommand } from './hook-id.js';
import type { JudgeSettings } from '../judge/target.js';
import type { TelemetryConfig } from '../telemetry/settings.js';
import type { McpTarget } from '../mcp/target.js';
import { DEFAULT_MAX_TURNS } from '../judge/agent/limits.js';

/** Claude Code's default timeout of an agent hook's whole verifier loop, in seconds. */
const AGENT_TIMEOUT_SECONDS = 60;
import { claudeMatcherProblems, claudeMatcherToMatch, MATCHER_FIELDS } from '../match/claude-matcher.js';

/** The timeout of a builtin guard or an in-process handler (command and http hooks: see claude-defaults.ts). */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** Where a hook was declared: the layer, the file and the key path inside it. */
export interface HookSource {
  layer: LayerName;
  file?: string;
  /** e.g. `hooks.preToolUse[2]`. */
  key: string;
  /** Came through `extends`: the file that named each entry and the entry, from the layer's own file outwards. */
  via?: ExtendsStep[];
}

export type HookRun =
  | {
      kind: 'command';
      command: string;
      args?: string[];
      /** Claude Code's `shell: "powershell"` (shell form only); absent: the POSIX shell. */
      shell?: 'powershell';
      /** Claude Code's `async`: started, not waited for; it cannot block or rewrite. */
      async?: true;
      statusMessage?: string;
    }
  | { kind: 'http'; url: string; headers: Record<string, string>; allowedEnvVars: string[]; statusMessage?: string }
  /**
   * Claude Code's `prompt`: a model judges the event (src/judge). `judge` holds what the hook and its
   * file say; the user's and managed defaults (`ResolvedConfig.judge`) fill the rest at run time.
   */
  | {
      kind: 'prompt';
      prompt: string;
      judge: JudgeSettings;
      continueOnBlock?: true;
      statusMessage?: string;
      /** An intercepting event, no onFailure said: a spent budget blocks (the agent can spend it on purpose). */
      overBudgetBlocks?: true;
      /** Claude Code's `agent`: a verifier with read-only tools over the project answers, in up to `maxTurns` requests. */
      agent?: { maxTurns: number };
    }
  /**
   * Claude Code's `mcp_tool`: `tool` of the MCP server `server` is called with `input` (its strings take
   * `${path}` from the event). `target` is the server as the config that may name it for this hook defines
   * it; absent, `missing` says why (the call is then a failure, as Claude Code's "not connected").
   */
  | { kind: 'mcp_tool'; server: string; tool: string; input: Record<string, unknown>; target?: McpTarget; missing?: string; statusMessage?: string }
  | {
      kind: 'builtin';
      guard: string;
      audit: boolean;
      /** The options as the guard's schema parsed them. */
      options: unknown;
      handler: HandlerFn;
      observer?: (run: ObservedRun) => void | Promise<void>;
    }
  | { kind: 'function'; handler: HandlerFn };

/** A hook ready to run: every default applied, every path absolute. */
export interface ResolvedHook extends Matchable {
  id: string;
  event: EventName;
  source: HookSource;
  run: HookRun;
  priority: number;
  timeoutMs: number;
  onFailure: 'block' | 'continue';
  parallel: boolean;
  env: Record<string, string>;
  cwd: string;
  /** What `hooks list` should say about how this hook runs (Claude Code keys read differently, hooks that are never run). */
  notes?: string[];
  /** Shadow (audit) mode: it runs, its answer is reported, never applied. */
  audit?: boolean;
  /** The wildcard key (`*`, `group:tool`) it was configured under, when not its event's own key. */
  scope?: string;
  /** `matchUnknownTools`: its `match` names tools no table has (plugin tools, bare MCP names); not probed. */
  matchUnknownTools?: boolean;
}

/** One layer as the run sees it: where it is, whether it is trusted, whether its hooks run and why not. */
export interface LayerState {
  layer: LayerName;
  file: string;
  trust: TrustState;
  /** False when its hooks do not run (untrusted, or broken). */
  active: boolean;
  /** Why it is not active: one line naming the file (and key). */
  problem?: string;
  /** Every problem found in it, one line each, when it was switched off for them. */
  issues?: string[];
  /** A file reached through `extends` (see HookSource.via). */
  via?: ExtendsStep[];
}

export interface ResolvedConfig {
  /** The files that were found, in merge order, with their trust state. */
  layers: LayerState[];
  /** Where hooks run and what `HOOKS_PROJECT_DIR` says: the project config's folder, else the working directory. */
  projectDir: string;
  /** Every hook of every event, in run order within each event. */
  hooks: ResolvedHook[];
  /**
   * What the user and the agent must hear on every run, one line each: untrusted or broken project
   * files, refused overrides, skipped files. Never empty silently: each names a file.
   */
  warnings: string[];
  /** What an untrusted project config means for a run: a warning (default) or a block. User and managed layers only. */
  onUntrusted: 'warn' | 'block';
  /** Stop blocks in a row with `stop_hook_active` before the runner lets the stop through (src/decide/stop-loop.ts); absent: the default. */
  stopLoopLimit?: number;
  /** Loaded by a locked runner (src/lock): the switches do not reach managed hooks. */
  locked?: boolean;
  /** The prompt hooks' defaults from the user and managed layers (managed first): endpoint, key variable, budget, provider, model. */
  judge?: JudgeSettings & { budget?: number };
  /** The `telemetry` key of the user and managed layers (managed keys win); a project file's is ignored with a warning. */
  telemetry?: TelemetryConfig;
  /** Where the project search looked (absent with `--config` or an inline config). */
  search?: SearchReport;
  /** Config files in the project folder that the one used shadows. */
  shadowed?: string[];
  /** The files the project layers' trust covers, as they were when loaded: a runner kept for many events re-checks them (src/trust/recheck.ts). */
  covered?: CoveredLayer[];
  /**
   * Policies the managed layer's `requireExtends` names that could not be loaded, one line each: while any
   * is missing, every event that can be blocked is blocked (a required policy fails closed).
   */
  requiredMissing?: string[];
}

/** An in-process hook registered through the library API. */
export interface HandlerSpec {
  event: EventName | string;
  id: string;
  handler: HandlerFn;
  match?: string | string[];
  /** `match` names tools no table has (plugin tools, bare MCP names): its patterns are not probed. */
  matchUnknownTools?: boolean;
  if?: Record<string, string | string[]>;
  priority?: number;
  /** Seconds. */
  timeout?: number;
  onFailure?: 'block' | 'continue';
  parallel?: boolean;
  enabled?: boolean;
  /** Shadow (audit) mode: runs, reports its answer, changes nothing. */
  audit?: boolean;
}

const LAYER_RANK: Record<LayerName, number> = { managed: 0, user: 1, defaults: 1, project: 2, local: 3, api: 4, cli: 5 };

/** Where the default guards come from, as traces and the audit log name it. */
export const DEFAULTS_FILE = '<built-in defaults>';

/** The first-party guards on the events they act on: what runs when no config does. */
export const DEFAULT_GUARDS = {
  hooks: {
    preToolUse: [{ builtin: 'command-safety' }, { builtin: 'sensitive-paths' }],
    postToolUse: [{ builtin: 'redact-secrets' }],
    userPromptSubmit: [{ builtin: 'redact-secrets' }],
  },
};

/**
 * Trust tiers, lowest first. A chain runs tier by tier from the lowest: so every user and managed hook
 * judges the payload as the lower tiers left it, whatever they rewrote and whatever priority they claimed.
 */
export function trustTier(layer: LayerName): number {
  return layer === 'managed' ? 2 : layer === 'user' || layer === 'defaults' ? 1 : 0;
}

/**
 * Validates every layer and merges them. Errors in a layer the user chose (managed, user, `--config`,
 * inline, API) throw one `CONFIG_INVALID` error listing every problem; a project or local file the
 * search found is only switched off, with its first problem in `warnings`: a repository can never turn
 * the user's guards off by shipping a broken file.
 */
export async function resolveConfig(
  layers: readonly ConfigLayer[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; handlers?: readonly HandlerSpec[]; locked?: boolean; anyTool?: boolean },
): Promise<ResolvedConfig> {
  const anyTool = options.anyTool === true;
  const project = layers.find((l) => l.layer === 'project');
  const projectDir = project?.dir ?? options.cwd;
  const guardContext: GuardContext = { projectDir, ...(project === undefined ? {} : { configDir: project.dir }), env: options.env ?? process.env };
  const fatal: string[] = [];
  const warnings: string[] = [];
  const hooks: ResolvedHook[] = [];
  const states: LayerState[] = [];
  let onUntrusted: 'warn' | 'block' = 'warn';
  let stopLoop: { limit: number; tier: number } | undefined;
  let judge: (JudgeSettings & { budget?: number }) | undefined;
  let telemetry: TelemetryConfig | undefined;
  const servers: LayerServers[] = [];

  const requiredMissing: string[] = [];
  for (const top of layers) {
    // What a file extends is merged under its layer, before it (ESLint's and lefthook's order): its own
    // hooks come after those of the files it extends, and it may change theirs (an entry with their id).
    // Its state is listed first, so the layer's own file is the one a search for the layer finds.
    const group = [...(top.extended ?? []), top];
    const groupStates = group.map((l): LayerState => ({ layer: l.layer, file: l.file, trust: l.trust ?? 'implicit', active: false, ...(l.via === undefined ? {} : { via: l.via }) }));
    states.push(groupStates.at(-1)!, ...groupStates.slice(0, -1));
    const groupHooks: ResolvedHook[] = [];
    const activated: { layer: ConfigLayer; result: Awaited<ReturnType<typeof resolveLayer>> }[] = [];
    for (const [index, layer] of group.entries()) {
    const trust = layer.trust ?? 'implicit';
    const state = groupStates[index]!;
    if (layer.problem !== undefined || layer.config === undefined) {
      state.problem = layer.problem ?? `${layer.file}: not read`;
      if (layer.required === true) requiredMissing.push(state.problem);
      warnings.push(trust === 'untrusted' ? state.problem : `${state.problem}; its hooks do not run (${layer.via === undefined ? 'the user and managed layers still do' : 'the rest of the config still runs'})`);
      continue;
    }
    const issues: string[] = [];
    const result = await resolveLayer(layer, projectDir, guardContext, [...hooks, ...groupHooks], issues, warnings, anyTool);
    if (issues.length > 0) {
      // Locked (src/lock), the user's own layer is theirs to break: an error there must not stop the
      // managed hooks (a runner error on an event without --on-error block lets it go on), so it is
      // switched off like a project file. A file it extends (a package, a pinned repository) is switched
      // off alone: it is not the user's own text.
      if (trust === 'implicit' && layer.via === undefined && !(options.locked === true && layer.layer === 'user')) fatal.push(...issues);
      else {
        const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : '';
        state.problem = `${issues[0]}${more}`;
        state.issues = issues;
        if (layer.required === true) requiredMissing.push(state.problem);
        const what = layer.via !== undefined ? 'this extended file' : layer.layer === 'local' ? 'this file' : layer.layer === 'user' ? 'your user config' : 'this project config';
        warnings.push(`${state.problem}; ${what} is switched off (${layer.layer === 'user' && layer.via === undefined ? 'this runner is locked: the managed layer still runs' : 'the user and managed layers still run'})`);
        // A file switched off takes what it extends with it: they were merged in for it.
        if (layer === top) for (const s of groupStates) s.active = false;
        if (layer === top) activated.length = 0;
      }
      continue;
    }
    state.active = true;
    groupHooks.push(...result.hooks);
    activated.push({ layer, result });
    }
    for (const { layer, result } of activated) {
    const trust = layer.trust ?? 'implicit';
    hooks.push(...result.hooks);
    if (result.servers !== undefined) servers.push({ layer: layer.layer, file: layer.file, servers: result.servers });
    for (const apply of result.overrides) apply();
    // A runaway-loop limit: set only by the user and managed layers (the most trusted that sets it
    // decides), or a config the user named themselves (command line, inline: trust 'implicit'). A
    // repository's limit is ignored both ways: raised, it could keep the agent looping; lowered, it cuts
    // the user's own Stop guard short (e.g. "run the tests before you stop").
    const limit = (layer.config as { defaults?: { stopLoopLimit?: number } }).defaults?.stopLoopLimit;
    if (limit !== undefined && layer.layer !== 'user' && layer.layer !== 'managed' && trust !== 'implicit') {
      warnings.push(`${layer.file}: defaults.stopLoopLimit is read only from your user config, the managed config or a config you name (--config); a repository's is ignored`);
    } else if (limit !== undefined && (stopLoop === undefined || trustTier(layer.layer) > stopLoop.tier)) stopLoop = { limit, tier: trustTier(layer.layer) };
    // The judge's endpoint, key and budget are the user's (or the managed config's): the managed layer's keys win.
    const judgeDefaults = (layer.config as { defaults?: { judge?: JudgeSettings & { budget?: number } } }).defaults?.judge;
    if (judgeDefaults !== undefined && (layer.layer === 'user' || layer.layer === 'managed')) judge = layer.layer === 'managed' ? { ...judge, ...judgeDefaults } : { ...judgeDefaults, ...judge };
    // Where the user's events are sent is theirs to choose (or the managed config's): a repository's key is ignored.
    const telemetryKey = (layer.config as { telemetry?: TelemetryConfig }).telemetry;
    if (telemetryKey !== undefined && layer.layer !== 'user' && layer.layer !== 'managed') warnings.push(`${layer.file}: telemetry is read only from your user config or the managed config (a repository must not send your events elsewhere); ignored`);
    else if (telemetryKey !== undefined) telemetry = layer.layer === 'managed' ? { ...telemetry, ...telemetryKey } : { ...telemetryKey, ...telemetry };
    if (result.onUntrusted !== undefined && (layer.layer === 'user' || layer.layer === 'managed')) {
      // The managed layer has the last word.
      if (layer.layer === 'managed' || !layers.some((l) => l.layer === 'managed' && (l.config as { onUntrusted?: unknown } | undefined)?.onUntrusted !== undefined)) onUntrusted = result.onUntrusted;
    }
    }
  }

  // With no config that runs, the first-party guards run on the events they act on (as OpenClaw
  // registers its own). An untrusted or broken project file does not count as a config: otherwise a
  // repository could switch the defaults off by planting any `.hooksrc.json`.
  if (!states.some((s) => s.active) && options.handlers === undefined) {
    const defaults: ConfigLayer = { layer: 'defaults', file: DEFAULTS_FILE, dir: projectDir, config: DEFAULT_GUARDS };
    const result = await resolveLayer(defaults, projectDir, guardContext, hooks, fatal, warnings, anyTool);
    hooks.push(...result.hooks);
  }

  for (const [index, spec] of (options.handlers ?? []).entries()) {
    const at = (msg: string) => `handlers[${index}] (${spec.id}): ${msg}`;
    const found = eventFor(spec.event);
    if (!found.ok) {
      fatal.push(at(found.message));
      continue;
    }
    const event = found.spec;
    const hook: ResolvedHook = {
      id: spec.id,
      event: event.name,
      source: { layer: 'api', key: `handlers[${index}]` },
      run: { kind: 'function', handler: spec.handler },
      enabled: spec.enabled ?? true,
      priority: spec.priority ?? 0,
      timeoutMs: (spec.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
      onFailure: spec.onFailure ?? 'continue',
      parallel: spec.parallel ?? false,
      env: {},
      cwd: projectDir,
      ...(spec.audit === true ? { audit: true } : {}),
      ...matching(spec),
    };
    fatal.push(...checkMatching(hook, mayHaveTool(event), anyTool).map(at));
    hooks.push(hook);
  }

  bindServers(hooks, servers);

  if (fatal.length > 0) {
    const more = fatal.length > 1 ? ` (+${fatal.length - 1} more)` : '';
    const file = layers.find((l) => fatal[0]!.startsWith(`${l.file}: `))?.file;
    throw new HooksError('CONFIG_INVALID', `${fatal[0]}${more}`, file === undefined ? { issues: fatal } : { issues: fatal, file });
  }
  return { layers: states, projectDir, hooks: order(hooks), warnings, onUntrusted, ...(stopLoop === undefined ? {} : { stopLoopLimit: stopLoop.limit }), ...(judge === undefined ? {} : { judge }), ...(telemetry === undefined ? {} : { telemetry }), ...(requiredMissing.length === 0 ? {} : { requiredMissing }) };
}

/** What `list` and `doctor` say of a hook filed under an event the catalog does not know. */
export const UNKNOWN_EVENT_MATCH_NOTE = 'match: tested against the tool_name the agent sends with this event; when it sends none, the hook does not run';

/**
 * Whether hooks of this event may name a tool: a tool event, or one agent-hooks does not know (a newer
 * agent's tool event carries its tool_name; refusing the matcher would switch off the whole layer).
 */
function mayHaveTool(spec: EventSpec): boolean {
  return spec.tool || !spec.known;
}

export const UNKNOWN_EVENT_NOTE = 'not an event agent-hooks knows; runs only if an agent sends it (then a block is passed on as the agent\'s generic block, exit 2)';

/**
 * The hooks of one event, in run order. An event the catalog does not know (a newer agent's) also runs
 * the wildcard hooks whose key takes it (`*`, `group:observe`, `group:blocking`): they were resolved once
 * per catalog event, so one copy of each stands in, renamed to this event.
 */
export function hooksFor(config: ResolvedConfig, event: EventName): ResolvedHook[] {
  const own = config.hooks.filter((h) => h.event === event);
  const spec = eventSpec(event);
  if (spec.known) return own;
  const seen = new Set<string>();
  const wild = config.hooks.filter((h) => {
    if (h.scope === undefined || findEventGroup(h.scope)?.includes(spec) !== true) return false;
    const key = `${h.source.file ?? h.source.layer}\0${h.scope}\0${h.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [...own, ...wild.map((h) => ({ ...h, event }))];
}

/** A builtin guard ready to run, from options its schema already parsed. */
export function builtinRun(guard: Guard<any>, options: unknown, audit: boolean, context: GuardContext): HookRun {
  const run: HookRun = { kind: 'builtin', guard: guard.id, audit, options, handler: guard.create(options, context) };
  if (guard.observe !== undefined) run.observer = guard.observe(options, context);
  return run;
}

// --- internal ---

/** One layer's hooks and overrides, not yet merged: a layer with issues contributes nothing. */
async function resolveLayer(
  layer: ConfigLayer,
  projectDir: string,
  guardContext: GuardContext,
  earlier: readonly ResolvedHook[],
  issues: string[],
  warnings: string[],
  anyTool: boolean,
): Promise<{ hooks: ResolvedHook[]; overrides: (() => void)[]; onUntrusted?: 'warn' | 'block'; servers?: Map<string, McpTarget> }> {
  const hooks: ResolvedHook[] = [];
  const overrides: (() => void)[] = [];
  const prefix = layer.keyPrefix ?? '';
  // Loaded only when there is a layer to check: a run without config (or from the cache) skips zod.
  const { ConfigSchema, CONFIG_KEYS } = await import('./schema.js');
  // Claude Code's matcher groups become one entry per handler; what cannot run is said, not an error.
  const expanded = expandClaudeShape(layer.config, layer.file, prefix);
  warnings.push(...expanded.warnings);
  const keyOf = (eventKey: string, index: number) => `${prefix}${expanded.keys.get(eventKey)?.[index] ?? `hooks.${eventKey}[${index}]`}`;
  const parsed = ConfigSchema.safeParse(expanded.config);
  if (!parsed.success) {
    for (const raw of parsed.error.issues) {
      const issue = originalPath(raw, expanded.keys);
      if (issue.path.length === 0 && issue.code === 'invalid_type' && prefix === '') {
        issues.push(`${layer.file}: a config file holds one object, e.g. {"hooks": {"preToolUse": [...]}}; this one holds ${Array.isArray(layer.config) ? 'a list' : typeof layer.config}`);
        continue;
      }
      const { keyPath, message } = describeIssue(issue, CONFIG_KEYS, prefix !== '');
      const key = `${prefix}${keyPath.slice(1)}`;
      issues.push(`${layer.file}: ${key === '' ? '' : `${key.replace(/\.$/, '')}: `}${message}`);
    }
    return { hooks, overrides };
  }
  if (parsed.data.requireExtends !== undefined && (layer.layer !== 'managed' || layer.via !== undefined)) {
    issues.push(`${layer.file}: ${prefix}requireExtends: only the managed config itself may set this`);
  }
  if (parsed.data.onUntrusted !== undefined && layer.layer !== 'user' && layer.layer !== 'managed') {
    issues.push(`${layer.file}: ${prefix}onUntrusted: only the user or managed layer may set this`);
  }
  const defaults = parsed.data.defaults ?? {};
  const userOwned = layer.layer === 'user' || layer.layer === 'managed';
  // A repository must not choose where the judge's requests, and the user's key, are sent, nor spend the user's budget.
  for (const key of ['endpoint', 'apiKeyEnv', 'apiKeyFile', 'budget'] as const) {
    if (defaults.judge?.[key] !== undefined && !userOwned) issues.push(`${layer.file}: ${prefix}defaults.judge.${key}: only your user config or the managed config may set this (a project config must not choose where the judge's requests and your API key go)`);
  }
  const usedIds = new Set<string>();
  // A wildcard key (`*`, `group:tool`) stands for each of its events: its hooks are resolved once per event they fit.
  const lists = Object.entries(parsed.data.hooks ?? {}).flatMap(([eventKey, entries]) => eventsOfKey(eventKey).map((spec) => [eventKey, entries, spec] as const));
  const wildcards = new Map<string, { eventKey: string; entry: Entry; applied: boolean }>();
  for (const [eventKey, entries, spec] of lists) {
    if (entries === undefined) continue;
    const wildcard = keySpecificity(eventKey) > 0;
    for (const [index, entry] of entries.entries()) {
      const key = keyOf(eventKey, index);
      const at = (msg: string) => `${layer.file}: ${key}${msg.startsWith('.') ? '' : ': '}${msg}`;
      if (wildcard) {
        const use = wildcards.get(key) ?? { eventKey, entry, applied: false };
        wildcards.set(key, use);
        const overridable = (event: EventName) => layer.layer !== 'local' || entry.id === undefined || earlier.some((h) => h.id === entry.id && h.event === event);
        if (!(await wildcardApplies(entry, spec, overridable))) continue;
        use.applied = true;
      }
      if (isOverride(entry)) {
        // A local file changes the project's hooks; any other file only those of the files it extends.
        const targets = earlier.filter((h) => h.id === entry.id && h.event === spec.name && (layer.layer === 'local' || h.source.via?.some((s) => s.file === layer.file) === true));
        const protectedTargets = targets.filter((h) => trustTier(h.source.layer) > trustTier(layer.layer));
        if (protectedTargets.length > 0) {
          // A repository may not switch off, re-match or re-condition the user's (or the managed) guards.
          const owner = protectedTargets[0]!;
          warnings.push(`${at(`override of "${entry.id}" refused: it belongs to the ${owner.source.layer} layer (${owner.source.file ?? owner.source.layer}), which a ${layer.layer} file cannot change; the hook runs as configured there`)}`);
          continue;
        }
        const problem = checkOverride(layer, spec.name, entry, targets);
        if (problem !== undefined) {
          issues.push(at(problem));
          continue;
        }
        // An override's own match/if could switch the hook off by a typo: checked like any other.
        for (const hook of targets) {
          const probe = { ...hook, ...matching(entry) };
          issues.push(...checkMatching(probe, mayHaveTool(spec), anyTool).map(at));
        }
        overrides.push(() => applyOverride(layer, entry, key, targets));
        continue;
      }
      if (!userOwned) {
        for (const k of ['endpoint', 'apiKeyEnv', 'apiKeyFile'] as const) {
          if (entry[k] !== undefined) issues.push(at(`.${k}: only your user config or the managed config may set this (a project config must not choose where the judge's requests and your API key go); set ${k === 'endpoint' ? 'ANTHROPIC_BASE_URL / OPENAI_BASE_URL or defaults.judge.endpoint' : `defaults.judge.${k}`} in your user config`));
        }
      }
      const resolved = await toRun(entry, spec.name, guardContext, issues, at, defaults.judge);
      if (resolved === undefined) continue;
      const { run, defaultMatch } = resolved;
      const id = entry.id ?? uniqueId(run.kind === 'http' ? run.kind : run.kind === 'prompt' ? (run.agent === undefined ? 'prompt' : 'agent') : run.kind === 'mcp_tool' ? `mcp:${run.server}:${run.tool}`.replace(/[^\w.:@/-]/g, '_') : defaultId(entry), usedIds, spec.name);
      usedIds.add(`${spec.name}:${id}`);
      const hook: ResolvedHook = {
        id,
        event: spec.name,
        source: { layer: layer.layer, file: layer.file, key, ...(layer.via === undefined ? {} : { via: layer.via }) },
        run,
        enabled: entry.enabled ?? true,
        priority: entry.priority ?? 0,
        timeoutMs: (entry.timeout ?? defaults.timeout ?? (run.kind === 'prompt' && run.agent !== undefined ? AGENT_TIMEOUT_SECONDS : run.kind === 'builtin' || run.kind === 'prompt' ? DEFAULT_TIMEOUT_SECONDS : defaultTimeoutSeconds(spec.claude))) * 1000,
        // A guard that crashes on an intercepting event has not judged it: fail closed unless told otherwise.
        // A hook agent-hooks cannot run says so; it never blocks for it.
        onFailure: entry.onFailure ?? defaults.onFailure ?? (entry.builtin !== undefined && spec.mode === 'intercept' ? 'block' : 'continue'),
        parallel: entry.parallel ?? false,
        env: { ...defaults.env, ...entry.env },
        cwd: entry.cwd === undefined ? projectDir : path.resolve(layer.dir, entry.cwd),
        ...(entry.audit === true || (run.kind === 'builtin' && run.audit) ? { audit: true } : {}),
        ...(wildcard ? { scope: eventKey } : {}),
        ...matching(entry),
      };
      if (run.kind === 'prompt' && spec.mode === 'intercept' && entry.onFailure === undefined && defaults.onFailure === undefined) hook.run = { ...run, overBudgetBlocks: true };
      // A guard declares the tools it understands; an explicit `match` replaces that.
      if (hook.match === undefined && defaultMatch !== undefined) hook.match = defaultMatch;
      issues.push(...checkMatching(hook, mayHaveTool(spec), anyTool).map((m) => at(m)));
      // Claude Code's matcher, read as Claude Code reads it: its problems are Claude Code's own
      // (a regex that does not compile matches nothing there too), so they are warnings, never errors.
      if (entry.matcher !== undefined) {
        if (spec.tool) {
          const match = claudeMatcherToMatch(entry.matcher);
          if (match !== undefined) {
            const problems = [...checkMatching({ event: hook.event, match }, true, anyTool), ...claudeMatcherProblems(entry.matcher)];
            if (problems.length > 0) warnings.push(at(`.matcher "${entry.matcher}": ${problems.join('; ')}; the hook never runs for it (as in Claude Code)`));
            hook.match = match;
            hook.matchMode = 'claude';
          }
        } else {
          const field = MATCHER_FIELDS[spec.claude];
          if (field !== undefined && entry.matcher !== '' && entry.matcher !== '*') hook.on = { field, matcher: entry.matcher };
        }
      }
      if (typeof entry.if === 'string' && !spec.tool) warnings.push(at(`.if "${entry.if}": a permission rule on an event without a tool; the hook never runs (as in Claude Code)`));
      const notes: string[] = [];
      // Claude Code reads `once` only in skill frontmatter: from a settings file its hook runs every time, as here.
      if (entry.once === true) notes.push('once: honoured by Claude Code only in skill frontmatter; from a settings file (and here) the hook runs every time');
      if (run.kind === 'command' && run.async === true) notes.push('async: started and not waited for; it cannot block or rewrite, and what it writes is dropped');
      if ((entry.async === true || entry.asyncRewake === true) && run.kind !== 'command') notes.push('async: only command hooks run in the background; this one is waited for');
      if (entry.statusMessage !== undefined) notes.push(`statusMessage: "${entry.statusMessage}" (Claude Code's spinner text; agent-hooks shows it here only)`);
      const alias = aliasNote(eventKey);
      if (alias !== undefined) notes.push(alias);
      // Kept for forward compatibility (a newer agent's event), never silently: list and doctor say it.
      if (!spec.known) notes.push(UNKNOWN_EVENT_NOTE);
      if (!spec.known && hook.match !== undefined) notes.push(UNKNOWN_EVENT_MATCH_NOTE);
      if (notes.length > 0) hook.notes = notes;
      hooks.push(hook);
    }
  }
  for (const [key, use] of wildcards) if (!use.applied) issues.push(`${layer.file}: ${key}: ${await noEventMessage(use.eventKey, use.entry)}`);
  // A wildcard entry's problem is found once per event it stands for: said once.
  issues.splice(0, issues.length, ...new Set(issues));
  const servers = parsed.data.mcpServers === undefined ? undefined : new Map(Object.entries(parsed.data.mcpServers).map(([name, spec]) => [name, mcpTarget(spec, layer, projectDir)] as const));
  return { hooks, overrides, ...(parsed.data.onUntrusted === undefined ? {} : { onUntrusted: parsed.data.onUntrusted }), ...(servers === undefined ? {} : { servers }) };
}

/** The `mcpServers` of one active layer. */
interface LayerServers {
  layer: LayerName;
  file: string;
  servers: Map<string, McpTarget>;
}

type ServerEntry = NonNullable<z.output<typeof ConfigSchemaType>['mcpServers']>[string];

function mcpTarget(spec: ServerEntry, layer: ConfigLayer, projectDir: string): McpTarget {
  const from = { layer: layer.layer, file: layer.file };
  if ('url' in spec) return { transport: 'http', url: spec.url, headers: spec.headers ?? {}, ...from };
  return { transport: 'stdio', command: spec.command, args: spec.args ?? [], env: spec.env ?? {}, cwd: spec.cwd === undefined ? projectDir : path.resolve(layer.dir, spec.cwd), ...from };
}

/**
 * Each mcp_tool hook gets the server its name stands for: from its own file, else from the most trusted layer
 * that defines it, never from a less trusted one. A repository's server is code from the repository: it runs
 * only where its file is trusted (an untrusted layer is not active, so its servers are not here at all), and
 * it may not stand in for the server a user or managed hook calls (it would decide that guard's verdict).
 */
function bindServers(hooks: ResolvedHook[], layers: readonly LayerServers[]): void {
  const byTrust = [...layers].sort((a, b) => trustTier(b.layer) - trustTier(a.layer) || LAYER_RANK[a.layer] - LAYER_RANK[b.layer]);
  for (const hook of hooks) {
    const run = hook.run;
    if (run.kind !== 'mcp_tool' || run.target !== undefined) continue;
    const own = layers.find((l) => l.file === hook.source.file && l.layer === hook.source.layer)?.servers.get(run.server);
    const found = own ?? byTrust.find((l) => trustTier(l.layer) >= trustTier(hook.source.layer) && l.servers.has(run.server))?.servers.get(run.server);
    if (found !== undefined) {
      run.target = found;
      continue;
    }
    const lower = byTrust.find((l) => l.servers.has(run.server));
    run.missing =
      lower === undefined
        ? `MCP server '${run.server}' is not in mcpServers of any config that runs`
        : `MCP server '${run.server}' is defined only in ${lower.servers.get(run.server)!.file} (${lower.layer} layer), which may not serve a ${hook.source.layer} hook; define it in the same file as the hook`;
  }
}


type Entry = z.output<typeof HandlerSchema>;

/**
 * Trust tier (project, local and API first, then user, then managed), then priority (higher first),
 * then layer, then position. Priority orders hooks within a tier, never across tiers.
 */
function order(hooks: ResolvedHook[]): ResolvedHook[] {
  const position = new Map(hooks.map((h, i) => [h, i]));
  return [...hooks].sort(
    (a, b) =>
      trustTier(a.source.layer) - trustTier(b.source.layer) ||
      b.priority - a.priority ||
      LAYER_RANK[a.source.layer] - LAYER_RANK[b.source.layer] ||
      // An event's own hooks, then its group's, then `*`'s: the most specific first, all else equal.
      keySpecificity(a.scope ?? '') - keySpecificity(b.scope ?? '') ||
      position.get(a)! - position.get(b)!,
  );
}

async function toRun(
  entry: Entry,
  event: EventName,
  guardContext: GuardContext,
  issues: string[],
  at: (m: string) => string,
  judgeDefaults: JudgeSettings | undefined,
): Promise<{ run: HookRun; defaultMatch?: string[] } | undefined> {
  if ((entry.type === 'prompt' || entry.type === 'agent') && entry.prompt !== undefined) {
    const judge: JudgeSettings = {};
    const provider = entry.provider ?? judgeDefaults?.provider;
    const model = entry.model ?? (entry.provider === undefined || entry.provider === judgeDefaults?.provider ? judgeDefaults?.model : undefined);
    if (provider !== undefined) judge.provider = provider;
    if (model !== undefined) judge.model = model;
    if (entry.endpoint !== undefined) judge.endpoint = entry.endpoint;
    if (entry.apiKeyEnv !== undefined) judge.apiKeyEnv = entry.apiKeyEnv;
    if (entry.apiKeyFile !== undefined) judge.apiKeyFile = entry.apiKeyFile;
    const run: HookRun = { kind: 'prompt', prompt: entry.prompt, judge };
    if (entry.continueOnBlock === true) run.continueOnBlock = true;
    if (entry.type === 'agent') run.agent = { maxTurns: entry.maxTurns ?? DEFAULT_MAX_TURNS };
    if (entry.statusMessage !== undefined) run.statusMessage = entry.statusMessage;
    return { run };
  }
  if (entry.type === 'mcp_tool' && entry.server !== undefined && entry.tool !== undefined) {
    const run: HookRun = { kind: 'mcp_tool', server: entry.server, tool: entry.tool, input: entry.input ?? {} };
    if (entry.statusMessage !== undefined) run.statusMessage = entry.statusMessage;
    return { run };
  }
  if (entry.type === 'http' && entry.url !== undefined) {
    const run: HookRun = { kind: 'http', url: entry.url, headers: entry.headers ?? {}, allowedEnvVars: entry.allowedEnvVars ?? [] };
    if (entry.statusMessage !== undefined) run.statusMessage = entry.statusMessage;
    return { run };
  }
  if (entry.command !== undefined) {
    const run: HookRun = { kind: 'command', command: entry.command };
    if (entry.args !== undefined) run.args = entry.args;
    // Claude Code ignores `shell` in exec form.
    if (entry.shell === 'powershell' && entry.args === undefined) run.shell = 'powershell';
    if (entry.async === true || entry.asyncRewake === true) run.async = true;
    if (entry.statusMessage !== undefined) run.statusMessage = entry.statusMessage;
    return { run };
  }
  const id = entry.builtin!;
  const guard = await loadGuard(id);
  if (guard === undefined) {
    const known = GUARD_IDS.length > 0 ? `; known: ${GUARD_IDS.join(', ')}` : '';
    issues.push(at(`builtin: unknown guard "${id}"${didYouMean(id, GUARD_IDS)}${known}`));
    return undefined;
  }
  if (!guard.events.includes(event)) {
    issues.push(at(`builtin: ${id} acts on ${guard.events.join(', ')}, not ${event}`));
    return undefined;
  }
  // `audit` belongs to the host (report "would have blocked", never block), not to the guard.
  const { audit, ...rest } = entry.options ?? {};
  if (audit !== undefined && typeof audit !== 'boolean') {
    issues.push(at('.options.audit: expected boolean'));
    return undefined;
  }
  const schema = await guard.options();
  const parsed = schema.safeParse(rest);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const { keyPath, message } = describeIssue(issue, 'shape' in schema && typeof schema.shape === 'object' && schema.shape !== null ? Object.keys(schema.shape) : []);
      issues.push(at(`.options${keyPath}: ${message}`));
    }
    return undefined;
  }
  const run = builtinRun(guard, parsed.data, audit === true, guardContext);
  return guard.match === undefined ? { run } : { run, defaultMatch: [...guard.match] };
}

function matching(entry: { match?: string | string[]; if?: Record<string, string | string[]> | string; agent?: string | string[]; matchUnknownTools?: boolean }): Pick<ResolvedHook, 'match' | 'if' | 'rule' | 'agent' | 'matchUnknownTools'> {
  const list = (v: string | string[]) => (Array.isArray(v) ? v : [v]);
  const out: Pick<ResolvedHook, 'match' | 'if' | 'rule' | 'agent' | 'matchUnknownTools'> = {};
  if (entry.match !== undefined) out.match = list(entry.match);
  if (entry.matchUnknownTools !== undefined) out.matchUnknownTools = entry.matchUnknownTools;
  if (typeof entry.if === 'string') out.rule = entry.if;
  else if (entry.if !== undefined) out.if = Object.fromEntries(Object.entries(entry.if).map(([k, v]) => [k, list(v)]));
  if (entry.agent !== undefined) out.agent = list(entry.agent);
  return out;
}

/** A zod issue with its path as the file has it (a flattened matcher group's handler keeps its place). */
function originalPath(issue: z.core.$ZodIssue, keys: Map<string, string[]>): z.core.$ZodIssue {
  const [top, event, index, ...rest] = issue.path;
  if (top !== 'hooks' || typeof event !== 'string' || typeof index !== 'number') return issue;
  const original = keys.get(event)?.[index];
  if (original === undefined) return issue;
  // `hooks.PreToolUse[0].hooks[1]` → ['hooks', 'PreToolUse', 0, 'hooks', 1]
  const parts: PropertyKey[] = [];
  for (const m of original.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) parts.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return { ...issue, path: [...parts, ...rest] } as z.core.$ZodIssue;
}

/** `anyTool`: the caller's tools are not the agents' (`hooks mcp`: the server's own names), so no pattern is probed. */
function checkMatching(hook: Pick<ResolvedHook, 'event' | 'match' | 'if' | 'matchUnknownTools'>, eventHasTool: boolean, anyTool: boolean): string[] {
  const problems: string[] = [];
  if (hook.match !== undefined) {
    if (!eventHasTool) problems.push(`match: ${eventSpec(hook.event).name} has no tool to match`);
    else for (const pattern of hook.match) {
      const problem = checkToolPattern(pattern, undefined, anyTool || hook.matchUnknownTools === true);
      if (problem !== undefined) problems.push(`match: ${problem}`);
    }
  }
  // An `if` on a field the hook never sees would switch it off without a word.
  for (const { field, known } of unknownIfFields(hook)) {
    problems.push(`.if.${field}: ${eventSpec(hook.event).tool ? 'no tool this hook matches has' : `${hook.event} events have`} no field "${field}", so the hook would never run${didYouMean(field, known)}; it can use: ${known.join(', ')}`);
  }
  return problems;
}

/** Why a later layer's entry with an `id` and no command cannot change that hook, or undefined when it can. */
function checkOverride(layer: ConfigLayer, event: EventName, entry: Entry, targets: readonly ResolvedHook[]): string | undefined {
  const extending = (layer.config as { extends?: unknown } | undefined)?.extends !== undefined;
  if (layer.layer !== 'local' && !extending) return 'needs "command" or "builtin"';
  if (entry.id === undefined) return 'an override needs the "id" of the hook it changes';
  if (targets.length === 0) return `override: no hook "${entry.id}" on ${event} in ${layer.layer === 'local' ? 'the earlier layers' : 'the files it extends'}`;
  return undefined;
}

/** Applies a local override (e.g. `enabled: false`), and records on the hook which file changed it. */
function applyOverride(layer: ConfigLayer, entry: Entry, key: string, targets: readonly ResolvedHook[]): void {
  const changed = (['enabled', 'priority', 'timeout', 'onFailure', 'parallel', 'env', 'cwd', 'match', 'if', 'audit'] as const).filter((k) => entry[k] !== undefined);
  for (const hook of targets) {
    if (entry.enabled !== undefined) hook.enabled = entry.enabled;
    if (entry.audit !== undefined) hook.audit = entry.audit;
    if (entry.priority !== undefined) hook.priority = entry.priority;
    if (entry.timeout !== undefined) hook.timeoutMs = entry.timeout * 1000;
    if (entry.onFailure !== undefined) {
      hook.onFailure = entry.onFailure;
      if (hook.run.kind === 'prompt' && hook.run.overBudgetBlocks === true) {
        const { overBudgetBlocks: _said, ...run } = hook.run;
        hook.run = run;
      }
    }
    if (entry.parallel !== undefined) hook.parallel = entry.parallel;
    if (entry.env !== undefined) hook.env = { ...hook.env, ...entry.env };
    if (entry.cwd !== undefined) hook.cwd = path.resolve(layer.dir, entry.cwd);
    Object.assign(hook, matching(entry));
    if (changed.length > 0) hook.overriddenBy = { layer: layer.layer, file: layer.file, key, fields: changed };
  }
}

/** A readable id from the command (see hook-id.ts), or the guard's name. */
function defaultId(entry: Entry): string {
  return entry.builtin !== undefined ? entry.builtin : idFromCommand(entry.command!, entry.args);
}

function uniqueId(base: string, used: Set<string>, event: EventName): string {
  let id = base;
  for (let n = 2; used.has(`${event}:${id}`); n++) id = `${base}-${n}`;
  return id;
}

const EVENT_KEYS = [...EVENTS.flatMap((e) => [e.name, e.cli, e.claude]), ...EVENT_GROUPS.map((g) => g.key)];


/** A zod issue as a key path (`.hooks.preToolUse[2].timeout`) and a message in plain words. */
function describeIssue(issue: z.core.$ZodIssue, knownKeys: readonly string[], inPackageJson = false): { keyPath: string; message: string } {
  const parts: PropertyKey[] = [...issue.path];
  let message = plainMessage(issue);
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    parts.push(key);
    if (parts.length === 2 && parts[0] === 'hooks') message = `unknown event${didYouMean(key, EVENT_KEYS)}`;
    else if (parts.length === 1 && findEvent(key) !== undefined) message = 'unknown key (events go under "hooks")';
    // In package.json#hooks an unknown top-level key is most likely a misspelt event.
    else if (parts.length === 1 && inPackageJson) message = `unknown key${didYouMean(key, [...knownKeys, ...EVENT_KEYS])}`;
    else message = `unknown key${didYouMean(key, knownKeys.filter((k) => k !== key))}`;
  }
  const keyPath = parts.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  return { keyPath, message };
}

/** zod's wording ("Too small: expected number to be >0") said as a user would. */
export function plainMessage(issue: z.core.$ZodIssue): string {
  const i = issue as z.core.$ZodIssue & { origin?: string; minimum?: number | bigint; maximum?: number | bigint; inclusive?: boolean; expected?: string; input?: unknown };
  const things = (n: number | bigint, one: string, many: string) => `${n} ${Number(n) === 1 ? one : many}`;
  switch (issue.code) {
    case 'too_small':
      if (i.origin === 'number') return i.inclusive === false ? `must be greater than ${i.minimum}` : `must be at least ${i.minimum}`;
      if (i.origin === 'string') return Number(i.minimum) <= 1 ? 'must not be empty' : `must be at least ${things(i.minimum!, 'character', 'characters')} long`;
      if (i.origin === 'array') return Number(i.minimum) <= 1 ? 'must not be an empty list' : `must list at least ${things(i.minimum!, 'entry', 'entries')}`;
      break;
    case 'too_big':
      if (i.origin === 'number') return i.inclusive === false ? `must be less than ${i.maximum}` : `must be at most ${i.maximum}`;
      if (i.origin === 'string') return `must be at most ${things(i.maximum!, 'character', 'characters')} long`;
      if (i.origin === 'array') return `must list at most ${things(i.maximum!, 'entry', 'entries')}`;
      break;
    default:
      break;
  }
  return issue.message.replace(/^Invalid (input|option): /, '');
}

/** How a hook came through `extends`, in a few words for list and explain (empty when it did not). */
export function describeVia(source: Pick<HookSource, 'via'>): string {
  if (source.via === undefined || source.via.length === 0) return '';
  return ` via ${source.via.map((s) => `${path.basename(s.file)} extends ${JSON.stringify(s.extends)}`).join(' → ')}`;
}

/** A layer's state in a few words, as list, explain, doctor and run --verbose show it. */
export function layerStatus(layer: LayerState): string {
  const trust = layer.trust === 'implicit' ? (layer.layer === 'project' ? 'trusted (named on the command line or inline)' : `trusted (${layer.layer} layer)`) : layer.trust;
  if (layer.active) return trust;
  if (layer.trust === 'untrusted') return 'untrusted: its hooks do not run; review it, then run: npx agent-hooks trust';
  return `${trust}, but switched off: ${layer.problem ?? 'not read'}`;
}
