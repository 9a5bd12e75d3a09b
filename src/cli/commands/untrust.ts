// `hooks untrust`: forgets the trust given to a project's config files; their hooks stop running.
import path from 'node:path';
import { readTrustStore, updateTrustStore } from '../../trust/store.js';
import type { Command } from '../command.js';
import { projectFiles } from './trust.js';

export const command: Command = {
  help: `Usage: hooks untrust [path] [--all]

Forgets the trust given to the project's config files (found from path, default the working
directory, or path itself when it is a file): their hooks stop running until "hooks trust".

Options:
  --all   forget every trusted file
`,
  args: { positional: ['path'], flags: { all: 'boolean' } },
  async run(args, ctx) {
    const store = readTrustStore(ctx.env);
    let files: string[];
    if (args.flags.all === true) files = Object.keys(store.entries);
    else {
      const where = args.positional.path;
      const target = where === undefined ? undefined : path.resolve(ctx.cwd, where);
      // A file that is gone can still be forgotten by its path.
      files = target !== undefined && Object.hasOwn(store.entries, target) ? [target] : await projectFiles(where, ctx);
    }
    const known = files.filter((f) => Object.hasOwn(store.entries, f));
    if (known.length === 0) {
      ctx.stdout('nothing to do: none of these files is trusted\n');
      return 0;
    }
    updateTrustStore(ctx.env, { untrust: known });
    for (const f of known) ctx.stdout(`untrusted ${f}\n`);
    return 0;
  },
};
