// `hooks install`: not written yet (placeholder so the command table stays stable while it is built).
import { HooksError } from '../../errors.js';
import type { Command } from '../command.js';

export const command: Command = {
  help: 'Usage: hooks install (not available yet)\n',
  args: { positional: [], flags: {} },
  async run() {
    throw new HooksError('USAGE', 'hooks install is not available yet');
  },
};
