// Runs the rules over an analysed command and applies the options.
import { analyzeShell } from '../shell/analyze.js';
import type { ShellLimits } from '../shell/limits.js';
import type { SimpleCommand } from '../shell/types.js';
import { type JudgeContext, type Where, resolveWhere } from './context.js';
import type { CommandRule, Finding } from './finding.js';
import { globMatch } from './glob.js';
import { type Category, type CommandSafetyOptions, type Mode, PACKS, type Pack } from './options.js';
import { PACK_RULES } from './packs/index.js';
import type { PackRule } from './packs/finding.js';
import { gitRule } from './rules/git.js';
import { outsideProjectRule } from './rules/outside-project.js';
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
  | {
      verdict: 'block' | 'ask' | 'route';
      category: string;
      rule?: string;
      reason: string;
      offending: string;
      /** The findings that `route` sends to a sandbox (on `route`, and on an `ask` that also has some). */
      routed?: string[];
    };

const RULES: readonly [Category, CommandRule][] = [
  ['filesystem-destruction', filesystemRule],
  ['disk', diskRule],
  ['permissions', permissionsRule],
  ['auth-files', authFilesRule],
  ['remote-code', remoteCodeRule],
  ['backdoor', backdoorRule],
  ['git-hook-bypass', gitHooksRule],
  ['docker-wipe', dockerRule],
  ['git-destruction', gitRule],
  ['delete-outside-project', outsideProjectRule],
];

const MAX_OFFENDING = 160;

/** The words of a command joined by single spaces: what deny and allow patterns see. */
export function normalizedText(cmd: SimpleCommand): string {
  return cmd.argv.join(' ');
}

/**
 * Judges `command` run in `context` (the event's cwd, the project root, home). Never throws: a
 * failure of the analysis itself is an unverifiable command, like a parse error.
 */
export function judge(
  command: string,
  options: CommandSafetyOptions = {},
  limits?: Partial<ShellLimits>,
  context?: JudgeContext,
): Judgement {
  try {
    return judgeUnsafe(command, options, limits, context);
  } catch (error) {
    const mode = unverifiableMode(options);
    if (mode === 'allow') return { verdict: 'allow' };
    return outcome(mode, 'unverifiable', undefined, `could not be verified: the analysis failed (${oneLine(String((error as Error)?.message ?? error))})`, clip(command));
  }
}

function unverifiableMode(options: CommandSafetyOptions): 'block' | 'ask' | 'allow' {
  return options.unverifiable ?? 'block';
}

/**
 * The mode a finding gets: its rule's setting, else its category's, else block; a block of a
 * category that `route` sends to a sandbox becomes `route`.
 */
function modeOf(finding: Finding, options: CommandSafetyOptions): 'block' | 'ask' | 'allow' | 'route' {
  if (finding.category === 'deny') return 'block';
  if (finding.category === 'unverifiable') return unverifiableMode(options);
  if (isPack(finding.category)) {
    const setting = packMode(options, finding.category);
    return setting === 'ask' ? 'ask' : setting === undefined || setting === false ? 'allow' : 'block';
  }
  const setting: Mode | undefined = (finding.rule !== undefined ? options.rules?.[finding.rule] : undefined) ?? options.categories?.[finding.category];
  if (setting === undefined || setting === true || setting === 'block') {
    return (options.route as Partial<Record<string, 'sandbox'>> | undefined)?.[finding.category] === 'sandbox' ? 'route' : 'block';
  }
  return setting === 'ask' ? 'ask' : 'allow';
}

function isPack(category: string): category is Pack {
  return (PACKS as readonly string[]).includes(category);
}

/** A pack's setting: named in the array form is `true`; absent is off. */
function packMode(options: CommandSafetyOptions, pack: Pack): Mode | undefined {
  const packs = options.packs;
  if (packs === undefined) return undefined;
  return Array.isArray(packs) ? packs.includes(pack) || undefined : packs[pack];
}

/** The rules of the packs the options turn on, once per judgement. */
function enabledPacks(options: CommandSafetyOptions): PackRule[] {
  if (options.packs === undefined) return [];
  return PACKS.filter((p) => {
    const mode = packMode(options, p);
    return mode !== undefined && mode !== false;
  }).map((p) => PACK_RULES[p]);
}

function judgeUnsafe(command: string, options: CommandSafetyOptions, limits: Partial<ShellLimits> | undefined, context: JudgeContext | undefined): Judgement {
  const where: Where = resolveWhere(context, options.allowDeleteIn);
  const analysis = analyzeShell(command, limits, where.cwd, where.home, where.gitAliases);
  if (!analysis.ok) {
    const mode = unverifiableMode(options);
    if (mode === 'allow') return { verdict: 'allow' };
    return outcome(mode, 'unverifiable', undefined, `could not be verified: ${analysis.error}`, clip(command));
  }
  const categoryOff = (c: Category): boolean => options.categories?.[c] === false;
  const deny = options.deny ?? [];
  const allow = options.allow ?? [];
  const allowed = (f: Finding): boolean =>
    allow.length > 0 && [f.command, ...(f.involved ?? [])].some((c) => allow.some((p) => globMatch(p, normalizedText(c))));

  // The first finding that blocks wins; an `ask` and the findings to route are kept in case nothing
  // blocks: a routed finding never hides a block found later in the same command.
  let ask: Judgement | undefined;
  const routed: Judgement[] = [];
  const consider = (finding: Finding | undefined): Judgement | undefined => {
    if (!finding || allowed(finding)) return undefined;
    const mode = modeOf(finding, options);
    if (mode === 'allow') return undefined;
    const judgement = fromFinding(finding, mode);
    if (mode === 'block') return judgement;
    if (mode === 'route') routed.push(judgement);
    else ask ??= judgement;
    return undefined;
  };

  const packs = enabledPacks(options);
  for (const cmd of analysis.commands) {
    const text = normalizedText(cmd);
    const denied = text !== '' ? deny.find((p) => globMatch(p, text)) : undefined;
    if (denied !== undefined) return fromFinding({ category: 'deny', what: `matches deny pattern "${denied}"`, command: cmd }, 'block');
    for (const [category, rule] of RULES) {
      if (categoryOff(category)) continue;
      const verdict = consider(rule(cmd, where));
      if (verdict) return verdict;
    }
    for (const rule of packs) {
      const verdict = consider(rule(cmd));
      if (verdict) return verdict;
    }
  }
  if (!categoryOff('fork-bomb')) {
    const verdict = consider(forkBombRule(analysis));
    if (verdict) return verdict;
  }
  if (unverifiableMode(options) !== 'allow') {
    for (const cmd of analysis.commands) {
      const verdict = consider(unverifiableRule(cmd, where));
      if (verdict) return verdict;
    }
  }
  if (routed.length === 0) return ask ?? { verdict: 'allow' };
  const reasons = routed.map((j) => (j.verdict === 'allow' ? '' : j.reason));
  if (ask !== undefined && ask.verdict !== 'allow') return { ...ask, routed: reasons };
  const first = routed[0]!;
  return first.verdict === 'allow' ? first : { ...first, routed: reasons };
}

function fromFinding(f: Finding, mode: 'block' | 'ask' | 'route'): Judgement {
  const { anchor, source } = f.command;
  const offending = anchor.includes(source) ? anchor : `${anchor} → ${source}`;
  return outcome(mode, f.category, f.rule ?? f.packRule, f.what, clip(offending));
}

function outcome(verdict: 'block' | 'ask' | 'route', category: string, rule: string | undefined, what: string, offending: string): Judgement {
  const label = rule !== undefined && rule !== category ? `${category} (${rule})` : category;
  return {
    verdict,
    category,
    ...(rule !== undefined ? { rule } : {}),
    offending,
    reason: `command-safety: ${label}: ${oneLine(what)} (in: ${offending})`,
  };
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ↵ ');
}

function clip(text: string): string {
  const line = oneLine(text.trim());
  return line.length > MAX_OFFENDING ? `${line.slice(0, MAX_OFFENDING - 1)}…` : line;
}
