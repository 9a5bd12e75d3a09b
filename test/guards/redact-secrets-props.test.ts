import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, MAX_OUTPUT_DEPTH, redactSecrets, redactText } from '../../src/guards/redact-secrets.js';
import { redactSecretsOptions } from '../../src/guards/redact-secrets/options.js';
import type { HandlerContext, HookInput, ReplyObject } from '../../src/types.js';
import { A62, cleanTexts, generator, secretExamples } from './corpus/secrets-examples.js';

// Property tests (seeded, bounded in runs and time): the redactor reads untrusted tool output.
const params = { seed: 20261122, numRuns: 300, interruptAfterTimeLimit: 8_000 };
const redactor = createRedactor();
// Secrets that stand on their own (a token format), not those that count only beside a label.
const secrets = [...new Set(secretExamples().map((e) => e.secret))].filter((s) => redactText(s).text === '[REDACTED:' + redactText(s).findings[0]?.rule + ']');
const clean = cleanTexts();
const ctx = (event: HandlerContext['event']): HandlerContext => ({ event, signal: new AbortController().signal, tool: 'exec' });
const guard = redactSecrets.create(redactSecretsOptions.parse({}));
const post = (toolResponse: unknown) =>
  guard({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_response: toolResponse } as HookInput, ctx('postToolUse')) as ReplyObject | undefined;

/** Every string inside a value, without recursion (the values here nest 20,000 deep). */
function strings(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') out.push(node);
    else if (node !== null && typeof node === 'object') {
      for (const key of Object.getOwnPropertyNames(node)) stack.push((node as Record<string, unknown>)[key]);
    }
  }
  return out;
}

/** `[[[…[leaf]…]]]` or `{"a":{"a":…}}`, `depth` levels, built without recursion. */
function nest(depth: number, leaf: unknown, asObject: boolean): unknown {
  let node = leaf;
  for (let i = 0; i < depth; i++) node = asObject ? { a: node, n: i } : [i, node];
  return node;
}

const SEPARATORS = [' ', '\n', '\t', '"', "'", '=', ': ', '(', ',', '\\n', '\\t', '\\"', '\u001b[31m', '\u001b[0m', '\\u001b[1;31m', '`', '> '];

describe('redact-secrets properties', () => {
  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const result = redactor.text(text);
        expect(typeof result.text).toBe('string');
      }),
      params,
    );
  });

  it('never throws, whatever the JSON value, and answers modify or nothing', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const reply = post(value);
        expect(reply === undefined || reply.decision === 'modify').toBe(true);
      }),
      params,
    );
  });

  it('redacts a planted secret at any position, between any separators', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...secrets),
        fc.string({ maxLength: 60 }),
        fc.constantFrom(...SEPARATORS),
        fc.constantFrom(...SEPARATORS),
        fc.string({ maxLength: 60 }),
        (secret, before, left, right, after) => {
          const text = before + left + secret + right + after;
          expect(redactText(text).text).not.toContain(secret);
        },
      ),
      params,
    );
  });

  it('redacts a planted secret at any depth (or withholds the output), never overflowing', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...secrets),
        fc.integer({ min: 0, max: 20_000 }),
        fc.boolean(),
        (secret, depth, asObject) => {
          const value = { stdout: 'ok', deep: nest(depth, `line\n${secret}\n`, asObject) };
          const reply = post(value);
          expect(reply?.decision).toBe('modify');
          for (const s of strings(reply?.updatedOutput)) expect(s).not.toContain(secret);
        },
      ),
      { ...params, numRuns: 40 },
    );
  });

  it('leaves text without secrets byte for byte', () => {
    const { pick } = generator(3);
    // Random noise, but no `:` or `=`: next to a label from the clean texts (`password:`) a random
    // value is exactly what the label rule should redact.
    const noise = Array.from({ length: 40 }, (_, i) => pick('abcdefxyz0123456789 ./-_\n"', 10 + i));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...clean, ...noise), { maxLength: 12 }), fc.constantFrom('\n', '\\n', ' | '), (parts, joiner) => {
        const text = parts.join(joiner);
        expect(redactor.text(text).text).toBe(text);
      }),
      params,
    );
  });
});

describe('redact-secrets: depth and shape', () => {
  const GHP = 'ghp_' + generator(99).pick(A62, 36);

  it('redacts beside a 3,000-level value (issue 10: it used to come back unredacted)', () => {
    const reply = post({ stdout: `token ${GHP}`, extra: nest(3_000, 'x', false) });
    expect(reply?.decision).toBe('modify');
    expect((reply?.updatedOutput as { stdout: string }).stdout).toBe('token [REDACTED:github-token]');
  });

  it('withholds output too deep to pass on when it holds a secret, and says so', () => {
    const reply = post({ stdout: 'x', extra: nest(MAX_OUTPUT_DEPTH * 40, GHP, true) });
    expect(reply?.decision).toBe('modify');
    // Whether JSON.stringify can carry 40,000 levels depends on the Node line (20 overflows; 26 does not):
    // where it cannot, all of it is withheld, saying so; where it can, the redacted copy goes on.
    // Either way no secret is left. (No toEqual on the deep copy: its own walk would recurse.)
    if (typeof reply?.updatedOutput === 'string') {
      expect(reply.updatedOutput).toBe('[REDACTED:withheld]');
      expect(reply.reason).toMatch(/github-token.*nests 40001 levels deep, too deep to pass on, so all of it was withheld/);
    } else {
      expect(strings(reply?.updatedOutput)).toContain('[REDACTED:github-token]');
    }
    // strings() walks without recursion: inside vitest's deeper stack even JSON.stringify may overflow.
    expect(strings(reply).join('\n')).not.toContain(GHP);
  });

  it('passes deep output with no secret untouched', () => {
    expect(post({ stdout: 'x', extra: nest(50_000, 'plain', false) })).toBeUndefined();
  });

  it('redacts a secret under a "__proto__" key (JSON.parse makes it an own property)', () => {
    const value = JSON.parse(`{"stdout":"ok","__proto__":{"k":"${GHP}"},"x":["__proto__","${GHP}"]}`);
    const reply = post(value);
    expect(strings(reply?.updatedOutput).join('|')).not.toContain(GHP);
    expect(JSON.stringify(reply?.updatedOutput)).toContain('[REDACTED:github-token]');
  });

  it('redacts a secret in a shared or cyclic node once and keeps the shape', () => {
    const shared = { t: GHP };
    const value: Record<string, unknown> = { a: shared, b: shared };
    value.self = value;
    const { value: out, findings } = redactor.value(value);
    const o = out as Record<string, { t: string }>;
    expect(o.a!.t).toBe('[REDACTED:github-token]');
    expect(o.a).toBe(o.b);
    expect(findings).toHaveLength(1);
  });
});

describe('redact-secrets: escapes, colour codes and placeholders', () => {
  const g = generator(5);
  const HF = 'hf_' + g.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 34);
  const GHP = 'ghp_' + g.pick(A62, 36);
  const AKIA = 'AKIA' + g.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16);

  it.each([
    ['after \\n in JSON text', `{"content":"a\\n${GHP}\\nb"}`, `{"content":"a\\n[REDACTED:github-token]\\nb"}`],
    ['after \\t in JSON text', `{"content":"key:\\t${AKIA}"}`, `{"content":"key:\\t[REDACTED:aws-access-key-id]"}`],
    ['after an ANSI colour code', `\u001b[01;31m\u001b[K${HF}\u001b[m\u001b[K`, `\u001b[01;31m\u001b[K[REDACTED:huggingface-token]\u001b[m\u001b[K`],
    ['after a JSON-escaped colour code', `"\\u001b[31m${GHP}\\u001b[0m"`, `"\\u001b[31m[REDACTED:github-token]\\u001b[0m"`],
    ['a URL password after \\n', `{"o":"x\\npostgres://u:pw${GHP.slice(4, 12)}@db/app"}`, `{"o":"x\\npostgres://u:[REDACTED:url-password]@db/app"}`],
    ['beside non-Latin-1 text', `✓ 日本語 ${GHP} ✓`, '✓ 日本語 [REDACTED:github-token] ✓'],
    ['a labelled value in a query string, the rest of the query kept', 'GET /cb?access_token=Zq8Lw3Nv5Kp2Xr7Tm4&page=2 HTTP/1.1', 'GET /cb?access_token=[REDACTED:secret-assignment]&page=2 HTTP/1.1'],
    ['a label and its value on two lines of JSON text stay apart', '{"t":"password:\\nZq8Lw3Nv5Kp2Xr7Tm4"}', '{"t":"password:\\nZq8Lw3Nv5Kp2Xr7Tm4"}'],
  ])('%s', (_name, input, expected) => {
    expect(redactText(input).text).toBe(expected);
  });

  it.each([
    'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'GITHUB_TOKEN=ghp_' + 'a'.repeat(36),
    'AKIAIOSFODNN7EXAMPLE',
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'OPENAI_API_KEY=sk-...',
    'token: <your-token>',
    'API_TOKEN=${TOKEN}',
    'sk_live_' + '0123456789abcdefghijklmn',
    'xoxb-' + '1'.repeat(11) + '-' + '2'.repeat(13) + '-' + 'a'.repeat(24),
    'glpat-XXXXXXXXXXXXXXXXXXXX',
    'hf_' + 'abcdefghijklmnopqrstuvwxyzabcdefgh',
    'password=changeme',
    'DB_PASSWORD=your_password_here',
    'postgres://user:password@localhost/db',
  ])('leaves the placeholder %s alone', (text) => {
    expect(redactText(text).text).toBe(text);
  });
});

describe('redact-secrets: adversarial input stays linear', () => {
  // Ratios measured in the same run, not wall-clock budgets (the machine is shared): 4× the input
  // may take at most 10× the time, where a quadratic scan takes 16×. Best of three.
  const best = (text: string): number => {
    let min = Infinity;
    // CPU time, not wall time: on a loaded machine wall time gave ratios of 15-20 on linear code.
    for (let i = 0; i < 5; i++) {
      const started = process.cpuUsage();
      redactText(text);
      const used = process.cpuUsage(started);
      min = Math.min(min, (used.user + used.system) / 1000);
    }
    return Math.max(min, 0.5);
  };
  it.each<[string, (n: number) => string, number]>([
    ['curl with no user', (n) => 'curl '.repeat(n), 100_000],
    ['a label with no separator', (n) => 'password'.repeat(n), 100_000],
    ['a label with a huge value', (n) => 'api_key=' + 'a1'.repeat(n), 300_000],
    ['escape flood', (n) => '\\n\\u001b[31m'.repeat(n), 60_000],
    ['keyword flood', (n) => 'sk- pat SK key- AAAA eyJ :// -- '.repeat(n), 30_000],
    ['base64 flood', (n) => generator(1).pick(A62 + '+/', n), 1_000_000],
  ])('%s', (_name, make, n) => {
    expect(best(make(n)) / best(make(n / 4))).toBeLessThan(12);
  });
});

describe('redact-secrets guard on userPromptSubmit', () => {
  it('answers modify with the redacted prompt (the dialect decides what the agent can do with it)', () => {
    const key = 'sk-ant-api03-' + generator(8).pick(A62, 93) + 'AA';
    const reply = guard({ hook_event_name: 'UserPromptSubmit', prompt: `use ${key}` } as HookInput, ctx('userPromptSubmit')) as ReplyObject;
    expect(reply).toEqual({ decision: 'modify', prompt: 'use [REDACTED:anthropic-key]', reason: 'redact-secrets: redacted 1 secret(s): anthropic-key' });
  });
});
