// Redaction time of the redact-secrets guard over realistic tool output, as ratios against baselines
// measured in the same run (a JSON.parse of the same text as a JSON string, and one plain
// String.prototype.replace pass), plus the import cost of the engine against a bare `node -e ''`.
// Then plain logs of 1, 10 and 100 MB: throughput in MB/s, the ratio to JSON.parse of the same
// text, and the time per MB at each size against 1 MB (1.0 means linear).
// Optionally, secretlint on the same 1 MB (`--secretlint <folder with @secretlint/core and the
// recommend preset installed>`), so the docs' comparison is measured in the same run.
// `--baseline <other build's dist/guards/redact-secrets.js>` adds that engine to the plain-log rows, so a
// change is measured against the previous engine in the same run. Each plain-log row also gives the
// best-of-rounds CPU time of this process (less disturbed than wall time on a shared machine).
// Run after `npm run build`:  node bench/redact-secrets.mjs [rounds] [--max-mb 100] [--secretlint DIR] [--baseline FILE]
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathToFileURL } from 'node:url';
import { createRedactor } from '../dist/guards/redact-secrets.js';
import { flag, median, seededRandom } from './kit.mjs';

const rounds = Number(/^\d+$/.test(process.argv[2] ?? '') ? process.argv[2] : 15);
const maxMb = Number(flag('--max-mb', 100));
const secretlintDir = flag('--secretlint', undefined);
const baselineFile = flag('--baseline', undefined);
const baseline = baselineFile ? (await import(pathToFileURL(path.resolve(baselineFile)).href)).createRedactor() : undefined;

// Deterministic pseudo-random text, so every run measures the same bytes.
const rand = seededRandom(42);
const pick = (alphabet, n) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
const HEX = '0123456789abcdef';
const A62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const lines = [
  () => `2026-11-22T10:${pick('012345', 1)}${pick('0123456789', 1)}:00Z INFO [worker-${pick('0123', 1)}] GET /api/v1/items/${pick('0123456789', 5)}?page=2 200 ${pick('0123456789', 2)}ms request-id=${pick(HEX, 8)}-${pick(HEX, 4)}-4${pick(HEX, 3)}-a${pick(HEX, 3)}-${pick(HEX, 12)}`,
  () => `commit ${pick(HEX, 40)}\nAuthor: Dev <dev@example.com>\nDate:   Sun Nov 22 10:00:00 2026 +0000\n\n    fix: handle token refresh in the auth middleware`,
  () => `  const apiKey = process.env.API_KEY ?? config.get('apiKey'); // ${pick(A62, 20)}`,
  () => `    at Object.<anonymous> (/home/dev/project/node_modules/pkg-${pick(HEX, 4)}/lib/index.js:${pick('0123456789', 3)}:18)`,
  () => `"integrity": "sha512-${pick(A62 + '+/', 86)}==", "resolved": "https://registry.npmjs.org/pkg/-/pkg-1.0.${pick('0123456789', 1)}.tgz"`,
  () => `{"type":"tool_result","content":"line one\\nline two ${pick(A62, 30)}\\n\\tindented","is_error":false}`,
  () => `\u001b[32m✓\u001b[39m test/unit/${pick('abcdefgh', 6)}.test.ts (12 tests) ${pick('0123456789', 3)}ms`,
  () => `token_type=bearer expires_in=3599 scope="repo read:org" password_min_length=12 secret=false`,
  () => `docker pull ghcr.io/org/app@sha256:${pick(HEX, 64)}`,
  () => `data:image/png;base64,${pick(A62 + '+/', 120)}=`,
];
// A few real-shaped secrets, so the run also measures the replacement path.
const secrets = [
  () => `GITHUB_TOKEN=ghp_${pick(A62, 36)}`,
  () => `DATABASE_URL=postgres://app:${pick(A62, 16)}@db.internal:5432/app`,
  () => `{"content":"OPENAI_API_KEY=sk-proj-${pick(A62, 40)}T3BlbkFJ${pick(A62, 40)}\\n"}`,
];

function build(bytes, withSecrets) {
  let out = '';
  let i = 0;
  while (out.length < bytes) {
    out += lines[Math.floor(rand() * lines.length)]() + '\n';
    if (withSecrets && ++i % 500 === 0) out += secrets[i % secrets.length]() + '\n';
  }
  return out;
}

const texts = {
  'mixed log, 1 MB, a few secrets': build(1 << 20, true),
  'mixed log, 1 MB, no secret': build(1 << 20, false),
  // Worst case for the keyword prefilter: every line holds the keywords of many rules.
  'keyword-dense, 1 MB': 'token= key- sk- pk- :// AKIA xox SG. dapi pat eyJ secret password auth ghp_ mailgun Authorization curl --token\n'.repeat(Math.ceil((1 << 20) / 116)),
};

const redactor = createRedactor();
const time = (fn) => {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const cpuTime = (fn) => {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

const rows = [];
for (const [name, text] of Object.entries(texts)) {
  const asJson = JSON.stringify(text);
  for (let i = 0; i < 3; i += 1) redactor.text(text); // warm-up
  const redact = [];
  const parse = [];
  const replace = [];
  let findings = 0;
  for (let i = 0; i < rounds; i += 1) {
    parse.push(time(() => JSON.parse(asJson)));
    replace.push(time(() => text.replace(/password/g, 'xxxxxxxx')));
    redact.push(time(() => (findings = redactor.text(text).findings.length)));
  }
  rows.push({
    text: name,
    'size KB': Math.round(text.length / 1024),
    findings,
    'redact ms': median(redact).toFixed(2),
    'JSON.parse ms': median(parse).toFixed(2),
    'replace ms': median(replace).toFixed(2),
    '× JSON.parse': (median(redact) / median(parse)).toFixed(1),
    '× replace': (median(redact) / median(replace)).toFixed(1),
  });
}
console.table(rows);

// Plain logs (no secret) at growing sizes: throughput, ratio to JSON.parse, and linearity.
const plainUnit = build(1 << 20, false);
const scaling = [];
let perMbAt1;
for (const mb of [1, 10, 100].filter((n) => n <= maxMb)) {
  const text = plainUnit.repeat(mb);
  const asJson = JSON.stringify(text);
  const n = mb >= 100 ? 3 : mb >= 10 ? 5 : rounds;
  redactor.text(text); // warm-up
  baseline?.text(text);
  const redact = [];
  const parse = [];
  const base = [];
  let cpuRedact = Infinity;
  let cpuParse = Infinity;
  let cpuBase = Infinity;
  for (let i = 0; i < n; i += 1) {
    parse.push(time(() => JSON.parse(asJson)));
    redact.push(time(() => redactor.text(text)));
    if (baseline) base.push(time(() => baseline.text(text)));
    cpuParse = Math.min(cpuParse, cpuTime(() => JSON.parse(asJson)));
    cpuRedact = Math.min(cpuRedact, cpuTime(() => redactor.text(text)));
    if (baseline) cpuBase = Math.min(cpuBase, cpuTime(() => baseline.text(text)));
  }
  const perMb = median(redact) / mb;
  perMbAt1 ??= perMb;
  scaling.push({
    'plain log': `${mb} MB`,
    'redact ms': median(redact).toFixed(1),
    'MB/s': (1000 / perMb).toFixed(1),
    'JSON.parse ms': median(parse).toFixed(1),
    '× JSON.parse': (median(redact) / median(parse)).toFixed(2),
    'ms per MB vs 1 MB': (perMb / perMbAt1).toFixed(2),
    'CPU MB/s': ((1000 * mb) / cpuRedact).toFixed(1),
    'CPU × JSON.parse': (cpuRedact / cpuParse).toFixed(2),
    ...(baseline ? { 'baseline × JSON.parse': (median(base) / median(parse)).toFixed(2), 'baseline CPU × JSON.parse': (cpuBase / cpuParse).toFixed(2) } : {}),
  });
}
console.table(scaling);

if (secretlintDir) {
  // secretlint's recommended preset on the same 1 MB texts, in this process, against this redactor.
  const require = createRequire(path.join(path.resolve(secretlintDir), 'package.json'));
  const { lintSource } = await import(require.resolve('@secretlint/core'));
  const preset = (await import(require.resolve('@secretlint/secretlint-rule-preset-recommend'))).creator;
  const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset, options: {} }] };
  const lint = (content) => lintSource({ source: { content, filePath: '/tmp/output.txt', contentType: 'text' }, options: { config, noPhysicFilePath: true } });
  const cmp = [];
  for (const [name, text] of [['plain log, 1 MB', plainUnit], ['mixed log, 1 MB, a few secrets', texts['mixed log, 1 MB, a few secrets']]]) {
    await lint(text);
    const sl = [];
    const ours = [];
    for (let i = 0; i < 5; i += 1) {
      const t0 = process.hrtime.bigint();
      await lint(text);
      sl.push(Number(process.hrtime.bigint() - t0) / 1e6);
      ours.push(time(() => redactor.text(text)));
    }
    cmp.push({ text: name, 'secretlint ms': median(sl).toFixed(1), 'redact-secrets ms': median(ours).toFixed(1), 'secretlint ÷ redact-secrets': (median(sl) / median(ours)).toFixed(2) });
  }
  console.table(cmp);
}

// Adversarial inputs: each must stay linear (a catastrophic backtrack would take seconds).
const adversarial = {
  'PEM headers, no END': '-----BEGIN RSA PRIVATE KEY-----\nAAAA\n'.repeat(20_000),
  'colons, no @': 'http://a:' + 'b:'.repeat(200_000),
  'label, no separator': 'password'.repeat(100_000),
  'label, long value': 'api_key=' + 'a1'.repeat(300_000),
  'curl, no user': 'curl '.repeat(100_000),
  'one long word': 'glpat-' + 'x'.repeat(600_000) + '_',
  'escapes': '\\n\\u001b[31m'.repeat(60_000),
};
const adv = [];
for (const [name, text] of Object.entries(adversarial)) {
  const ms = median(Array.from({ length: 3 }, () => time(() => redactor.text(text))));
  adv.push({ input: name, 'size KB': Math.round(text.length / 1024), 'redact ms': ms.toFixed(1), 'ms per MB': (ms / (text.length / (1 << 20))).toFixed(1) });
}
console.table(adv);

// Start-up: importing the engine (what the audit log and the guard load) against a bare node.
const engine = fileURLToPath(new URL('../dist/guards/redact-secrets/engine.js', import.meta.url));
const spawnMs = (args) => time(() => execFileSync(process.execPath, args));
const bare = [];
const withEngine = [];
for (let i = 0; i < 11; i += 1) {
  bare.push(spawnMs(['-e', '']));
  withEngine.push(spawnMs(['-e', `import(${JSON.stringify(engine)}).then((m) => m.createRedactor().text('x'))`]));
}
console.table([{ 'node -e \'\' ms': median(bare).toFixed(1), 'import engine + compile ms': median(withEngine).toFixed(1), 'difference ms': (median(withEngine) - median(bare)).toFixed(1) }]);
