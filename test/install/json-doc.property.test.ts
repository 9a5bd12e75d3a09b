// Property tests for reading a settings file, which a repository controls: any text is either an
// object or one line naming the file (never a crash); what we do not change is written back byte for
// byte; install then uninstall gives back the user's document. Seeded and time-bounded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../src/install/agents/index.js';
import { isHooksError } from '../../src/errors.js';
import { formatSettings, parseSettings } from '../../src/install/json-doc.js';

const RUNS = { seed: 20261122, numRuns: 300, interruptAfterTimeLimit: 4_000 };
const FILE = '/p/.claude/settings.json';
const launcher = { kind: 'project' as const, rel: 'node_modules/.bin/agent-hooks' };

/** JSON text of `value` laid out in one of the ways people and tools write it. */
const layout = (value: unknown) => fc.constantFrom<unknown>(undefined, 2, 4, '\t', 1).map((indent) => JSON.stringify(value, null, indent as never));

describe('parseSettings on untrusted text', () => {
  it('any text: an object equal to JSON.parse\'s, or a one-line HooksError naming the file', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ a: v }))), (text) => {
        try {
          const doc = parseSettings(text, FILE);
          if (text.trim() !== '') expect(doc).toEqual(JSON.parse(text));
        } catch (error) {
          expect(isHooksError(error)).toBe(true);
          expect((error as Error).message.startsWith(`${FILE}: `)).toBe(true);
          expect((error as Error).message).not.toContain('\n');
        }
      }),
      RUNS,
    );
  });

  it('unchanged, a document is written back byte for byte, whatever its layout', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()).chain(layout), (text) => {
        expect(formatSettings(parseSettings(text, FILE), text)).toBe(`${text}\n`);
      }),
      RUNS,
    );
  });

  it('"__proto__" is an own key, as JSON.parse has it, never the prototype', () => {
    const doc = parseSettings('{"__proto__": {"polluted": true}, "a": 1}', FILE);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.keys(doc)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('nesting past the limit is a one-line error, never a stack overflow', () => {
    const deep = `{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(() => parseSettings(deep, FILE)).toThrow(`${FILE}: nested deeper than 500 levels; agent-hooks will not change it`);
  });
});

/** A user's hooks table for `agent`: non-empty lists of entries that are not ours, under any event names. */
function userTable() {
  const entry = fc.record({ matcher: fc.string(), hooks: fc.array(fc.record({ type: fc.constant('command'), command: fc.string().filter((c) => !c.trimEnd().endsWith('# agent-hooks')) }), { minLength: 1, maxLength: 2 }) });
  return fc.dictionary(fc.constantFrom('PreToolUse', 'Stop', 'preToolUse', 'BeforeTool', 'Custom', 'stop'), fc.array(entry, { minLength: 1, maxLength: 3 }), { maxKeys: 4 });
}

describe('install then uninstall, for every JSON agent', () => {
  // opencode's and Cline's plugins, pi's and omp's extensions and kiro's hook file are wholly agent-hooks' own: a user's document there is refused (their own tests);
  // OpenClaw's config takes no project install (its own property test, test/install/openclaw.test.ts).
  for (const agent of AGENTS.filter((a) => a.name !== 'opencode' && a.name !== 'kiro' && a.name !== 'cline' && a.name !== 'pi' && a.name !== 'omp' && a.name !== 'openclaw')) {
    it(`${agent.name}: uninstall(install(doc)) is the user's document again`, () => {
      fc.assert(
        fc.property(
          fc.dictionary(fc.string().filter((k) => k !== 'hooks' && k !== 'version'), fc.jsonValue(), { maxKeys: 5 }),
          userTable(),
          fc.boolean(),
          (rest, table, failClosed) => {
            const original = Object.keys(table).length === 0 ? rest : { ...rest, hooks: table };
            const before = JSON.stringify(original, null, 2);
            const { text } = agent.install(before, FILE, { launcher, timeoutSeconds: 60, failClosed }, 'project');
            const back = agent.uninstall(text, FILE).text;
            // Cursor's and Copilot's files need "version": 1; one install added stays (the byte-exact
            // give-back of an unedited file is the backup record's job, tested on real files).
            const skeleton = ['cursor', 'copilot'].includes(agent.name) && !('version' in original) ? { version: 1 } : {};
            if (back === undefined) expect(original).toEqual({});
            else expect(JSON.parse(back)).toEqual({ ...skeleton, ...original });
          },
        ),
        { ...RUNS, numRuns: 150 },
      );
    });
  }
});
