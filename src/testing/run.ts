// Runs test cases through the same engine as `hooks run`: load the config, build the event, run, check.
import path from 'node:path';
import { loadConfigLayers, SEARCH_PLACES } from '../config/load.js';
import { hooksFor, type ResolvedConfig } from '../config/resolve.js';
import { eventFromClaudePayload } from '../dialects/payload.js';
import { loadConfig, runnerFor } from '../engine.js';
import { HooksError, isHooksError } from '../errors.js';
import { sampleEvent } from '../events/samples.js';
import type { HookEvent } from '../types.js';
import type { TestCase } from './case.js';
import { checkExpectation, observe, type FieldCheck, type Observed } from './expect.js';
import { payloadEvent, showPath } from './load.js';

/** `updated`: it failed, and `--update` wrote the current decision as its expectation. */
export type CaseStatus = 'passed' | 'failed' | 'skipped' | 'updated';

export interface CaseResult {
  case: TestCase;
  status: CaseStatus;
  /** Every expected field, checked. */
  checks: FieldCheck[];
  /** What the engine decided, through the fields an expectation can name. */
  observed?: Observed;
  /** Why the case failed without a field check, or was skipped. */
  note?: string;
  /**
   * Hooks that failed (crashed, timed out, answered garbage) although the expectation names no failure:
   * the case may still pass on the decision, but the report must show them.
   */
  hookFailures?: { id: string; kind: string; message: string }[];
  ms: number;
}

export interface RunCasesOptions {
  /** Shown paths are relative to it. */
  cwd: string;
  /** The environment hooks run with (each case's `env` goes on top). */
  env: NodeJS.ProcessEnv;
  /** `--hook`: test this hook alone in every case that names no hook of its own. */
  hook?: string;
  signal?: AbortSignal;
  /** Called as each case ends, for live output. */
  onResult?: (result: CaseResult) => void;
}

/** Runs the cases in order, one at a time (hooks are processes; their output stays in order). */
export async function runCases(cases: readonly TestCase[], options: RunCasesOptions): Promise<CaseResult[]> {
  const configs = new Map<string, Promise<LoadedConfig>>();
  const results: CaseResult[] = [];
  for (const c of cases) {
    const result = await runCase(c, options, configs);
    options.onResult?.(result);
    results.push(result);
  }
  return results;
}

// --- internal ---

async function runCase(c: TestCase, options: RunCasesOptions, configs: Map<string, Promise<LoadedConfig>>): Promise<CaseResult> {
  const started = performance.now();
  if (c.invalid !== undefined) return { case: c, status: 'failed', checks: [], note: c.invalid, ms: 0 };
  const where = `${showPath(c.file, options.cwd)}${c.key === '' ? '' : `: ${c.key}`}`;
  const loaded = await configFor(c, options, configs, where);
  // What the agent would not run (an untrusted or broken config) fails the case, in the report, as it runs.
  if (!loaded.ok) return { case: c, status: 'failed', checks: [], note: loaded.problem, ms: elapsed(started) };
  const config = loaded.config;
  const event = buildEvent(c, config);
  const env = { ...options.env, ...c.env };

  const hookId = c.hook ?? options.hook;
  let runConfig = config;
  if (hookId !== undefined) {
    const candidates = hooksFor(config, event.name);
    if (!candidates.some((h) => h.id === hookId)) {
      const known = candidates.length === 0 ? 'it has none' : `its hooks: ${candidates.map((h) => h.id).join(', ')}`;
      const problem = `no hook "${hookId}" on ${event.name} in ${configName(config, options.cwd)} (${known})`;
      // A case that names a hook must find it; --hook just passes over the cases it does not apply to.
      if (c.hook !== undefined) throw new HooksError('CONFIG_INVALID', `${where}${c.key === '' ? ': hook' : '.hook'}: ${problem}`, { file: c.file, path: `${c.key}.hook` });
      return { case: c, status: 'skipped', checks: [], note: problem, ms: elapsed(started) };
    }
    runConfig = { ...config, hooks: config.hooks.filter((h) => h.id === hookId) };
  }

  // Each case starts with an empty metadata bag and leaves none behind: cases must not depend on each other or on past runs.
  const decision = await runnerFor(runConfig, env).run(event, { metadataStore: null, judgeAnswers: c.judge ?? {}, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  const observed = observe(decision);
  const ms = elapsed(started);
  if (c.expect === undefined) {
    return { case: c, status: 'failed', checks: [], observed, note: 'no "expect": add one, or run npx agent-hooks test --update to record the current decision', ms };
  }
  const checks = checkExpectation(c.expect, observed);
  const result: CaseResult = { case: c, status: checks.every((k) => k.ok) ? 'passed' : 'failed', checks, observed, ms };
  // A failure the case expects is part of what it tests; any other is news.
  if (c.expect.failed === undefined) {
    const failures = decision.results.flatMap((r) => (r.failure === undefined ? [] : [{ id: r.id, kind: r.failure.kind, message: r.failure.message }]));
    if (failures.length > 0) result.hookFailures = failures;
  }
  return result;
}

type LoadedConfig = { ok: true; config: ResolvedConfig } | { ok: false; problem: string };

/**
 * The case's config, loaded once per file (or per search folder) for the whole run, or why the agent
 * would run none of it: the project file is untrusted (changed since `hooks trust`) or broken.
 */
function configFor(c: TestCase, options: RunCasesOptions, configs: Map<string, Promise<LoadedConfig>>, where: string): Promise<LoadedConfig> {
  const dir = path.dirname(c.file);
  const key = c.config ?? `search:${dir}`;
  let pending = configs.get(key);
  if (pending === undefined) {
    pending = loadCaseConfig(c.config, dir, options).then(
      (config): LoadedConfig => config,
      (error: unknown): LoadedConfig => {
        // A missing or unreadable file is a mistake in the case file: the run stops on it, one line.
        if (isHooksError(error) && error.code === 'CONFIG_INVALID') return { ok: false, problem: error.message.split('\n').join('; ') };
        throw error;
      },
    );
    configs.set(key, pending);
  }
  return pending.catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const at = c.config === undefined ? '' : c.key === '' ? ': config' : '.config';
    throw new HooksError(isHooksError(error) ? error.code : 'INTERNAL', `${where}${at}: ${message}`, { file: c.file });
  });
}

async function loadCaseConfig(configFile: string | undefined, dir: string, options: RunCasesOptions): Promise<LoadedConfig> {
  if (configFile !== undefined) {
    const file = path.resolve(dir, configFile);
    // A file the agent finds by itself (.hooksrc.json, ...) runs only once trusted; a config kept for tests
    // under another name (hooks-tests/guards.hooksrc.json) is the user's choice, as --config is for hooks run.
    if (SEARCH_PLACES.includes(path.basename(file))) {
      const found = await loadConfigLayers({ cwd: path.dirname(file), env: options.env, projectOnly: true });
      const layer = found.layers.find((l) => l.layer === 'project' && l.file === file);
      if (layer !== undefined && layer.trust === 'untrusted') return { ok: false, problem: untrusted(layer.problem ?? `${file} is not trusted`) };
    }
    return { ok: true, config: await loadConfig({ cwd: dir, env: options.env, configFile }) };
  }
  const config = await loadConfig({ cwd: dir, env: options.env });
  const project = config.layers.find((l) => l.layer === 'project');
  if (project === undefined) {
    throw new HooksError('CONFIG_UNREADABLE', `no config found from ${showPath(dir, options.cwd)} upwards; set "config" in the case file or pass --config`);
  }
  // An untrusted (or broken) project file would test nothing but the user's layer: the agent runs none of it.
  if (!project.active) return { ok: false, problem: project.trust === 'untrusted' ? untrusted(project.problem ?? `${project.file} is not trusted`) : `${project.problem ?? `${project.file} is switched off`}; the agent runs none of its hooks` };
  return { ok: true, config };
}

/** The store's own line already names the file, says its hooks do not run and how to trust it. */
function untrusted(problem: string): string {
  return problem;
}

/** The event the case describes; samples are generated fresh, in the project folder. */
function buildEvent(c: TestCase, config: ResolvedConfig): HookEvent {
  // Any agent's payload, through its dialect, exactly as `hooks run` builds it.
  if (c.event.kind === 'payload') return payloadEvent(c.event);
  const { sample, tool, input, fields } = c.event;
  const payload = sampleEvent(sample, {
    cwd: config.projectDir,
    ...(tool === undefined ? {} : { tool }),
    ...(input === undefined ? {} : { input }),
    ...(fields === undefined ? {} : { fields }),
  });
  return eventFromClaudePayload(payload, undefined);
}

function configName(config: ResolvedConfig, cwd: string): string {
  const project = config.layers.find((l) => l.layer === 'project');
  return project === undefined ? 'the config' : showPath(project.file, cwd);
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
