// `hooks sample`: not written yet (placeholder so the command table stays stable while it is built).
import { HooksError } from '../../errors.js';
import type { Command } from '../command.js';

export const command: Command = {
  help: 'Usage: hooks sample (not available yet)\n',
  args: { positional: [], flags: {} },
  async run() {
    throw new HooksError('USAGE', 'hooks sample is not available yet');
  },
};
