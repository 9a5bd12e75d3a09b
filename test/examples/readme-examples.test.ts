// The README's examples and those it moved to docs/writing-hooks.md, run as written: the bash guard
// judges the command only (not the cwd), the commands the docs tell a user to type name this package,
// and the README's links work off the repository.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tmpProject } from '../helpers.js';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const WRITING_HOOKS = readFileSync(path.join(ROOT, 'docs', 'writing-hooks.md'), 'utf8');

/** The fenced blocks of a markdown text in this language. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

function bashGuard(): string {
  const guard = blocks(WRITING_HOOKS, 'bash').find((b) => b.includes('production'));
  expect(guard, 'docs/writing-hooks.md has a bash guard about production').toBeDefined();
  const dir = tmpProject();
  const file = path.join(dir, 'no-production.sh');
  writeFileSync(file, guard!);
  chmodSync(file, 0o755);
  return file;
}

function runGuard(file: string, payload: unknown, env: NodeJS.ProcessEnv = process.env) {
  return spawnSync('/bin/bash', [file], { input: typeof payload === 'string' ? payload : JSON.stringify(payload), encoding: 'utf8', env });
}

describe("docs/writing-hooks.md's bash guard", () => {
  const event = (command: string, cwd: string) => ({ session_id: 's', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });

  it('lets ls through in a project under /srv/production-site: the cwd is not the command', () => {
    const r = runGuard(bashGuard(), event('ls -la', '/srv/production-site'));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('blocks a command that mentions production, with the reason on stderr', () => {
    const r = runGuard(bashGuard(), event('ssh deploy@production.example.com', '/home/dev/app'));
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('no production commands from the agent\n');
  });

  it('fails (never a silent pass) when jq is missing or the payload is not JSON', () => {
    const file = bashGuard();
    const noJq = runGuard(file, event('deploy production', '/x'), { PATH: '/nonexistent' });
    expect(noJq.status).not.toBe(0);
    expect(noJq.status).not.toBe(2);
    const garbage = runGuard(file, '{not json');
    expect(garbage.status).not.toBe(0);
  });
});

describe('commands the docs tell a user to type', () => {
  // docs/install.md, docs/agents.md and docs/guards/ are checked by their owners' tests when they
  // change; these are the README and the pages that spell commands for newcomers.
  const pages = ['README.md', 'docs/cli.md', 'docs/testing.md', 'docs/protocol.md', 'hooks-examples/README.md', 'docs/getting-started.md', 'docs/config.md', 'docs/writing-hooks.md', 'docs/overview.md', 'docs/library.md', 'docs/guards/README.md'];

  it('never say "npx hooks" (an unrelated package on the registry)', () => {
    for (const page of pages) {
      const text = readFileSync(path.join(ROOT, page), 'utf8');
      // Naming it to warn against it ("`npx hooks` is not safe") is fine; a command after it is not.
      expect(text.match(/npx hooks [a-z].*/g) ?? [], page).toEqual([]);
    }
  });

  it('spell a command line in a shell block as npx agent-hooks, never a bare hooks not on PATH', () => {
    for (const page of pages) {
      const text = readFileSync(path.join(ROOT, page), 'utf8');
      const bare = blocks(text, 'sh').flatMap((b) => b.split('\n')).filter((line) => /^hooks |\| hooks /.test(line));
      expect(bare, page).toEqual([]);
    }
  });
});

describe("the README's links", () => {
  it('are absolute (the registry page has no files beside the README) and name files that exist', () => {
    const links = [...README.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.filter((l) => !/^https?:\/\//.test(l) && !l.startsWith('#'))).toEqual([]);
    const prefix = /^https:\/\/github\.com\/agent-hooks\/agent-hooks\/(?:blob|tree)\/main\//;
    for (const link of links.filter((l) => prefix.test(l))) {
      const target = link.replace(prefix, '').replace(/#.*$/, '');
      expect(existsSync(path.join(ROOT, target)), link).toBe(true);
    }
    // Images come from raw.githubusercontent.com (the registry page renders them from there).
    const raw = /^https:\/\/raw\.githubusercontent\.com\/agent-hooks\/agent-hooks\/main\//;
    const images = links.filter((l) => raw.test(l));
    expect(images.length).toBeGreaterThan(0);
    for (const link of images) expect(existsSync(path.join(ROOT, link.replace(raw, ''))), link).toBe(true);
  });

  it('puts what it is and the two commands within the first screen, and stays short', () => {
    const firstScreen = README.split('\n').slice(0, 25).join('\n');
    expect(firstScreen).toContain('npm ci && npm run demo');
    expect(firstScreen).toContain('npm ci && npm test');
    expect(firstScreen).toMatch(/!\[[^\]]+\]\([^)]+event-flow\.svg\)/);
    expect(README.split(/\s+/).filter((w) => w !== '').length).toBeLessThan(1000);
    // The Install section says the hot path runs the installed bin, not npx.
    const install = README.slice(README.indexOf('## Install'), README.indexOf('\n## ', README.indexOf('## Install') + 1));
    expect(install).toMatch(/hot path.*installed bin, not npx/i);
  });
});
