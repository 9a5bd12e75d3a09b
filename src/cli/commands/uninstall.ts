// `hooks uninstall`: not written yet (placeholder so the command table stays stable while it is built).
import { HooksError } from '../../errors.js';
import type { Command } from '../command.js';

export const command: Command = {
  help: 'Usage: hooks uninstall (not available yet)\n',
  args: { positional: [], flags: {} },
  async run() {
    throw new HooksError('USAGE', 'hooks uninstall is not available yet');
  },
};
