// Ids derived from inline commands: readable (never `null-` or `cat--`), never empty, stable, unique within a config.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idFromCommand } from '../../src/config/hook-id.js';
import type { ConfigLayer } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';

const FILE = '/home/dev/project/.hooksrc.json';
const resolve = (config: unknown) => resolveConfig([{ layer: 'project', file: FILE, dir: path.dirname(FILE), config } as ConfigLayer], { cwd: '/home/dev/project' });
const ID = /^[\w.:@-]+$/;

describe('ids from inline commands', () => {
  it.each([
    ['cat >/dev/null; echo blocked >&2; exit 2', 'echo-blocked'],
    ['cat > /dev/null; echo "no" 1>&2; exit 2', 'echo-no'],
    ['cat > f; echo hi', 'cat'],
    ['cat >> "$CLAUDE_PROJECT_DIR/bash-hook.log"', 'cat'],
    ['python3 guards/no_force_push.py', 'no_force_push'],
    ['./hooks-examples/audit.sh', 'audit'],
    ['npx prettier --check', 'npx-prettier'],
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/check-bash.sh', 'check-bash'],
    ['cd "$CLAUDE_PROJECT_DIR" && npm test', 'npm-test'],
    ['FOO=1 bash -c "exit 2"', 'bash'],
    [`python3 -c 'import json,sys; print(1)'`, 'python3'],
    [`echo '{"decision":"block"}'`, 'echo'],
    ['jq -r .tool_input.command | grep -q rm && exit 2', 'jq'],
    ['cat 2>/dev/null >/dev/null; node hooks/x.mjs', 'x'],
    ['touch "$CLAUDE_PROJECT_DIR/x.marker"; echo "no rm here" >&2; exit 2', 'x'],
    ['>&2', 'hook'],
    ['', 'hook'],
  ])('%s → %s', (command, id) => {
    expect(idFromCommand(command)).toBe(id);
  });

  it('args count as words of the command', () => {
    expect(idFromCommand('node', ['scripts/format.mjs'])).toBe('format');
  });

  it('property: any command gives a non-empty id of safe characters, the same every time', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }), (command, args) => {
        const id = idFromCommand(command, args);
        expect(id).toMatch(ID);
        expect(id.length).toBeLessThanOrEqual(40);
        expect(idFromCommand(command, args)).toBe(id);
      }),
      { seed: 24, numRuns: 2000, interruptAfterTimeLimit: 5000 },
    );
  });

  it('property: shell-looking commands too (redirections, separators, quotes)', () => {
    const piece = fc.constantFrom('cat', '>/dev/null', '>', '2>&1', '>&2', ';', '&&', '|', '"a b"', "'x'", 'f', './s.sh', 'A=1', 'echo', 'exit 2', '$(id)', '\\;', '&>', '<<<');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const command = pieces.join(' ');
        expect(idFromCommand(command)).toMatch(ID);
        expect(idFromCommand(command)).not.toMatch(/^null-?$|--/);
      }),
      { seed: 25, numRuns: 2000, interruptAfterTimeLimit: 5000 },
    );
  });

  it('property: within one config, derived ids are unique per event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ minLength: 1, maxLength: 30 }).filter((c) => c.trim() !== ''), { minLength: 1, maxLength: 8 }), async (commands) => {
        const config = await resolve({ hooks: { stop: commands.map((command) => ({ command })) } });
        const ids = config.hooks.map((h) => h.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (const id of ids) expect(id).toMatch(ID);
      }),
      { seed: 26, numRuns: 100, interruptAfterTimeLimit: 8000 },
    );
  });
});
