// For the generated plugins' logic tests: the runner they spawn, run in-process instead. A plugin's
// `spawn(HOOKS_BIN, ['run', event, ...], { cwd })` becomes the CLI's cli() with the same argv, cwd and
// stdin, and the environment a spawned runner would inherit (process.env, as stubPluginEnv set it).
// What a plugin does with the answer is unchanged; each plugin's tests keep real runs of bin/hooks.js
// for the process side (the spawn, the pipes, a runner that is gone).
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { cliInProcess, ROOT } from '../helpers.js';

const SPAWN_IMPORT = "import { spawn } from 'node:child_process';";

/** A child process whose runner is cli() in this process. */
export function spawn(bin: string, args: string[], options: { cwd: string }) {
  const child = Object.assign(new EventEmitter(), { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), kill: () => false });
  if (!existsSync(bin)) {
    setImmediate(() => child.emit('error', Object.assign(new Error(`spawn ${bin} ENOENT`), { code: 'ENOENT' })));
    return child;
  }
  let input = '';
  child.stdin.setEncoding('utf8').on('data', (chunk: string) => (input += chunk));
  child.stdin.on('end', () => {
    void cliInProcess(args, { cwd: options.cwd, env: { ...process.env }, input }).then(async (r) => {
      const ended = (stream: PassThrough) => new Promise((resolve) => stream.on('end', resolve).on('close', resolve));
      const done = Promise.all([ended(child.stdout), ended(child.stderr)]);
      child.stdout.end(r.stdout);
      child.stderr.end(r.stderr);
      await done;
      child.emit('exit', r.code, null);
      child.emit('close', r.code, null);
    });
  });
  return child;
}

/** A copy of the generated plugin `file`, beside it (its relative paths still hold), that spawns its runner in-process. */
export function inProcessCopy(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(SPAWN_IMPORT)) throw new Error(`${file}: no "${SPAWN_IMPORT}" to replace`);
  const copy = path.join(path.dirname(file), `in-process.${path.basename(file)}`);
  writeFileSync(copy, text.replace(SPAWN_IMPORT, `import { spawn } from ${JSON.stringify(path.join(ROOT, 'test', 'install', 'in-process-spawn.ts'))};`));
  return copy;
}
