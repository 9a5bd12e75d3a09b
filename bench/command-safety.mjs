// Per-command judgement time of the command-safety guard over the test corpus.
// Run after `npm run build`:  node bench/command-safety.mjs [iterations]
import { readFileSync } from 'node:fs';
import { parse } from 'unbash';
import { judgeCommand } from '../dist/guards/command-safety.js';

const corpus = JSON.parse(readFileSync(new URL('../test/guards/corpus/command-safety.json', import.meta.url), 'utf8'));
const iterations = Number(process.argv[2] ?? 200);
const sets = {
  dangerous: corpus.dangerous.map((c) => c.command),
  ordinary: corpus.ordinary.map((c) => c.command),
};
sets.all = [...sets.dangerous, ...sets.ordinary];

// Warm up the JIT on every command before measuring.
for (let i = 0; i < 20; i += 1) for (const command of sets.all) judgeCommand(command);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const rows = [];
for (const [name, commands] of Object.entries(sets)) {
  const samples = [];
  for (let i = 0; i < iterations; i += 1) {
    for (const command of commands) {
      const start = process.hrtime.bigint();
      judgeCommand(command);
      samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  samples.sort((a, b) => a - b);
  rows.push({
    set: name,
    commands: commands.length,
    judgements: samples.length,
    'median ms': percentile(samples, 50).toFixed(4),
    'p90 ms': percentile(samples, 90).toFixed(4),
    'p99 ms': percentile(samples, 99).toFixed(4),
    'max ms': samples[samples.length - 1].toFixed(3),
  });
}

// Baseline in the same run: unbash's parse alone over the same corpus, so the figure reads as the cost
// of our unwrapping and rules on top of the parser.
{
  const parseSamples = [];
  const judgeSamples = [];
  for (let i = 0; i < iterations; i += 1) {
    for (const command of sets.all) {
      let start = process.hrtime.bigint();
      parse(command);
      parseSamples.push(Number(process.hrtime.bigint() - start) / 1e6);
      start = process.hrtime.bigint();
      judgeCommand(command);
      judgeSamples.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  parseSamples.sort((a, b) => a - b);
  judgeSamples.sort((a, b) => a - b);
  const [p, j] = [percentile(parseSamples, 50), percentile(judgeSamples, 50)];
  rows.push({ set: 'baseline: unbash parse only (all)', commands: sets.all.length, judgements: parseSamples.length, 'median ms': p.toFixed(4), 'p90 ms': percentile(parseSamples, 90).toFixed(4), 'p99 ms': percentile(parseSamples, 99).toFixed(4), 'max ms': parseSamples.at(-1).toFixed(3) });
  rows.push({ set: `judge ÷ parse (median)`, commands: '', judgements: '', 'median ms': `${(j / p).toFixed(2)}×`, 'p90 ms': '', 'p99 ms': '', 'max ms': '' });
}

// The slowest commands, by their median over the iterations.
const perCommand = sets.all.map((command) => {
  const times = [];
  for (let i = 0; i < 50; i += 1) {
    const start = process.hrtime.bigint();
    judgeCommand(command);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { command: command.length > 60 ? `${command.slice(0, 59)}…` : command, 'median ms': percentile(times, 50) };
});
perCommand.sort((a, b) => b['median ms'] - a['median ms']);

console.log(`command-safety: ${iterations} warm iterations per command, Node ${process.version}`);
console.table(rows);
console.log('slowest commands:');
console.table(perCommand.slice(0, 5).map((r) => ({ ...r, 'median ms': r['median ms'].toFixed(4) })));
const p99 = Number(rows.find((r) => r.set === 'all')['p99 ms']);
console.log(p99 < 1 ? `p99 ${p99} ms: under the 1 ms goal` : `p99 ${p99} ms: OVER the 1 ms goal`);
