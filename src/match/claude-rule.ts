// Claude Code's per-handler `if`: one permission rule (`Bash(git push*)`, `Edit(*.ts)`,
// `WebFetch(domain:example.com)`, `mcp__github`), tested before the hook is spawned.
//
// Claude Code checks a Bash rule against every subcommand (after leading `VAR=value` words), including
// `$(...)` and backticks, and runs the hook when the command cannot be parsed. The reading here errs the
// same way: it splits more generously than a shell would, so a rule can only match more often, and a
// hook that guards something never stays asleep because the split was too clever.
import path from 'node:path';
import { isRecord } from '../json.js';
import { isInside, normalPath } from '../paths.js';
import { canonicalTool, toolSpellings } from '../events/tools.js';
import { glob, pathGlob } from './glob.js';

export interface ClaudeRule {
  tool: string;
  /** The text in parentheses; undefined for a bare tool name (every call of the tool). */
  content?: string;
}

/** Parses `Tool` or `Tool(content)`; undefined when it is neither. */
export function parseClaudeRule(rule: string): ClaudeRule | undefined {
  const m = /^\s*([A-Za-z0-9_.:*-]+)\s*(?:\(([\s\S]*)\))?\s*$/.exec(rule);
  if (m === null) return undefined;
  const content = m[2]?.trim();
  return content === undefined || content === '' || content === '*' ? { tool: m[1]! } : { tool: m[1]!, content };
}

/** Whether a tool call passes the rule. `cwd` resolves relative path rules (the session's folder). */
export function rulePasses(rule: ClaudeRule, tool: { name: string; canonical: string }, input: unknown, cwd: string | undefined, home?: string): boolean {
  if (!sameTool(rule.tool, tool)) return false;
  if (rule.content === undefined) return true;
  const fields = isRecord(input) ? input : {};
  switch (tool.canonical) {
    case 'exec': {
      const command = fields.command;
      if (typeof command !== 'string') return true;
      return subcommands(command).some((c) => commandPasses(rule.content!, c));
    }
    case 'read':
    case 'write':
    case 'edit': {
      const file = [fields.file_path, fields.notebook_path, fields.path].find((v): v is string => typeof v === 'string');
      if (file === undefined) return true;
      return pathPasses(rule.content, file, cwd, home);
    }
    case 'web_fetch': {
      const url = fields.url;
      if (typeof url !== 'string') return true;
      if (!rule.content.startsWith('domain:')) return wildcard(rule.content).test(url);
      let host: string;
      try {
        host = new URL(url).hostname.toLowerCase();
      } catch {
        return true;
      }
      const domain = rule.content.slice('domain:'.length).trim().toLowerCase();
      return host === domain || host.endsWith(`.${domain}`) || (domain.startsWith('*.') && host.endsWith(domain.slice(1)));
    }
    default: {
      // A rule on a tool whose input we do not know: the content is matched against each string
      // field; with none, the hook runs (as Claude Code does with what it cannot read).
      const strings = Object.values(fields).filter((v): v is string => typeof v === 'string');
      if (strings.length === 0) return true;
      const re = wildcard(rule.content);
      return strings.some((s) => re.test(s));
    }
  }
}

// --- internal ---

function sameTool(ruleTool: string, tool: { name: string; canonical: string }): boolean {
  if (ruleTool === tool.name) return true;
  // `mcp__server` names every tool of that server, as in Claude Code's permission rules.
  if (ruleTool.startsWith('mcp__') && !ruleTool.slice(5).includes('__')) return tool.name.startsWith(`${ruleTool}__`);
  if (ruleTool.includes('*')) return wildcard(ruleTool).test(tool.name);
  const canonical = canonicalTool(ruleTool);
  return canonical === tool.canonical || toolSpellings(tool.canonical).includes(ruleTool);
}

/** `*` is any text (spaces too); `prefix:*` is Claude Code's older "starts with" form. */
function wildcard(pattern: string): RegExp {
  const body = pattern.endsWith(':*') ? `${escape(pattern.slice(0, -2))}[\\s\\S]*` : pattern.split('*').map(escape).join('[\\s\\S]*');
  return new RegExp(`^${body}$`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function commandPasses(content: string, command: string): boolean {
  const re = wildcard(content);
  if (re.test(command)) return true;
  // `git push*` also matches `git push` said with extra spaces or tabs.
  return re.test(command.replace(/\s+/g, ' '));
}

/**
 * The command and every piece a shell could run on its own: split at `;`, `&`, `|`, newlines, inside
 * `$(...)`, backticks and `(...)`, each without leading `VAR=value` words. The whole command stays in
 * the list too.
 */
export function subcommands(command: string): string[] {
  const pieces = new Set<string>([command.trim()]);
  const inner: string[] = [];
  for (const m of command.matchAll(/\$\(([^()]*)\)|`([^`]*)`|\(([^()]*)\)/g)) inner.push(m[1] ?? m[2] ?? m[3] ?? '');
  for (const text of [command, ...inner]) {
    for (const part of text.split(/&&|\|\||[;&|\n]|\$\(|`|[()]/)) {
      const words = part.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+)+/, '').trim();
      if (words !== '') pieces.add(words);
    }
  }
  return [...pieces];
}

/** What a rule's `~` and the file's HOME both become before matching: a folder name with no glob syntax. */
const HOME_STAND_IN = '/HOME';

/**
 * Claude Code's path rules are gitignore-style: `*.ts` matches the base name anywhere; `./x` and
 * `/x` are relative to the project, `//x` absolute, `~/x` in the home folder.
 */
function pathPasses(content: string, given: string, cwd: string | undefined, home: string | undefined): boolean {
  const file = normalPath(given);
  let pattern = content;
  let base = cwd;
  if (pattern.startsWith('//')) {
    pattern = pattern.slice(1);
    base = undefined;
  } else if (pattern.startsWith('~/')) {
    // No HOME to judge by: the hook runs (a guard is not skipped on a guess).
    if (home === undefined || !path.isAbsolute(home)) return true;
    // HOME stands in as a plain name on both sides, never inside the glob itself: a home such as
    // "/Users/Jo (Work)" or "/home/{a,b}" is glob syntax to picomatch, and the rule would match nothing.
    const rule = path.posix.join(HOME_STAND_IN, pattern.slice(2)).replace(/(?<=.)\/+$/, '');
    // A rule that climbs out of HOME (`~/../*/.ssh/**`) cannot be judged without HOME in a glob: the hook runs.
    if (!isInside(HOME_STAND_IN, rule)) return true;
    const where = path.isAbsolute(file) ? file : cwd !== undefined && path.isAbsolute(cwd) ? path.join(cwd, file) : undefined;
    if (where === undefined) return true;
    return isInside(home, where) && glob(rule, 'path')(path.posix.join(HOME_STAND_IN, path.relative(home, where)));
  } else if (pattern.startsWith('./')) pattern = pattern.slice(2);
  else if (pattern.startsWith('/')) pattern = pattern.slice(1);
  const matcher = pathGlob(pattern);
  if (!pattern.includes('/') || path.isAbsolute(pattern)) return matcher(file);
  if (matcher(file)) return true;
  return base !== undefined && path.isAbsolute(file) && isInside(base, file) && matcher(path.relative(base, file));
}
