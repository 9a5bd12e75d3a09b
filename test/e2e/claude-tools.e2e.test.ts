// The tool table (src/events/tools.ts) against the real Claude Code: its CLI bundle lists every built-in
// tool, sorted, followed by the map of retired names (`=["Agent",...,"Write"],X={Task:"Agent",...}`).
// A tool Claude Code has and the table does not is a failing test, not a false "matches no known tool".
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_RETIRED_TOOLS, CLAUDE_CODE_TOOLS, KNOWN_TOOL_NAMES } from '../../src/events/tools.js';
import { AGENTS, installAgent } from './harness/install-agent.js';

/** The bundle's tool list and retired-name map, found from the map's `Task:"Agent"` entry. */
function readToolList(bundle: Buffer): { tools: string[]; retired: Record<string, string> } | undefined {
  for (let at = bundle.indexOf('Task:"Agent"'); at !== -1; at = bundle.indexOf('Task:"Agent"', at + 1)) {
    const open = bundle.lastIndexOf('{', at);
    const close = bundle.indexOf('}', at);
    if (open === -1 || close === -1 || at - open > 2000) continue;
    const before = bundle.toString('latin1', Math.max(0, open - 40), open);
    if (!/\],[\w$]+=$/.test(before)) continue;
    const end = open - before.length + before.lastIndexOf(']');
    const start = bundle.lastIndexOf('=[', end);
    if (start === -1 || end - start > 10_000) continue;
    let tools: unknown;
    try {
      tools = JSON.parse(bundle.toString('latin1', start + 1, end + 1));
    } catch {
      continue;
    }
    if (!Array.isArray(tools) || !tools.every((t) => typeof t === 'string')) continue;
    const map = bundle.toString('latin1', open, close + 1);
    const retired = Object.fromEntries([...map.matchAll(/([\w$]+):"([\w$]+)"/g)].map((m) => [m[1]!, m[2]!]));
    return { tools: tools as string[], retired };
  }
  return undefined;
}

describe(`Claude Code ${AGENTS.claude.version}'s tools are all in the tool table`, () => {
  let found: ReturnType<typeof readToolList>;
  beforeAll(async () => {
    found = readToolList(readFileSync(await installAgent('claude')));
  });

  it('the bundle still has its tool list where the table says it was read', () => {
    expect(found, 'no `=[...],X={Task:"Agent",...}` in the bundle: read the tool list again as src/events/tools.ts says').toBeDefined();
    expect(found!.tools).toContain('Bash');
    expect(found!.tools.length).toBeGreaterThan(20);
  });

  it('every built-in tool is known (a new one here belongs in CLAUDE_CODE_TOOLS)', () => {
    const missing = found!.tools.filter((t) => !CLAUDE_CODE_TOOLS.includes(t) || !KNOWN_TOOL_NAMES.includes(t));
    expect(missing).toEqual([]);
  });

  it('every retired name is known, and means the tool the table says', () => {
    for (const [old, current] of Object.entries(found!.retired)) expect([old, CLAUDE_CODE_RETIRED_TOOLS[old]]).toEqual([old, current]);
  });
});
