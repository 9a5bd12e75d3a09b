// Finds and reads the config layers (user, project, local). The only module that uses cosmiconfig.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cosmiconfig, defaultLoaders } from 'cosmiconfig';
import { HooksError } from '../errors.js';
import { findEvent } from '../events/catalog.js';
import { isInside } from '../paths.js';

export type LayerName = 'user' | 'project' | 'local' | 'api' | 'cli';

/** One config file as read, before validation. */
export interface ConfigLayer {
  layer: LayerName;
  file: string;
  /** Directory relative paths in this layer are resolved against. */
  dir: string;
  config: unknown;
}

export interface LoadOptions {
  /** Where the project search starts (upwards). */
  cwd: string;
  /** Use this file as the project layer instead of searching. */
  configFile?: string;
  /** Environment, for `XDG_CONFIG_HOME` and `HOME`. */
  env?: NodeJS.ProcessEnv;
}

export const LOCAL_CONFIG_NAME = '.hooksrc.local.json';

const SEARCH_PLACES = [
  '.hooksrc',
  '.hooksrc.json',
  '.hooksrc.yaml',
  '.hooksrc.yml',
  '.hooksrc.js',
  '.hooksrc.mjs',
  '.hooksrc.cjs',
  'hooks.config.js',
  'hooks.config.mjs',
  'hooks.config.cjs',
  'package.json',
];

/** Reads every layer that exists, in merge order: user, project, local. */
export async function loadConfigLayers(options: LoadOptions): Promise<ConfigLayer[]> {
  const env = options.env ?? process.env;
  const home = env.HOME || os.homedir();
  const explorer = createExplorer(env);
  const layers: ConfigLayer[] = [];

  const userFile = userConfigPath(env, home);
  const user = await loadUserLayer(env, explorer);
  if (user !== undefined) layers.push(user);

  let projectDir = options.cwd;
  if (options.configFile !== undefined) {
    const file = path.resolve(options.cwd, options.configFile);
    if (!existsSync(file)) {
      throw new HooksError('CONFIG_UNREADABLE', `${file}: config file not found`, { file });
    }
    layers.push(await read(explorer, 'project', file));
    projectDir = path.dirname(file);
  } else {
    const found = await search(explorer, options.cwd);
    if (found !== undefined && found.file !== userFile) {
      layers.push(found);
      projectDir = found.dir;
    }
  }

  const localFile = path.join(projectDir, LOCAL_CONFIG_NAME);
  if (existsSync(localFile)) layers.push(await read(explorer, 'local', localFile));
  return layers;
}

/** The user layer alone, if there is one. */
export async function loadUserLayer(env: NodeJS.ProcessEnv = process.env, explorer: Explorer = createExplorer(env)): Promise<ConfigLayer | undefined> {
  const file = userConfigPath(env, env.HOME || os.homedir());
  return existsSync(file) ? read(explorer, 'user', file) : undefined;
}

/** `$XDG_CONFIG_HOME/agent-hooks/config.json`, else `~/.config/agent-hooks/config.json`. */
export function userConfigPath(env: NodeJS.ProcessEnv, home: string): string {
  const base = env.XDG_CONFIG_HOME || path.join(home, '.config');
  return path.join(base, 'agent-hooks', 'config.json');
}

/** Reads a JSON or YAML data file (test cases, fixtures) with the same parsers as config files. */
export async function readDataFile(file: string): Promise<unknown> {
  const ext = path.extname(file).toLowerCase();
  const loader = ext === '.yaml' || ext === '.yml' ? defaultLoaders['.yaml'] : defaultLoaders['.json'];
  try {
    const { readFile } = await import('node:fs/promises');
    return await loader(file, await readFile(file, 'utf8'));
  } catch (error) {
    throw unreadable(file, error);
  }
}

// --- internal ---

type Explorer = ReturnType<typeof cosmiconfig>;

function createExplorer(env: NodeJS.ProcessEnv): Explorer {
  return cosmiconfig('hooks', { searchPlaces: SEARCH_PLACES, searchStrategy: 'global', stopDir: env.HOME || os.homedir(), cache: false });
}

async function read(explorer: Explorer, layer: LayerName, file: string): Promise<ConfigLayer> {
  try {
    const result = await explorer.load(file);
    const config = path.basename(file) === 'package.json' ? fromPackageJson(result?.config) : result?.config;
    return { layer, file, dir: path.dirname(file), config: config ?? {} };
  } catch (error) {
    throw unreadable(file, error);
  }
}

async function search(explorer: Explorer, cwd: string): Promise<ConfigLayer | undefined> {
  let result;
  try {
    result = await explorer.search(cwd);
  } catch (error) {
    const file = (error as { filepath?: string }).filepath ?? cwd;
    throw unreadable(file, error);
  }
  if (result === null) return undefined;
  const dir = path.dirname(result.filepath);
  // cosmiconfig's global strategy ends in the OS config dir; that is the user layer's business, not a project.
  if (!isInside(dir, cwd)) return undefined;
  const config = path.basename(result.filepath) === 'package.json' ? fromPackageJson(result.config) : result.config;
  return { layer: 'project', file: result.filepath, dir, config: config ?? {} };
}

/** `package.json#hooks` may hold the event map itself (`"hooks": {"preToolUse": [...]}`) or a whole config. */
function fromPackageJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => findEvent(k) !== undefined) ? { hooks: value } : value;
}

function unreadable(file: string, error: unknown): HooksError {
  const message = error instanceof Error ? error.message : String(error);
  // cosmiconfig's parsers write "JSON Error in <file>:", a code frame ("1 | {...", "> 2 |", "  ^"),
  // and the cause somewhere around it. One line: the kind and the cause, the file named once.
  const lines = message.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const isFrame = (l: string) => /^>?\s*\d+\s*\|/.test(l) || l.startsWith('|') || /^\^+$/.test(l);
  const heading = lines[0] ?? 'unreadable';
  const where = /^(\w+) Error in .*:$/.exec(heading);
  const cause = lines.slice(1).find((l) => !isFrame(l));
  const text = where === null ? heading : `invalid ${where[1]}: ${cause ?? 'cannot be parsed'}`;
  return new HooksError('CONFIG_UNREADABLE', `${file}: ${text.replaceAll(`${file}: `, '')}`, { file });
}
