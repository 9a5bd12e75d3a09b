// Nothing the package says recommends `npx` as a hook's command: npx resolves the package on every
// call, several times the runner's own start-up (bench/startup.mjs), on every tool call. Typed once at
// a prompt (`npx agent-hooks init`) it is fine; in an agent's settings it is not.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers.js';

/** A hook command that starts with npx: in JSON settings, a TOML/YAML `command =`, or an interceptor's `exec:`. */
const NPX_COMMAND = /"command"\s*:\s*"(?:\\")?npx\b[^"]*|\bcommand\s*=\s*["']npx\b[^"']*|\bexec:npx\b\S*/g;

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    return e.isDirectory() ? files(rel, ext) : ext.test(e.name) ? [rel] : [];
  });
}

describe('no hook command through npx', () => {
  it('in docs/, hooks-examples/ and the messages and help texts of src/', () => {
    const found: string[] = [];
    for (const file of [...files('docs', /\.md$/), ...files('hooks-examples', /\.(md|json|sh|toml|ya?ml)$/), ...files('src', /\.ts$/)]) {
      for (const m of readFileSync(path.join(ROOT, file), 'utf8').matchAll(NPX_COMMAND)) found.push(`${file}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });

  it('the pattern catches the forms it looks for (else the scan above proves nothing)', () => {
    const samples = [
      '{ "type": "command", "command": "npx agent-hooks guard command-safety" }',
      '"command": "\\"npx\\" agent-hooks run pre-tool-use"',
      "command = 'npx agent-hooks run pre-tool-use --dialect codex'",
      "--interceptor 'before:exec:npx agent-hooks run before --dialect docker-mcp'",
    ];
    expect(samples.map((s) => s.match(NPX_COMMAND)?.length ?? 0)).toEqual([1, 1, 1, 1]);
    expect('"command": "\\"$CLAUDE_PROJECT_DIR\\"/node_modules/.bin/agent-hooks run pre-tool-use"'.match(NPX_COMMAND)).toBeNull();
  });

  it("every --help names the bin, not npx, in the settings it shows", () => {
    for (const command of ['guard', 'install', 'run', 'serve']) {
      const help = runCli([command, '--help']).stdout;
      expect([...help.matchAll(NPX_COMMAND)].map((m) => m[0]), command).toEqual([]);
    }
  });
});
