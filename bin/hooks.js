#!/usr/bin/env node
// The CLI is one bundled ES module (dist/bundle): the runner starts on every tool call, and one
// file with lazily loaded chunks starts far faster than hundreds of node_modules files.
let main;
try {
  ({ main } = await import('../dist/bundle/main.js'));
} catch (error) {
  // A clone of the repository before `npm run build` (dist/ is not committed): one line that says
  // what to do, not a stack. Like any runner error it blocks under HOOKS_ON_ERROR=block.
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('main.js')) {
    process.stderr.write('agent-hooks: the CLI is not built (dist/bundle/main.js is missing); in a clone of the repository, run "npm run build"\n');
    process.exit(process.env.HOOKS_ON_ERROR === 'block' ? 2 : 1);
  }
  throw error;
}
main();
