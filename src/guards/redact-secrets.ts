// Guard `redact-secrets`: replaces secrets in tool output and prompts with a marker before the model sees them.
import type { Guard, HandlerFn, ReplyObject } from '../types.js';
import { createRedactor, type Finding } from './redact-secrets/engine.js';
import type { RedactSecretsOptions } from './redact-secrets/options.js';

export { createRedactor, redactText, redactValue } from './redact-secrets/engine.js';
export type { Finding, RedactTextResult, Redactor } from './redact-secrets/engine.js';
export type { RedactSecretsOptions, RedactSecretsOptionsInput } from './redact-secrets/options.js';
export { SECRET_RULES, SECRET_RULE_IDS } from './redact-secrets/rules.js';

export const redactSecrets: Guard<RedactSecretsOptions> = {
  id: 'redact-secrets',
  summary: 'Replaces secrets (cloud keys, VCS tokens, API keys, private keys, URL passwords) in tool output and prompts.',
  events: ['postToolUse', 'userPromptSubmit'],
  options: async () => (await import('./redact-secrets/options.js')).redactSecretsOptions,
  create(options) {
    const redactor = createRedactor(options);
    const handler: HandlerFn = (input, context) => {
      if (context.event === 'postToolUse') {
        if (input.tool_response === undefined) return undefined;
        const { value, findings } = redactor.value(input.tool_response);
        return findings.length === 0 ? undefined : { decision: 'modify', updatedOutput: value, reason: reasonFor(findings) };
      }
      if (context.event === 'userPromptSubmit') {
        if (typeof input.prompt !== 'string') return undefined;
        const { text, findings } = redactor.text(input.prompt);
        return findings.length === 0 ? undefined : { decision: 'modify', prompt: text, reason: reasonFor(findings) };
      }
      return undefined;
    };
    return handler;
  },
};

// The reason names rules, never the secrets: it ends up in logs and in the agent's transcript.
function reasonFor(findings: Finding[]): NonNullable<ReplyObject['reason']> {
  const rules = [...new Set(findings.map((f) => f.rule))];
  return `redact-secrets: redacted ${findings.length} secret(s): ${rules.join(', ')}`;
}
