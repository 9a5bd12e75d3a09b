// Runs the rules over an analysed command and applies the options.
import { analyzeShell } from '../shell/analyze.js';
import type { ShellLimits } from '../shell/limits.js';
import type { SimpleCommand } from '../shell/types.js';
import type { CommandRule, Finding } from './finding.js';
import { globMatch } from './glob.js';
import type { Category, CommandSafetyOptions } from './options.js';
import { authFilesRule } from './rules/auth-files.js';
import { backdoorRule } from './rules/backdoor.js';
import { diskRule } from './rules/disk.js';
import { dockerRule } from './rules/docker.js';
import { filesystemRule } from './rules/filesystem.js';
import { forkBombRule } from './rules/fork-bomb.js';
import { gitHooksRule } from './rules/git-hooks.js';
import { permissionsRule } from './rules/permissions.js';
import { remoteCodeRule } from './rules/remote-code.js';
import { unverifiableRule } from './rules/unverifiable.js';

export type Judgement =
  | { verdict: 'allow' }
  | { verdict: 'block'; category: string; reason: string; offending: string };

const RULES: readonly [Category, CommandRule][] = [
  ['filesystem-destruction', filesystemRule],
  ['disk', diskRule],
  ['permissions', permissionsRule],
  ['auth-files', authFilesRule],
  ['remote-code', remoteCodeRule],
  ['backdoor', backdoorRule],
  ['git-hook-bypass', gitHooksRule],
  ['docker-wipe', dockerRule],
];

const MAX_OFFENDING = 160;

/** The words of a command joined by single spaces: what deny and allow patterns see. */
export function normalizedText(cmd: SimpleCommand): string {
  return cmd.argv.join(' ');
}

export function judge(command: string, options: CommandSafetyOptions = {}, limits?: Partial<ShellLimits>): Judgement {
  const blockUnverifiable = options.unverifiable !== 'allow';
  const analysis = analyzeShell(command, limits);
  if (!analysis.ok) {
    if (!blockUnverifiable) return { verdict: 'allow' };
    const offending = clip(command);
    return block('unverifiable', `could not be verified: ${analysis.error}`, offending);
  }
  const enabled = (c: Category): boolean => options.categories?.[c] !== false;
  const deny = options.deny ?? [];
  const allow = options.allow ?? [];
  const allowed = (f: Finding): boolean =>
    allow.length > 0 && [f.command, ...(f.involved ?? [])].some((c) => allow.some((p) => globMatch(p, normalizedText(c))));

  for (const cmd of analysis.commands) {
    const text = normalizedText(cmd);
    const denied = text !== '' ? deny.find((p) => globMatch(p, text)) : undefined;
    if (denied !== undefined) return fromFinding({ category: 'deny', what: `matches deny pattern "${denied}"`, command: cmd });
    for (const [category, rule] of RULES) {
      if (!enabled(category)) continue;
      const finding = rule(cmd);
      if (finding && !allowed(finding)) return fromFinding(finding);
    }
  }
  if (enabled('fork-bomb')) {
    const finding = forkBombRule(analysis);
    if (finding && !allowed(finding)) return fromFinding(finding);
  }
  if (blockUnverifiable) {
    for (const cmd of analysis.commands) {
      const finding = unverifiableRule(cmd);
      if (finding && !allowed(finding)) return fromFinding(finding);
    }
  }
  return { verdict: 'allow' };
}

function fromFinding(f: Finding): Judgement {
  const { anchor, source } = f.command;
  const offending = anchor.includes(source) ? anchor : `${anchor} → ${source}`;
  return block(f.category, f.what, clip(offending));
}

function block(category: string, what: string, offending: string): Judgement {
  return {
    verdict: 'block',
    category,
    offending,
    reason: `command-safety: ${category}: ${oneLine(what)} (in: ${offending})`,
  };
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ↵ ');
}

function clip(text: string): string {
  const line = oneLine(text.trim());
  return line.length > MAX_OFFENDING ? `${line.slice(0, MAX_OFFENDING - 1)}…` : line;
}
