#!/usr/bin/env node
// The CLI is one bundled ES module (dist/bundle): the runner starts on every tool call, and one
// file with lazily loaded chunks starts far faster than hundreds of node_modules files.
import { main } from '../dist/bundle/main.js';

main();
