// The pins of one project: tool name → SHA-256 of its canonical definition, in the user's state dir
// (never in the repository, which the agent and the repository's authors can write). Read and written as
// agent-hooks' other private files are: no symlink followed, owner and mode checked, atomic replace.
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { privateFolder, readPrivateFile, writePrivateFile } from '../../fs/private.js';
import { isRecord } from '../../json.js';
import { stateDir } from '../../paths.js';

export interface Pin {
  sha256: string;
  /** When this definition was pinned (ISO time). */
  pinned: string;
}

export interface PinStore {
  file: string;
  /** Undefined when the project has no pins yet (first use). */
  tools: Record<string, Pin> | undefined;
}

const FORMAT = 1;

/** Where a project's pins live: `<state>/schema-pins/<sha256 of the project path, 32 hex>.json`. */
export function pinFile(projectDir: string, env: NodeJS.ProcessEnv): string {
  const key = createHash('sha256').update(path.resolve(projectDir)).digest('hex').slice(0, 32);
  return path.join(stateDir(env), 'schema-pins', `${key}.json`);
}

/** The project's pins. A pin file that is there but cannot be trusted or read is an error, never "no pins": that would re-pin whatever is shown now. */
export function readPins(projectDir: string, env: NodeJS.ProcessEnv): PinStore {
  const file = pinFile(projectDir, env);
  if (!exists(file)) return { file, tools: undefined };
  const text = readPrivateFile(file);
  if (text === undefined) throw new Error(`schema-pin: ${file} is not a plain file of yours that only you can write; remove it to pin the tools again`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`schema-pin: ${file} is not JSON (${(error as Error).message}); remove it to pin the tools again`);
  }
  if (!isRecord(data) || data.format !== FORMAT || !isRecord(data.tools)) throw new Error(`schema-pin: ${file} is not a pin file of format ${FORMAT}; remove it to pin the tools again`);
  // No prototype: a tool may be named "__proto__" or "constructor".
  const tools: Record<string, Pin> = Object.create(null) as Record<string, Pin>;
  for (const [name, pin] of Object.entries(data.tools)) {
    if (!isRecord(pin) || typeof pin.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(pin.sha256)) throw new Error(`schema-pin: ${file}: tools.${name} is not a pin; remove the file to pin the tools again`);
    tools[name] = { sha256: pin.sha256, pinned: typeof pin.pinned === 'string' ? pin.pinned : '' };
  }
  return { file, tools };
}

/** Writes the project's pins (the folder is created private, 0700). Throws on failure. */
export function writePins(store: PinStore, projectDir: string, tools: Record<string, Pin>): void {
  privateFolder(path.dirname(path.dirname(store.file)));
  privateFolder(path.dirname(store.file));
  const sorted = Object.fromEntries(Object.entries(tools).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writePrivateFile(store.file, `${JSON.stringify({ format: FORMAT, project: path.resolve(projectDir), tools: sorted }, null, 2)}\n`);
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new Error(`schema-pin: cannot look at ${file}: ${(error as Error).message}`);
  }
}
