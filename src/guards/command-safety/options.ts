// The guard's options, as written under `{ "builtin": "command-safety", "options": { … } }`.
import { z } from 'zod';
import { sandboxOptionsSchema } from '../../sandbox/options.js';

export const CATEGORIES = [
  'filesystem-destruction',
  'delete-outside-project',
  'git-destruction',
  'disk',
  'permissions',
  'auth-files',
  'remote-code',
  'backdoor',
  'fork-bomb',
  'git-hook-bypass',
  'docker-wipe',
] as const;

export type Category = (typeof CATEGORIES)[number];

/**
 * Opt-in rule packs for tools whose deletes reach beyond the machine (databases, clusters, clouds)
 * or hold data a rebuild cannot bring back (Docker volumes). Off unless named in `packs`.
 */
export const PACKS = ['database', 'kubernetes', 'infrastructure', 'cloud', 'docker'] as const;
export type Pack = (typeof PACKS)[number];

/**
 * The named rules inside categories that users commonly want to relax one by one (a team that
 * force-pushes feature branches, a workflow that cleans with `git clean -fdx`).
 */
export const RULES = [
  'git-reset-hard',
  'git-push-force',
  'git-push-delete',
  'git-clean',
  'git-discard-changes',
  'git-branch-force-delete',
  'git-stash-drop',
  'git-history-rewrite',
  'git-reflog-expire',
  'git-rm-force',
  'git-worktree-force-remove',
  'git-repository-delete',
  'delete-outside-project',
  'delete-project-root',
  'fetch-and-exec',
  'package-from-url',
] as const;

/**
 * Categories whose damage a sandbox contains (no network, nothing writable but the project, no
 * devices): these may be routed to a sandbox instead of blocked. The others (`rm -rf` of the project,
 * git history, hook bypass, fork bombs) would do their harm inside the sandbox too.
 */
export const ROUTABLE = ['remote-code', 'backdoor', 'delete-outside-project', 'auth-files', 'disk', 'permissions', 'docker-wipe'] as const satisfies readonly Category[];
export type RoutableCategory = (typeof ROUTABLE)[number];

export type RuleId = (typeof RULES)[number];

/** `true`/`"block"`: block (the default); `"ask"`: ask the user; `false`: off. */
export type Mode = boolean | 'block' | 'ask';
const modeSchema = z.union([z.boolean(), z.enum(['block', 'ask'])]);

const categoriesSchema = z
  .object(Object.fromEntries(CATEGORIES.map((c) => [c, modeSchema.optional()])) as Record<Category, z.ZodOptional<typeof modeSchema>>)
  .strict();

const rulesSchema = z
  .object(Object.fromEntries(RULES.map((r) => [r, modeSchema.optional()])) as Record<RuleId, z.ZodOptional<typeof modeSchema>>)
  .strict();

export const commandSafetyOptionsSchema = z
  .object({
    /** Every category is on (blocks) unless set to false or "ask". */
    categories: categoriesSchema.optional(),
    /** Single rules of a category, same values; a rule's own setting wins over its category's. */
    rules: rulesSchema.optional(),
    /**
     * Opt-in packs: `["database", "cloud"]` blocks what they find; `{ "database": "ask" }` sets a
     * mode per pack (`false` leaves it off).
     */
    packs: z
      .union([
        z.array(z.enum(PACKS)),
        z.object(Object.fromEntries(PACKS.map((p) => [p, modeSchema.optional()])) as Record<Pack, z.ZodOptional<typeof modeSchema>>).strict(),
      ])
      .optional(),
    /** Globs (`*`, `?`) on each normalized simple command (`terraform destroy*`): always blocked. */
    deny: z.array(z.string().min(1)).optional(),
    /** Globs on each normalized simple command that exempt it from the built-in categories. */
    allow: z.array(z.string().min(1)).optional(),
    /**
     * Directories (absolute or `~/…`) where deletes are fine besides the project and the temp
     * directories: `["~/scratch", "/srv/builds"]`.
     */
    allowDeleteIn: z.array(z.string().min(1).refine((p) => p.startsWith('/') || p === '~' || p.startsWith('~/'), 'must be absolute or start with ~/')).optional(),
    /**
     * Categories that run in a sandbox instead of being blocked: `{ "remote-code": "sandbox" }`. A
     * command with any other blocking finding is still blocked; with no sandbox present it is blocked.
     */
    route: z
      .object(Object.fromEntries(ROUTABLE.map((c) => [c, z.literal('sandbox').optional()])) as Record<RoutableCategory, z.ZodOptional<z.ZodLiteral<'sandbox'>>>)
      .strict()
      .optional(),
    /** How the sandbox is set up for routed commands (the `sandbox` guard's options). */
    sandbox: sandboxOptionsSchema.optional(),
    /** What to do with a command that cannot be parsed or verified within the limits. */
    unverifiable: z.enum(['block', 'ask', 'allow']).optional(),
  })
  .strict();

export type CommandSafetyOptions = z.infer<typeof commandSafetyOptionsSchema>;
