// The docs as a reader follows them: every link to a page of the repository (and its #anchor) leads
// somewhere, and output the docs quote is what the CLI prints.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, ROOT, runCli, tmpProject } from '../helpers.js';

const REPO_URL = 'https://github.com/agent-hooks/agent-hooks/blob/main/';
const PAGES = ['README.md', ...readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f))];

/** Markdown without its fenced blocks (a `#` line in a shell block is no heading; a link there is no link). */
const prose = (text: string) => text.replace(/```[\s\S]*?```/g, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function anchors(file: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const text = prose(readFileSync(file, 'utf8'));
  for (const [, heading] of text.matchAll(/^#{1,6} (.*)$/gm)) {
    const slug = heading!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/_/g, '').replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const [, id] of text.matchAll(/<a (?:name|id)="([^"]+)"/g)) out.add(id!);
  return out;
}

describe('links between the docs', () => {
  it.each(PAGES)('%s: every link to a file of the repository, and its anchor, exists', (page) => {
    const broken: string[] = [];
    for (const [, link] of prose(readFileSync(path.join(ROOT, page), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(link!) && !link!.startsWith(REPO_URL)) continue;
      const [target, anchor] = link!.replace(REPO_URL, '/').split('#') as [string, string | undefined];
      const file = target === '' ? path.join(ROOT, page) : target.startsWith('/') ? path.join(ROOT, target) : path.join(ROOT, path.dirname(page), target);
      if (!existsSync(file)) broken.push(`${link}: no such file`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchors(file).has(anchor)) broken.push(`${link}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});

describe('output the docs quote', () => {
  it("docs/cli.md shows hooks init's output as it is", () => {
    const dir = tmpProject();
    const init = runCli(['init'], { cwd: dir, env: isolatedEnv(dir) });
    expect(init.code).toBe(0);
    const docs = readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## hooks init'), docs.indexOf('## hooks guard'));
    const quoted = /```text\n([\s\S]*?)```/.exec(section)?.[1];
    expect(quoted).toBe(init.stdout);
  });
});
