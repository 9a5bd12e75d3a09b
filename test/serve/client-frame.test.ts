// The client splits the server's answer with nothing but sh parameter expansion: whatever the texts
// hold, the exit code it exits with is the runner's, and stdout and stderr come out as sent.
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frame } from '../../src/serve/server.js';

// The same expansions as bin/agent-hooks-client (kept in step by the client's own tests through the server).
const SPLIT = `resp=$(cat; printf x); resp=\${resp%x}
RS=$(printf '\\036')
out=\${resp%%"$RS"*}; rest=\${resp#*"$RS"}; err=\${rest%"$RS"*}; code=\${rest##*"$RS"}
printf '%s' "$out"; printf '%s' "$err" >&2; exit "$code"`;

describe('the client framing', () => {
  it('any stdout and stderr, any exit code: the code is exact, the texts are as sent (separator and NUL replaced)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60, unit: 'binary' }), fc.string({ maxLength: 60, unit: 'binary' }), fc.constantFrom(0, 1, 2), (stdout, stderr, exitCode) => {
        const r = spawnSync('sh', ['-c', SPLIT], { input: frame({ stdout, stderr, exitCode }), encoding: 'utf8' });
        const clean = (t: string) => t.replace(/[\u0000\u001e]/g, '\ufffd');
        expect(r.status).toBe(exitCode);
        expect(r.stdout).toBe(clean(stdout));
        expect(r.stderr).toBe(clean(stderr));
      }),
      { numRuns: 40, seed: 1414, interruptAfterTimeLimit: 10_000 },
    );
  }, 60_000);
});
