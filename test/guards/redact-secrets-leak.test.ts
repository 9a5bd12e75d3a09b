import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, redactSecrets } from '../../src/guards/redact-secrets.js';
import { redactSecretsOptions } from '../../src/guards/redact-secrets/options.js';
import type { HandlerContext, HookInput, ReplyObject } from '../../src/types.js';
import { A62, cleanTexts, generator, secretExamples } from './corpus/secrets-examples.js';

// Issue 27 item 1: a value judged secret anywhere in an output is redacted everywhere in it, in
// every field of a structured output, and in its JSON-escaped and percent-encoded forms.
const params = { seed: 20261127, numRuns: 250, interruptAfterTimeLimit: 10_000 };
const redactor = createRedactor();
const guard = redactSecrets.create(redactSecretsOptions.parse({}));
const ctx: HandlerContext = { event: 'postToolUse', signal: new AbortController().signal, tool: 'exec' };
const post = (toolResponse: unknown) =>
  guard({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_response: toolResponse } as HookInput, ctx) as ReplyObject | undefined;

const g = generator(27);
const value = g.pick(A62, 24);

/** Every form of `secret` that must not survive. */
const forms = (secret: string): string[] => [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)];

/** Every string inside a value (keys too). */
function strings(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => [k, ...strings(v)]);
}

// What the rules find in the written examples: each value exactly as the rule cut it out.
const found = secretExamples().flatMap((e) =>
  redactor.text(e.text).findings.map((f) => ({ rule: f.rule, context: e.text, secret: e.text.slice(f.start, f.end) })),
).filter((f) => f.secret.length >= 4);
const clean = cleanTexts();

describe('redact-secrets: a secret is redacted everywhere once found', () => {
  it('redacts the value of a labelled secret where it appears again without its label', () => {
    const text = `API_TOKEN=${value}\nrequest sent\n{"headers": {"x-api-key": "${value}"}, "url": "https://api.example.com/v1?k=${value}"}`;
    const out = redactor.text(text);
    expect(out.text).not.toContain(value);
    expect(out.text).toContain('API_TOKEN=[REDACTED:secret-assignment]');
    expect(out.text).toContain('"x-api-key": "[REDACTED:secret-assignment]"');
    expect(out.findings).toHaveLength(3);
  });

  it('redacts it across the fields of a structured tool_response', () => {
    const reply = post({ stdout: `export API_TOKEN=${value}`, stderr: `curl: (22) 401 for key ${value}`, items: [{ note: `k=${value}` }] });
    expect(reply?.decision).toBe('modify');
    for (const s of strings(reply?.updatedOutput)) expect(s).not.toContain(value);
    expect(reply?.reason).not.toContain(value);
  });

  it('redacts the JSON-escaped form of a multi-line key and the percent-encoded form of a base64 one', () => {
    const body = Array.from({ length: 4 }, () => g.pick(A62 + '+/', 64)).join('\n');
    const key = ['-----BEGIN', 'PRIVATE KEY-----'].join(' ') + '\n' + body + '\n' + ['-----END', 'PRIVATE KEY-----'].join(' ');
    const aws = g.pick(A62, 12) + '/' + g.pick(A62, 13) + '+' + g.pick(A62, 13);
    const text = `${key}\naws_secret_access_key = ${aws}\n${JSON.stringify({ key, url: `https://s3.example.com/?sig=${encodeURIComponent(aws)}` })}`;
    const out = redactor.text(text);
    for (const f of [...forms(key), ...forms(aws)]) expect(out.text).not.toContain(f);
    expect(out.text).toContain('"key":"[REDACTED:private-key]"');
  });

  it('leaves text without a secret alone, even with known values from other fields', () => {
    const reply = post({ stdout: 'all good', stderr: '' });
    expect(reply).toBeUndefined();
  });

  it('property: no form of any found secret survives anywhere in a text', () => {
    expect(found.length).toBeGreaterThan(100);
    const piece = fc.constantFrom(...clean, ' ', '\n', '\\n', '"', ',', 'x', '=');
    fc.assert(
      fc.property(
        fc.constantFrom(...found),
        fc.array(fc.tuple(piece, fc.integer({ min: 0, max: 2 })), { maxLength: 6 }),
        fc.array(piece, { maxLength: 3 }),
        (f, around, before) => {
          let text = before.join('') + '\n' + f.context + '\n';
          for (const [p, form] of around) text += p + forms(f.secret)[form] + p;
          const out = redactor.text(text).text;
          for (const form of forms(f.secret)) expect(out).not.toContain(form);
        },
      ),
      params,
    );
  });

  it('property: no form of any found secret survives in any field of a structured output', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...found),
        fc.array(fc.tuple(fc.constantFrom(...clean), fc.integer({ min: 0, max: 2 }), fc.boolean()), { minLength: 1, maxLength: 5 }),
        fc.nat(),
        (f, fields, where) => {
          const output: Record<string, unknown> = { content: [] };
          const list = output.content as unknown[];
          fields.forEach(([c, form, asKey], i) => {
            const text = `${c} ${forms(f.secret)[form]}`;
            if (asKey) output[text] = i;
            else list.push({ type: 'text', text });
          });
          // The context that lets a rule find the value sits in one field somewhere.
          list.splice(where % (list.length + 1), 0, { type: 'text', text: f.context });
          const reply = post(output);
          expect(reply?.decision).toBe('modify');
          for (const s of strings(reply?.updatedOutput)) for (const form of forms(f.secret)) expect(s).not.toContain(form);
          expect(reply?.reason ?? '').not.toContain(f.secret);
        },
      ),
      params,
    );
  });
});

// Review (hostile): a found value is looked for elsewhere through one alternation of its forms; a long
// non-ASCII value (an npm token followed by 5,000 `€`, which the npmrc rule reads as one value) makes the
// percent-encoded form so long that V8 refuses the regex ("Regular expression too large") and the
// engine throws. PostToolUse catches it and withholds the output; UserPromptSubmit does not catch, so
// the guard throws and the prompt goes on unredacted (a hook error does not block a prompt by default).
// Same in main. Expected to FAIL until _echoMatcher skips or caps over-long forms (or falls back to indexOf).
describe('review: an over-long non-ASCII secret value does not make the engine throw', () => {
  const token = g.pick(A62, 32);
  const text = `//npm.pkg.example.com/:_authToken=${token}${'€'.repeat(5000)}\n`;
  it('redactText returns, with the token gone', () => {
    let out: string | undefined;
    expect(() => (out = createRedactor().text(text).text)).not.toThrow();
    expect(out).not.toContain(token);
  });
  it('the guard redacts it in a prompt', () => {
    const promptGuard = redactSecrets.create(redactSecretsOptions.parse({}));
    const reply = promptGuard({ hook_event_name: 'UserPromptSubmit', prompt: text } as HookInput, { ...ctx, event: 'userPromptSubmit' }) as ReplyObject | undefined;
    expect(reply).toMatchObject({ decision: 'modify' });
    expect((reply as { prompt?: string }).prompt).not.toContain(token);
  });
});
