// Recall and look-alike change rate of redact-secrets on suites kept OUTSIDE this repository (built
// from other projects' published rule examples and detector tests), so they measure recall, not
// consistency with our own examples. A suite folder holds one sub-folder per source, each with
// positives.jsonl (texts holding a secret: redacted if the text changes) and/or negatives.jsonl
// (texts that must come back byte for byte), one {"id", "text"} object per line.
// Run after `npm run build`:
//   node bench/redact-secrets-suite.mjs <suite folder> [--baseline <other dist/guards/redact-secrets.js>] [--misses N]
// The committed clean look-alike corpus (test/fixtures/redact-secrets/) is always measured too.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const [, value] = args.splice(at, 2);
  return value;
};
const baselinePath = flag('--baseline');
const misses = Number(flag('--misses') ?? 0);
const suite = args[0];
const fixtures = fileURLToPath(new URL('../test/fixtures/redact-secrets', import.meta.url));

if (suite === undefined || !existsSync(suite)) {
  console.log(`redact-secrets-suite: no suite folder${suite ? ` at ${suite}` : ' given'}; skipped (see the header of this file for the layout)`);
  if (suite === undefined) process.exit(0);
}

const read = (file) =>
  existsSync(file)
    ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
    : [];
const sources = [];
if (suite !== undefined && existsSync(suite)) {
  for (const name of readdirSync(suite).sort()) {
    const dir = join(suite, name);
    const positives = read(join(dir, 'positives.jsonl'));
    const negatives = read(join(dir, 'negatives.jsonl'));
    if (positives.length + negatives.length > 0) sources.push({ name, positives, negatives });
  }
}
sources.push({ name: 'clean look-alikes (test/fixtures)', positives: [], negatives: read(join(fixtures, 'clean-lookalikes.jsonl')) });

const engines = [['this build', new URL('../dist/guards/redact-secrets.js', import.meta.url).href]];
if (baselinePath) engines.unshift(['baseline', pathToFileURL(resolve(baselinePath)).href]);

const rows = [];
const totals = {};
for (const [label, url] of engines) {
  const redactor = (await import(url)).createRedactor();
  const changed = (text) => redactor.text(text).text !== text;
  const t = (totals[label] = { pos: 0, hit: 0 });
  for (const { name, positives, negatives } of sources) {
    const missed = positives.filter((p) => !changed(p.text));
    const touched = negatives.filter((n) => changed(n.text));
    t.pos += positives.length;
    t.hit += positives.length - missed.length;
    rows.push({
      engine: label,
      source: name,
      recall: positives.length ? `${positives.length - missed.length}/${positives.length} (${((100 * (positives.length - missed.length)) / positives.length).toFixed(1)}%)` : '-',
      'negatives changed': negatives.length ? `${touched.length}/${negatives.length} (${((100 * touched.length) / negatives.length).toFixed(1)}%)` : '-',
    });
    if (misses > 0 && label === 'this build') {
      for (const m of missed.slice(0, misses)) console.log(`miss ${name} ${m.id}: ${JSON.stringify(m.text.slice(0, 160))}`);
      for (const m of touched.slice(0, misses)) console.log(`changed ${name} ${m.id}: ${JSON.stringify(redactor.text(m.text).text.slice(0, 160))}`);
    }
  }
}
console.table(rows);
for (const [label, t] of Object.entries(totals)) {
  if (t.pos) console.log(`${label}: combined recall ${t.hit}/${t.pos} (${((100 * t.hit) / t.pos).toFixed(1)}%)`);
}
