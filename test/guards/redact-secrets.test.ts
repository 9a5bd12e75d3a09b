import { describe, expect, it } from 'vitest';
import {
  createRedactor,
  redactSecrets,
  redactText,
  redactValue,
  SECRET_RULE_IDS,
  SECRET_RULES,
} from '../../src/guards/redact-secrets.js';
import { redactSecretsOptions } from '../../src/guards/redact-secrets/options.js';
import type { HandlerContext, HookInput, ReplyObject } from '../../src/types.js';
import { A62, DIGITS, generator, UPPER } from './corpus/secrets-examples.js';

// Fake tokens, built at run time from a seeded generator so no scanner mistakes this file for a leak,
// and not placeholders (`ghp_` + 36 × `a` is one now, and is left alone).
const { pick } = generator(7);
const GHP = 'ghp_' + pick(A62, 36);
const GHS = 'ghs_' + pick(A62, 36);
const GH_FINE = 'github_pat_' + pick(A62, 22) + '_' + pick(A62, 59);
const GLPAT = 'glpat-' + pick(A62, 20);
const OPENAI_PROJ = 'sk-proj-' + pick(A62, 40) + 'T3BlbkFJ' + pick(A62, 40);
const OPENAI_LEGACY = 'sk-' + pick(A62, 20) + 'T3BlbkFJ' + pick(A62, 20);
const ANTHROPIC = 'sk-ant-api03-' + pick(A62, 93) + 'AA';
const ANTHROPIC_ADMIN = 'sk-ant-admin01-' + pick(A62, 93) + 'AA';
const STRIPE_LIVE = 'sk_live_' + pick(A62, 24);
const STRIPE_RESTRICTED = 'rk_live_' + pick(A62, 24);
const STRIPE_TEST = 'sk_test_' + pick(A62, 24);
const SLACK_BOT = 'xoxb-' + pick(DIGITS, 11) + '-' + pick(DIGITS, 13) + '-' + pick(A62, 24);
const SLACK_HOOK_PATH = 'T' + pick(UPPER, 8) + '/B' + pick(UPPER, 8) + '/' + pick(A62, 24);
const GOOGLE = 'AIza' + pick(A62, 35);
const NPM = 'npm_' + pick(A62, 36);
const AWS_ID = 'AKIA' + pick(UPPER + DIGITS, 16);
const AWS_SECRET = pick(A62 + '+/', 40);
const PEM_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7' + '\n' + 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const PEM = `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\n-----END PRIVATE KEY-----`;
const RSA_PEM = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123456789ABCDEF\n\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`;
const OPENSSH = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----`;

describe('redactText: each secret type', () => {
  it.each([
    ['github classic', `token: ${GHP}`, 'token: [REDACTED:github-token]'],
    ['github app', `GITHUB_TOKEN=${GHS}\n`, 'GITHUB_TOKEN=[REDACTED:github-token]\n'],
    ['github in a git remote', `https://x-access-token:${GHS}@github.com/o/r.git`, 'https://x-access-token:[REDACTED:github-token]@github.com/o/r.git'],
    ['github fine-grained', `"${GH_FINE}"`, '"[REDACTED:github-fine-grained-token]"'],
    ['gitlab', `export GITLAB_TOKEN=${GLPAT}`, 'export GITLAB_TOKEN=[REDACTED:gitlab-token]'],
    ['openai project', `OPENAI_API_KEY=${OPENAI_PROJ}`, 'OPENAI_API_KEY=[REDACTED:openai-key]'],
    ['openai legacy', `key ${OPENAI_LEGACY}.`, 'key [REDACTED:openai-key].'],
    ['anthropic', `x-api-key: ${ANTHROPIC}`, 'x-api-key: [REDACTED:anthropic-key]'],
    ['anthropic admin', `'${ANTHROPIC_ADMIN}'`, "'[REDACTED:anthropic-key]'"],
    ['stripe live', `Stripe.apiKey = "${STRIPE_LIVE}";`, 'Stripe.apiKey = "[REDACTED:stripe-key]";'],
    ['stripe restricted', STRIPE_RESTRICTED, '[REDACTED:stripe-key]'],
    ['stripe test', `(${STRIPE_TEST})`, '([REDACTED:stripe-key])'],
    ['slack bot', `SLACK_BOT_TOKEN=${SLACK_BOT}`, 'SLACK_BOT_TOKEN=[REDACTED:slack-token]'],
    [
      'slack webhook',
      `curl -X POST https://hooks.slack.com/services/${SLACK_HOOK_PATH} -d @msg.json`,
      'curl -X POST https://hooks.slack.com/services/[REDACTED:slack-webhook] -d @msg.json',
    ],
    ['google api key', `apiKey: "${GOOGLE}",`, 'apiKey: "[REDACTED:google-api-key]",'],
    ['npm token', `//registry.npmjs.org/:_authToken=${NPM}`, '//registry.npmjs.org/:_authToken=[REDACTED:npm-token]'],
    ['aws key id', `aws_access_key_id = ${AWS_ID}`, 'aws_access_key_id = [REDACTED:aws-access-key-id]'],
    [
      'aws credentials file',
      `[default]\naws_access_key_id = ${AWS_ID}\naws_secret_access_key = ${AWS_SECRET}\n`,
      '[default]\naws_access_key_id = [REDACTED:aws-access-key-id]\naws_secret_access_key = [REDACTED:aws-secret-access-key]\n',
    ],
    ['aws env', `AWS_SECRET_ACCESS_KEY="${AWS_SECRET}"`, 'AWS_SECRET_ACCESS_KEY="[REDACTED:aws-secret-access-key]"'],
    ['aws sts json', `"SecretAccessKey": "${AWS_SECRET}",`, '"SecretAccessKey": "[REDACTED:aws-secret-access-key]",'],
    ['pkcs8 block', `before\n${PEM}\nafter`, 'before\n[REDACTED:private-key]\nafter'],
    ['encrypted rsa block', RSA_PEM, '[REDACTED:private-key]'],
    ['openssh block', `$ cat id\n${OPENSSH}\n`, '$ cat id\n[REDACTED:private-key]\n'],
    [
      'json-escaped block (service account)',
      `{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----\\n", "x": 1}`,
      '{"private_key": "[REDACTED:private-key]\\n", "x": 1}',
    ],
    ['truncated block', `-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oJ`, '[REDACTED:private-key]'],
    ['postgres url', 'postgres://app:hunter2@db.internal:5432/app', 'postgres://app:[REDACTED:url-password]@db.internal:5432/app'],
    ['redis url, no user', 'REDIS_URL=redis://:s3cr3t@cache:6379/0', 'REDIS_URL=redis://:[REDACTED:url-password]@cache:6379/0'],
    ['proxy url', 'https_proxy=http://bob:p%40ss@proxy.corp:3128', 'https_proxy=http://bob:[REDACTED:url-password]@proxy.corp:3128'],
    [
      'two secrets in one line',
      `A=${GHP} B=${NPM}`,
      'A=[REDACTED:github-token] B=[REDACTED:npm-token]',
    ],
  ])('%s', (_name, input, expected) => {
    expect(redactText(input).text).toBe(expected);
  });

  it('reports findings with offsets in the original text', () => {
    const input = `a ${GHP} b ${AWS_ID}`;
    const { findings } = redactText(input);
    expect(findings).toEqual([
      { rule: 'github-token', start: 2, end: 2 + GHP.length },
      { rule: 'aws-access-key-id', start: 2 + GHP.length + 3, end: 2 + GHP.length + 3 + AWS_ID.length },
    ]);
    for (const f of findings) expect(input.slice(f.start, f.end)).toMatch(/^(ghp_|AKIA)/);
  });
});

describe('redactText: look-alikes stay byte for byte', () => {
  it.each([
    ['git sha', 'commit 3f786850e387550fdab836ed7e6dc881de23001b'],
    ['short sha', 'HEAD is now at 3f78685 fix'],
    ['uuid', 'session 01a20048-9d90-78d0-a88d-2888b19ab193'],
    ['sha256', 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['npm integrity', '"integrity": "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR8KTyP0GvGShENsA=="'],
    ['base64 data', 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='],
    ['task-sk- word', 'see task-sk-' + 'a'.repeat(48) + ' in the tracker'],
    ['disk- word', 'disk-usage: 93%, risk-free, desk-' + 'b'.repeat(48)],
    ['sk-learn', 'pip install sk-learn scikit-learn'],
    ['short sk-', 'sk-12345'],
    ['ghp_ too short', 'ghp_abc123'],
    ['ghp_ inside a word', 'xghp_' + 'a'.repeat(36)],
    ['lower-case akia', 'akiaiosfodnn7example'],
    ['AKIA inside a word', 'XAKIAIOSFODNN7EXAMPLE'],
    ['unlabelled 40-char base64', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    ['env reference', 'const apiKey = process.env.OPENAI_API_KEY;'],
    ['public key block', '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----'],
    ['certificate block', '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----'],
    ['code that looks for a key header', "if (line === '-----BEGIN PRIVATE KEY-----') return parse(line);"],
    ['url with port', 'open http://localhost:3000/path?x=1'],
    ['ssh remote', 'git@github.com:org/repo.git'],
    ['email', 'mail bob@example.com:8080'],
    ['url password from a variable', 'postgres://user:${DB_PASSWORD}@db:5432/app'],
    ['url password from $VAR', 'amqp://guest:$RABBIT_PASS@mq:5672'],
    ['url password template', 'mysql://root:{{ password }}@db/app'],
    ['already masked url', 'https://user:****@host.example'],
    ['slack webhook base only', 'https://hooks.slack.com/services/'],
    ['AIza too short', 'AIzaSyShort'],
    ['glpat too short', 'glpat-abc'],
    ['stripe prefix only', 'sk_live_ and rk_test_ are prefixes'],
    ['xoxb too short', 'xoxb-123'],
    ['npm_ too short', 'npm_install'],
    ['snake case name', 'my_secret_access_key_name = compute()'],
    ['setting name', 'PASSWORD_MIN_LENGTH=8\nAPI_KEY_HEADER=x-api-key'],
    ['empty', ''],
    ['unicode', 'héllo wörld — ✓ 日本語'],
  ])('%s', (_name, input) => {
    const result = redactText(input);
    expect(result.text).toBe(input);
    expect(result.findings).toEqual([]);
  });

  it('is idempotent on its own output', () => {
    const once = redactText(`postgres://a:b@h ${GHP} ${PEM}`).text;
    expect(redactText(once).text).toBe(once);
  });
});

describe('redactValue', () => {
  it('redacts a Bash tool_response and keeps its shape', () => {
    const response = { stdout: `GITHUB_TOKEN=${GHP}\nok\n`, stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
    expect(redactValue(response)).toEqual({
      stdout: 'GITHUB_TOKEN=[REDACTED:github-token]\nok\n',
      stderr: '',
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    });
    expect(response.stdout).toContain(GHP);
  });

  it('walks arrays and nested objects, copying only what changed', () => {
    const untouched = { a: [1, 'plain'] };
    const value = { file: { content: `k=${NPM}`, numLines: 1 }, list: ['x', AWS_ID, null, 3], untouched };
    const out = redactValue(value);
    expect(out).toEqual({ file: { content: 'k=[REDACTED:npm-token]', numLines: 1 }, list: ['x', '[REDACTED:aws-access-key-id]', null, 3], untouched });
    expect(out.untouched).toBe(untouched);
    expect(out).not.toBe(value);
  });

  it.each([
    ['object', { stdout: 'hello', stderr: '' }],
    ['array', ['a', { b: 'c' }]],
    ['string', 'plain text'],
    ['number', 42],
    ['null', null],
  ])('returns the same reference when nothing changed (%s)', (_name, value) => {
    expect(redactValue(value)).toBe(value);
  });

  it('redacts a plain string response (Codex)', () => {
    expect(redactValue(`token ${GLPAT}`)).toBe('token [REDACTED:gitlab-token]');
  });

  it('redacts a secret that is a key, keeping the order and the values (found by the attack review)', () => {
    const out = redactValue({ stdout: 'x', [GHP]: 'y', nested: [{ [GHP]: 1, [GHS]: 2, [`${GHP} `]: 3 }] });
    expect(JSON.stringify(out)).not.toContain(GHP);
    expect(Object.keys(out)).toEqual(['stdout', '[REDACTED:github-token]', 'nested']);
    expect((out as Record<string, unknown>)['[REDACTED:github-token]']).toBe('y');
    // Two keys that redact to the same marker are both kept.
    expect(Object.values((out as { nested: Record<string, number>[] }).nested[0]!)).toEqual([1, 2, 3]);
  });

  it('survives cycles', () => {
    const node: Record<string, unknown> = { s: GHP };
    node.self = node;
    const out = redactValue(node) as Record<string, unknown>;
    expect(out.s).toBe('[REDACTED:github-token]');
  });
});

describe('options', () => {
  it('turns a rule off', () => {
    expect(redactText('postgres://a:hunter2@h').text).toBe('postgres://a:[REDACTED:url-password]@h');
    expect(redactText('postgres://a:hunter2@h', { rules: { 'url-password': false } }).text).toBe('postgres://a:hunter2@h');
  });

  it('uses a custom marker', () => {
    expect(redactText(`t=${GHP}`, { marker: '<secret {rule}>' }).text).toBe('t=<secret github-token>');
  });

  it('adds extra patterns, with a named group to keep the label', () => {
    const options = {
      extra: [
        { name: 'acme-token', pattern: 'acme_[a-z0-9]{12}' },
        { name: 'db-password', pattern: 'DB_PASSWORD=(?<secret>\\S+)', flags: 'i' },
      ],
    };
    expect(redactText('x acme_abcdef123456 db_password=letmein', options).text).toBe('x [REDACTED:acme-token] db_password=[REDACTED:db-password]');
  });

  it('rejects unknown rules, bad regexes and unknown keys', () => {
    expect(redactSecretsOptions.safeParse({ rules: { nope: false } }).success).toBe(false);
    const bad = redactSecretsOptions.safeParse({ extra: [{ name: 'x', pattern: '(' }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['extra', 0, 'pattern']);
    expect(redactSecretsOptions.safeParse({ audit: true }).success).toBe(false);
    expect(redactSecretsOptions.parse({})).toEqual({ rules: {}, extra: [], marker: '[REDACTED:{rule}]' });
  });

  it('keeps every rule id of earlier releases (configs name them) and gives each rule a source', () => {
    for (const id of [
      'private-key', 'aws-access-key-id', 'github-token', 'github-fine-grained-token', 'gitlab-token', 'anthropic-key',
      'openai-key', 'stripe-key', 'slack-token', 'slack-webhook', 'google-api-key', 'npm-token', 'aws-secret-access-key', 'url-password',
    ]) expect(SECRET_RULE_IDS).toContain(id);
    expect(new Set(SECRET_RULE_IDS).size).toBe(SECRET_RULE_IDS.length);
    for (const rule of SECRET_RULES) expect(rule.source, rule.id).toMatch(/https:\/\//);
    expect(SECRET_RULES.length).toBeGreaterThanOrEqual(80);
  });

  // Ratios measured in the same run, not wall-clock budgets (the machine is shared): 4× the input
  // may take at most 12× the time (a quadratic scan takes 16×). Best of five, in CPU time: wall
  // time counted the other processes' turns on a loaded machine (ratios of 15-17 on linear code).
  const best = (run: () => void): number => {
    let min = Infinity;
    for (let i = 0; i < 5; i++) {
      const started = process.cpuUsage();
      run();
      const used = process.cpuUsage(started);
      min = Math.min(min, (used.user + used.system) / 1000);
    }
    return Math.max(min, 0.5);
  };

  it.each<[string, (n: number) => string, number]>([
    ['headers with no END', (n) => '-----BEGIN RSA PRIVATE KEY-----\nAAAA\n'.repeat(n), 20_000],
    ['colons with no @', (n) => 'http://a:' + 'b:'.repeat(n), 200_000],
    ['near-miss tokens', (n) => ('sk-' + 'a'.repeat(47) + '_ ghp_' + 'b'.repeat(35) + ' ').repeat(n), 5_000],
    ['long word runs', (n) => 'glpat-' + 'x'.repeat(n) + '_', 300_000],
  ])('stays linear on adversarial output: %s', (_name, make, n) => {
    const large = make(n);
    const small = make(n / 4);
    expect(best(() => redactText(large)) / best(() => redactText(small))).toBeLessThan(12);
  });

  it('stays linear on a large output, and finds the one token in it', () => {
    const redactor = createRedactor();
    const unit = 'lorem ipsum 3f786850e387550fdab836ed7e6dc881de23001b sk- :// AKIA ';
    const big = unit.repeat(16_000) + GHP;
    expect(redactor.text(big).findings).toHaveLength(1);
    const small = unit.repeat(4_000) + GHP;
    expect(best(() => redactor.text(big)) / best(() => redactor.text(small))).toBeLessThan(12);
  });
});

// --- the guard ---

const ctx = (event: HandlerContext['event']): HandlerContext => ({ event, signal: new AbortController().signal, tool: 'exec' });
const call = (input: HookInput, event: HandlerContext['event']) =>
  redactSecrets.create(redactSecretsOptions.parse({}))(input, ctx(event)) as ReplyObject | undefined;

describe('redactSecrets guard', () => {
  it('declares its id and events', () => {
    expect(redactSecrets.id).toBe('redact-secrets');
    expect(redactSecrets.events).toEqual(['postToolUse', 'userPromptSubmit']);
  });

  it('rewrites a postToolUse output', () => {
    const input: HookInput = {
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'env' },
      tool_response: { stdout: `A=${GHP}\nB=${AWS_ID}\nC=${GHS}\n`, stderr: '', interrupted: false, isImage: false },
    };
    expect(call(input, 'postToolUse')).toEqual({
      decision: 'modify',
      updatedOutput: {
        stdout: 'A=[REDACTED:github-token]\nB=[REDACTED:aws-access-key-id]\nC=[REDACTED:github-token]\n',
        stderr: '',
        interrupted: false,
        isImage: false,
      },
      reason: 'redact-secrets: redacted 3 secret(s): github-token, aws-access-key-id',
    });
  });

  it('rewrites a prompt', () => {
    const input: HookInput = { hook_event_name: 'UserPromptSubmit', prompt: `use ${ANTHROPIC} please` };
    expect(call(input, 'userPromptSubmit')).toEqual({
      decision: 'modify',
      prompt: 'use [REDACTED:anthropic-key] please',
      reason: 'redact-secrets: redacted 1 secret(s): anthropic-key',
    });
  });

  it.each([
    [{ hook_event_name: 'PostToolUse', tool_response: { stdout: 'all good', stderr: '' } }, 'postToolUse'],
    [{ hook_event_name: 'PostToolUse' }, 'postToolUse'],
    [{ hook_event_name: 'UserPromptSubmit', prompt: 'fix the sha 3f786850e387550fdab836ed7e6dc881de23001b' }, 'userPromptSubmit'],
    [{ hook_event_name: 'PreToolUse', tool_input: { command: `echo ${GHP}` } }, 'preToolUse'],
  ] as const)('leaves clean payloads alone %#', (input, event) => {
    expect(call(input as HookInput, event)).toBeUndefined();
  });
});
