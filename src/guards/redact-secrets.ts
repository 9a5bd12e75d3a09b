// Guard `redact-secrets`: replaces secrets in tool output and prompts with a marker before the model sees them.
import type { Guard, HandlerFn, ReplyObject } from '../types.js';
import { createRedactor, type Finding } from './redact-secrets/engine.js';
import type { RedactSecretsOptions } from './redact-secrets/options.js';

export { createRedactor, redactText, redactValue } from './redact-secrets/engine.js';
export type { Finding, RedactTextResult, Redactor, ValueResult } from './redact-secrets/engine.js';
export type { RedactSecretsOptions, RedactSecretsOptionsInput } from './redact-secrets/options.js';
export { SECRET_RULES, SECRET_RULE_IDS } from './redact-secrets/rules.js';

export const redactSecrets: Guard<RedactSecretsOptions> = {
  id: 'redact-secrets',
  summary: 'Replaces secrets (cloud keys, VCS tokens, API keys, private keys, URL passwords) in tool output and prompts.',
  events: ['postToolUse', 'userPromptSubmit'],
  options: async () => (await import('./redact-secrets/options.js')).redactSecretsOptions,
  create(options) {
    const redactor = createRedactor(options);
    const marker = options?.marker ?? '[REDACTED:{rule}]';
    const handler: HandlerFn = (input, context) => {
      if (context.event === 'postToolUse') {
        if (input.tool_response === undefined) return undefined;
        let result: ReturnType<typeof redactor.value>;
        try {
          result = redactor.value(input.tool_response);
        } catch (error) {
          // Whatever the walk could not read is not shown to the model: fail closed, and say why.
          return withhold(marker, `the output could not be read (${engineError(error)})`);
        }
        const { value, findings, depth } = result;
        if (findings.length === 0) return undefined;
        // The redacted copy goes back to the agent through JSON.stringify, which recurses (V8 overflows
        // near 5,000 levels on a default stack). Deeper than MAX_OUTPUT_DEPTH, the copy is tried with
        // SERIALISE_MARGIN extra levels around it, a margin for the runner's own frames; if that
        // fails, the whole output is withheld rather than risk the original going through.
        if (depth > MAX_OUTPUT_DEPTH && !serialisable(value)) {
          return withhold(marker, `${reasonFor(findings)}; the output nests ${depth} levels deep, too deep to pass on, so all of it was withheld`);
        }
        return { decision: 'modify', updatedOutput: value, reason: reasonFor(findings) };
      }
      if (context.event === 'userPromptSubmit') {
        if (typeof input.prompt !== 'string') return undefined;
        let result: ReturnType<typeof redactor.text>;
        try {
          result = redactor.text(input.prompt);
        } catch (error) {
          // As for tool output: a prompt the engine could not read goes on as the marker, not as typed.
          return withheldPrompt(marker, `the prompt could not be read (${engineError(error)})`);
        }
        const { text, findings } = result;
        return findings.length === 0 ? undefined : { decision: 'modify', prompt: text, reason: reasonFor(findings) };
      }
      return undefined;
    };
    return handler;
  },
};

/** Tool output nested deeper than this is checked for serialisation before it is passed on (see postToolUse). */
export const MAX_OUTPUT_DEPTH = 1000;
const SERIALISE_MARGIN = 250;

function serialisable(value: unknown): boolean {
  let wrapped: unknown = value;
  for (let i = 0; i < SERIALISE_MARGIN; i++) wrapped = [wrapped];
  try {
    JSON.stringify(wrapped);
    return true;
  } catch {
    return false;
  }
}

function withhold(marker: string, reason: string): ReplyObject {
  return { decision: 'modify', updatedOutput: marker.split('{rule}').join('withheld'), reason: `redact-secrets: ${reason.replace(/^redact-secrets: /, '')}` };
}

// The error's name only: V8 quotes a regex's source in its message, and the echo regex is made of
// the secrets themselves; the reason goes to logs and the transcript.
function engineError(error: unknown): string {
  return error instanceof Error ? `${error.name} in the engine` : 'engine error';
}

function withheldPrompt(marker: string, reason: string): ReplyObject {
  return { decision: 'modify', prompt: marker.split('{rule}').join('withheld'), reason: `redact-secrets: ${reason}` };
}

// The reason names rules, never the secrets: it ends up in logs and in the agent's transcript.
function reasonFor(findings: Finding[]): NonNullable<ReplyObject['reason']> {
  const rules = [...new Set(findings.map((f) => f.rule))];
  return `redact-secrets: redacted ${findings.length} secret(s): ${rules.join(', ')}`;
}
