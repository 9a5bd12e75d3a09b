// What a rule reports, before options decide whether it blocks.
import type { SimpleCommand } from '../shell/types.js';
import type { Where } from './context.js';
import type { Category, Pack, RuleId } from './options.js';

export interface Finding {
  category: Category | Pack | 'unverifiable' | 'deny';
  /** The named rule inside the category, when it has one (options can set it on its own). */
  rule?: RuleId;
  /** The rule of an opt-in pack that found it (`sql-destroy`), for the message. */
  packRule?: string;
  /** Short description of the danger: `recursive delete of /`. */
  what: string;
  /** The command the finding is about, used for the message and for allow patterns. */
  command: SimpleCommand;
  /** Other commands that make up the danger (`curl` in `curl … | bash`); allow patterns see them too. */
  involved?: SimpleCommand[];
}

export type CommandRule = (cmd: SimpleCommand, where: Where) => Finding | undefined;
