#!/usr/bin/env node
// The CLI: dist/bundle/main.js, the launcher, runs the bundled CLI (dist/bundle/cli.cjs) from a V8 code
// cache. bin/package.json makes this file CommonJS: the runner starts on every tool call, and an ES
// module entry would start Node's ES module loader, which a hook run never needs. Written to run as
// either kind, so a copy outside the package still says what is wrong.
const entry = '../dist/bundle/main.js';

// A clone of the repository before `npm run build` (dist/ is not committed): one line that says
// what to do, not a stack. Like any runner error it blocks under HOOKS_ON_ERROR=block.
function notBuilt(error) {
  if (!/MODULE_NOT_FOUND/.test(String(error?.code)) || !String(error.message).includes('main.js')) throw error;
  process.stderr.write('agent-hooks: the CLI is not built (dist/bundle/main.js is missing); in a clone of the repository, run "npm run build"\n');
  process.exit(process.env.HOOKS_ON_ERROR === 'block' ? 2 : 1);
}

if (typeof require === 'function') {
  let launcher;
  try {
    launcher = require(entry);
  } catch (error) {
    notBuilt(error);
  }
  launcher.main();
} else {
  import(entry).then(({ main }) => main(), notBuilt);
}
