// The built-in secret rules of `redact-secrets`: one entry per token format, each with its public source.

export interface SecretRule {
  id: string;
  /** Literal text every match contains: the regex runs only when one is in the text (cheap on big outputs). */
  keywords: string[];
  /** Compare `keywords` with the lower-cased text (for rules with the `i` flag). */
  keywordsIgnoreCase?: boolean;
  /** Global regex (`g`, plus `d` when `group` is set). */
  pattern: RegExp;
  /** Capture group holding the secret, so the label or the URL around it stays; the whole match when absent. */
  group?: number;
}

// Token boundaries: most formats are made of [A-Za-z0-9_-], so a neighbour from that set means the
// text is part of a longer word (`task-sk-...`, a hash, base64 data), not a token.
const L = '(?<![A-Za-z0-9_-])';
const R = '(?![A-Za-z0-9_-])';

const re = (source: string, flags = ''): RegExp => new RegExp(source, 'g' + flags);

/** Order matters only on ties: on two matches with the same span the earlier rule names it. */
export const SECRET_RULES: readonly SecretRule[] = [
  {
    // RFC 7468 (PKCS #8 / PKCS #1 / SEC 1 "-----BEGIN ... PRIVATE KEY-----"), OpenSSH's PROTOCOL.key
    // ("OPENSSH PRIVATE KEY"), RFC 4880 §6.2 ("PGP PRIVATE KEY BLOCK"). The body may hold RFC 1421
    // headers (Proc-Type, DEK-Info) and JSON-escaped newlines (`\n`, service-account files). Without
    // an END line (output cut short) the base64 run after the header is taken; a lone header line
    // (code that looks for one) is left alone. The body may not contain `-----`, so a scan from one
    // BEGIN stops at the next armour line: linear time even on a flood of headers with no END.
    id: 'private-key',
    keywords: ['PRIVATE KEY'],
    pattern: re(
      '-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----' +
        '(?:(?:[A-Za-z0-9+/=\\s\\\\:,.]|-(?!----))*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----' +
        '|(?:[A-Za-z0-9+/=]|\\r?\\n|\\\\r|\\\\n){16,})',
    ),
  },
  {
    // AWS IAM User Guide, "IAM identifiers" → unique ID prefixes: AKIA (access key), ASIA (temporary
    // STS key), ABIA (STS service bearer token), ACCA (context-specific credential). 20 characters.
    id: 'aws-access-key-id',
    keywords: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    pattern: re('(?<![A-Za-z0-9+/])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9+/])'),
  },
  {
    // GitHub Docs, "About authentication to GitHub" → "GitHub's token formats" (ghp_ personal, gho_
    // OAuth, ghu_ user-to-server, ghs_ server-to-server, ghr_ refresh), 36 base62 characters after
    // the prefix; longer bodies are accepted because GitHub reserves the right to grow them.
    id: 'github-token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: re(`${L}gh[pousr]_[A-Za-z0-9]{36,251}${R}`),
  },
  {
    // GitHub Docs, fine-grained personal access tokens: `github_pat_` + 22 + `_` + 59 characters.
    id: 'github-fine-grained-token',
    keywords: ['github_pat_'],
    pattern: re(`${L}github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}${R}`),
  },
  {
    // GitLab Docs, "GitLab token overview" → token prefixes (glpat- personal, gldt- deploy, glrt- runner,
    // glptt- pipeline trigger, glft- feed, glimt- incoming mail, gloas- OAuth secret, glcbt- CI job,
    // glsoat- service account, glffct- feature flags client, glagent- agent). Routable tokens append
    // dot-separated parts.
    id: 'gitlab-token',
    keywords: ['gl'],
    pattern: re(`${L}gl(?:pat|dt|rt|ptt|ft|imt|oas|cbt|soat|ffct|agent)-[A-Za-z0-9_-]{20,}(?:\\.[A-Za-z0-9_-]{2,}){0,2}${R}`),
  },
  {
    // Anthropic API docs, API keys `sk-ant-api03-...`; Admin API keys `sk-ant-admin01-...`; OAuth access
    // tokens of Claude subscriptions `sk-ant-oat01-...`. Listed before OpenAI, whose prefix it shares.
    id: 'anthropic-key',
    keywords: ['sk-ant-'],
    pattern: re(`${L}sk-ant-(?:api|admin|oat)\\d{2}-[A-Za-z0-9_-]{20,}${R}`),
  },
  {
    // OpenAI API reference, "Authentication": project keys `sk-proj-`, service-account keys
    // `sk-svcacct-`, admin keys `sk-admin-`; legacy user keys `sk-` + 48 base62 (gitleaks
    // `openai-api-key`, whose `T3BlbkFJ` marker sits inside those 48). Never a bare `sk-` in a word.
    id: 'openai-key',
    keywords: ['sk-'],
    pattern: re(`${L}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{48})${R}`),
  },
  {
    // Stripe Docs, "API keys": secret `sk_live_`/`sk_test_`, restricted `rk_live_`/`rk_test_`;
    // "Check the webhook signatures": endpoint secrets `whsec_`.
    id: 'stripe-key',
    keywords: ['k_live_', 'k_test_', 'whsec_'],
    pattern: re(`${L}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,247}|whsec_[A-Za-z0-9+/=]{24,})${R}`),
  },
  {
    // Slack API docs, "Token types": xoxb- bot, xoxp- user, xoxa-/xoxr- (workspace/refresh), xoxo-,
    // xoxs-, rotating `xoxe.xoxp-`/`xoxe-` and app-level `xapp-` tokens.
    id: 'slack-token',
    keywords: ['xox', 'xapp-'],
    pattern: re('(?<![A-Za-z0-9_.-])(?:xoxe\\.xox[bp]|xox[abeoprs]|xapp)-[A-Za-z0-9-]{10,}(?![A-Za-z0-9_-])'),
  },
  {
    // Slack API docs, "Sending messages using incoming webhooks": the path after /services/ is the
    // secret; workflow and trigger URLs work the same way. The host and path prefix stay readable.
    id: 'slack-webhook',
    keywords: ['hooks.slack.com/'],
    pattern: re('https://hooks\\.slack\\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/+-]{20,})', 'd'),
    group: 1,
  },
  {
    // Google Cloud docs, "Manage API keys" (keys start with `AIza`, 39 characters in all).
    id: 'google-api-key',
    keywords: ['AIza'],
    pattern: re(`${L}AIza[A-Za-z0-9_-]{35}${R}`),
  },
  {
    // npm Docs, "About access tokens" and GitHub's 2021 post on the new npm token format: `npm_` + 36.
    id: 'npm-token',
    keywords: ['npm_'],
    pattern: re(`${L}npm_[A-Za-z0-9]{36}${R}`),
  },
  {
    // AWS CLI User Guide, "Configuration and credential file settings" (`aws_secret_access_key`), and
    // the `SecretAccessKey` field of STS/IAM JSON. A bare 40-character base64 string is too common
    // (hashes, data) to flag, so only a labelled one counts; the label stays.
    id: 'aws-secret-access-key',
    keywords: ['secret'],
    keywordsIgnoreCase: true,
    pattern: re(
      '(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["\']?\\s*(?::|=>?)\\s*["\']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])',
      'di',
    ),
    group: 1,
  },
  {
    // RFC 3986 §3.2.1: `scheme://user:password@host` (deprecated but everywhere: DB URLs, git remotes,
    // proxies). Only the password is replaced; `$VAR`, `${VAR}`, `{{var}}` and masks are left alone.
    id: 'url-password',
    keywords: ['://'],
    pattern: re(
      '(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\\s:@/?#\'"<>]*:' +
        '(?!\\$\\{?[A-Za-z_][A-Za-z0-9_]*\\}?@|\\{\\{|\\*+@|%s@|\\[REDACTED)' +
        '([^\\s@/?#\'"<>]+)@(?=[A-Za-z0-9[])',
      'd',
    ),
    group: 1,
  },
];

export const SECRET_RULE_IDS = SECRET_RULES.map((rule) => rule.id) as [string, ...string[]];
