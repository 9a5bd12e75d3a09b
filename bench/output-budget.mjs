// Time of the output-budget guard on large tool output, as ratios against baselines measured in the
// same run: JSON.parse of the same output (what the runner does to every event anyway) and one
// String.prototype.replace pass with a plain ANSI regex (the usual strip-ansi approach).
// Run after `npm run build`:  node bench/output-budget.mjs [rounds]
import { createBudget } from '../dist/guards/output-budget.js';
import { median, seededRandom } from './kit.mjs';

const rounds = Number(process.argv[2] ?? 15);

const rand = seededRandom(7);
const lines = [
  () => `\u001b[32m✓\u001b[39m test/unit/case-${Math.floor(rand() * 1e6)}.test.ts (12 tests) \u001b[2m${Math.floor(rand() * 999)}ms\u001b[22m`,
  () => `2026-11-22T10:00:00Z INFO [worker-${Math.floor(rand() * 4)}] GET /api/v1/items/${Math.floor(rand() * 1e5)} 200`,
  () => `\u001b[2K\u001b[1G[${'#'.repeat(Math.floor(rand() * 40))}${' '.repeat(40)}] ${Math.floor(rand() * 100)}%`,
  () => `    at Object.<anonymous> (/home/dev/project/node_modules/pkg/lib/index.js:${Math.floor(rand() * 999)}:18) ünïcødé ✓`,
  () => `\u001b]8;;https://example.test/${Math.floor(rand() * 1e6)}\u001b\\link\u001b]8;;\u001b\\ plain text after it`,
];
function build(bytes) {
  let out = '';
  while (out.length < bytes) out += lines[Math.floor(rand() * lines.length)]() + '\n';
  return out;
}

const PLAIN_ANSI = /[\u001b\u009b][[\]()#;?]*(?:(?:(?:[a-zA-Z\d]*(?:;[a-zA-Z\d]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;

const outputs = {
  'Bash stdout, 2 MB with colour codes': { stdout: build(2 << 20), stderr: build(4096), interrupted: false },
  'Bash stdout, 2 MB plain text': { stdout: build(2 << 20).replace(/[\u001b]\S*?[m\\G]/g, ''), stderr: '', interrupted: false },
  'MCP result, 2,000 text parts of 1 KB': { content: Array.from({ length: 2000 }, () => ({ type: 'text', text: build(1024) })) },
};

const defaults = { max: 32_768, unit: 'bytes', keep: 'head-tail', ansi: true, marker: '\n[… {cut} {unit} cut by agent-hooks output-budget …]\n', redact: true };
const variants = {
  'strip + cap + redact what is cut (default)': createBudget(defaults),
  'strip + cap, no redaction': createBudget({ ...defaults, redact: false }),
  'cap only (ansi: false, redact: false)': createBudget({ ...defaults, ansi: false, redact: false }),
  'strip only (max 1e9)': createBudget({ ...defaults, max: 1e9, redact: false }),
};

function time(fn) {
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

for (const [name, output] of Object.entries(outputs)) {
  const json = JSON.stringify(output);
  const parse = time(() => JSON.parse(json));
  const replace = time(() => json.replace(PLAIN_ANSI, ''));
  console.log(`\n${name} (${(json.length / 1048576).toFixed(1)} MB as JSON)`);
  console.log(`  baseline JSON.parse:              ${parse.toFixed(2)} ms (1.00)`);
  console.log(`  baseline one ANSI regex replace:  ${replace.toFixed(2)} ms (${(replace / parse).toFixed(2)}x parse)`);
  for (const [label, budget] of Object.entries(variants)) {
    const ms = time(() => budget(output));
    console.log(`  ${label.padEnd(44)} ${ms.toFixed(2)} ms = ${(ms / parse).toFixed(2)}x JSON.parse, ${(ms / replace).toFixed(2)}x regex replace`);
  }
}
