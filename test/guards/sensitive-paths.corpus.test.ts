// The sensitive-paths corpus (test/guards/corpus/sensitive-paths.json): secret reads, hook-settings
// writes and evasions that must be blocked with their kind, and ordinary calls that must pass.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judgeToolCall } from '../../src/guards/sensitive-paths.js';

// One options object for every call: the guard builds its judge once per options object (compileJudge).
const NO_OPTIONS = {};

interface Case {
  group: string;
  tool: 'Bash' | 'Read' | 'Write' | 'Edit';
  input: string;
  kind?: string;
}

const corpus = JSON.parse(readFileSync(new URL('./corpus/sensitive-paths.json', import.meta.url), 'utf8')) as { sensitive: Case[]; ordinary: Case[] };

export const HOME = '/home/dev';
export const CWD = '/home/dev/project';
// A fixed environment: the machine's XDG_* variables must not change what the corpus expects.
const ENV = { HOME };
const CANONICAL = { Bash: 'exec', Read: 'read', Write: 'write', Edit: 'edit' } as const;

export function judgeCase(c: Case) {
  const toolInput = c.tool === 'Bash' ? { command: c.input } : { file_path: c.input, ...(c.tool === 'Write' ? { content: 'x' } : {}) };
  return judgeToolCall({ hook_event_name: 'PreToolUse', cwd: CWD, tool_name: c.tool, tool_input: toolInput }, NO_OPTIONS, { tool: CANONICAL[c.tool], home: HOME, env: ENV, realpath: false });
}

function byGroup(cases: Case[]): [string, Case[]][] {
  const groups = new Map<string, Case[]>();
  for (const c of cases) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  return [...groups];
}

describe('corpus size', () => {
  it('has at least 200 sensitive and 120 ordinary calls', () => {
    expect(corpus.sensitive.length).toBeGreaterThanOrEqual(200);
    expect(corpus.ordinary.length).toBeGreaterThanOrEqual(120);
  });
});

describe('sensitive calls are blocked with their kind', () => {
  for (const [group, cases] of byGroup(corpus.sensitive)) {
    describe(group, () => {
      it.each(cases.map((c) => [c.tool, c.input, c.kind!, c] as const))('%s %j → %s', (_tool, _input, kind, c) => {
        expect(judgeCase(c)).toMatchObject({ verdict: 'block', kind });
      });
    });
  }
});

describe('ordinary calls pass', () => {
  for (const [group, cases] of byGroup(corpus.ordinary)) {
    describe(group, () => {
      it.each(cases.map((c) => [c.tool, c.input, c] as const))('%s %j', (_tool, _input, c) => {
        expect(judgeCase(c)).toEqual({ verdict: 'allow' });
      });
    });
  }
});
