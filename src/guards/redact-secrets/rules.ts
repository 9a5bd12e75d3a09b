// The built-in secret rules of `redact-secrets`: one entry per token format, each with its public source.
import { entropy, isPasswordWord, isPlaceholder, looksSecret } from './filters.js';

export interface SecretRule {
  id: string;
  /** Where the format is documented (the provider's docs, an RFC, or gitleaks' MIT rule when the provider documents none). */
  source?: string;
  /** Literal text every match contains: the regex runs only when one is in the text (cheap on big outputs). */
  keywords: string[];
  /** Compare `keywords` with the lower-cased text (for rules with the `i` flag). */
  keywordsIgnoreCase?: boolean;
  /** Global regex (`g`, plus `d` when `group` or a named group `secret` is used). */
  pattern: RegExp;
  /** Capture group holding the secret, so the label or the URL around it stays; the whole match when absent. */
  group?: number;
  /** A second look at the secret text: false means "not a secret after all". */
  check?: (secret: string) => boolean;
  /** A label-driven rule (any value after a secret-ish name): yields to every format rule it overlaps. */
  generic?: boolean;
  /** Run on the text as it is, not on the copy with escapes blanked out (rules that read escapes themselves). */
  raw?: boolean;
  /** Skip the placeholder filter (rules whose match is structural, e.g. a whole key block). */
  placeholdersToo?: boolean;
  /**
   * Read the whole text, not windows around the keywords' hits: matches that span lines (key
   * blocks) or keywords that are context rather than part of the match (`mailgun` near a key).
   */
  wholeText?: boolean;
  /**
   * Every match starts where one of `keywords` occurs (case folded when `keywordsIgnoreCase`): the
   * engine tries the regex, sticky, at each hit instead of scanning windows. A property test holds
   * each such rule to a scan of the whole text.
   */
  startsAtKeyword?: boolean;
}

// Token boundaries: most formats are made of [A-Za-z0-9_-], so a neighbour from that set means the
// text is part of a longer word (`task-sk-...`, a hash, base64 data), not a token. The engine runs
// the rules on a copy of the text where JSON/shell escapes (`\n`, `\t`, `\u0022`) and ANSI colour
// codes are blanked out (`blankEscapes`), so a token right after one (`.jsonl` transcripts,
// `grep --color`) stands alone.
const L = '(?<![A-Za-z0-9_-])';
// Same, for formats whose body may contain `+` and `/` (base64): a neighbour from that set means data.
const LB = '(?<![A-Za-z0-9+/_-])';
const R = '(?![A-Za-z0-9_-])';

const re = (source: string, flags = ''): RegExp => new RegExp(source, 'gd' + flags);

const DIGIT_CHARS = '0123456789';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz' + DIGIT_CHARS;
/** Every `first + middle + last` for a character of `first` and one of `last`: keywords for a shape with no literal. */
const threeCharacterKeywords = (first: string, middle: string, last: string): string[] => [...first].flatMap((a) => [...last].map((c) => a + middle + c));

/** A standalone token: the whole match is the secret. */
// The regex is compiled on first use: most rules never pass their keyword prefilter, and compiling
// all of them up front was most of the module's start-up (the audit log loads it on every event).
const token = (id: string, source: string, keywords: string[], body: string, extra: Partial<SecretRule> = {}): SecretRule => {
  let compiled: RegExp | undefined;
  return {
    id,
    source,
    keywords,
    get pattern() {
      return (compiled ??= re(`${L}(?:${body})${R}`));
    },
    ...extra,
  };
};

// A word that labels a value as a secret, in any case and spelling (`DB_PASSWORD`, `apiKey`,
// `client-secret`, `"private_key"`); it must end the name, so `tokenizer`, `max_tokens`,
// `PASSWORD_MIN_LENGTH` and `API_KEY_HEADER` are not labels.
const SECRET_NAME =
  '(?:pass(?:word|wd|phrase)|(?<![A-Za-z])pass|pwd|secret|token|apikey|credentials?|creds|auth|(?<![A-Za-z])pat|' +
  '(?:api|access|auth|private|signing|encryption|master|secret|license|sdk|admin|app|account|service|shared|consumer|' +
  'mobile|server|write|ingest|management|deploy|bot|client|webhook)[_.-]?key|client[_.-]?secret)' +
  '(?:[_.-]?(?:key|value|base|b64|base64|str|string))?';
// The same names for a regex that must start work only at a secret word: every alternative begins
// with one of the rule's keywords and what precedes it (`api_` in `api_key`, a non-letter before
// `pass`) is a lookbehind, so V8 rejects most positions on their first character (the leading
// prefixes made every letter a candidate start: ~3× slower on plain logs). `client_secret` is
// `secret`, `apikey` is `key` after `api`; a property test holds it to SECRET_NAME's matches. Every
// match so starts at a keyword hit, and the rule says so (`startsAtKeyword`).
const SECRET_WORD =
  '(?:pass(?:word|wd|phrase)?(?<=(?<![A-Za-z])pass|pass(?:word|wd|phrase))|pwd|secret|token|credentials?|creds|auth|(?<![A-Za-z])pat|' +
  'key(?<=(?:api|access|auth|private|signing|encryption|master|secret|license|sdk|admin|app|account|service|shared|consumer|' +
  'mobile|server|write|ingest|management|deploy|bot|client|webhook)[_.-]?key))' +
  '(?:[_.-]?(?:key|value|base|b64|base64|str|string))?';
// What may sit between the name and the value: a closing quote, a type (`var xToken string =`,
// `token: str =`), and an assignment operator of some language or config format.
const ASSIGN = String.raw`\\?["'\x60]?(?:[ \t]*:?[ \t]*(?:string|str|String|&str)(?![\w]))?[ \t]*(?::{1,3}=|\?=|\|\|=|=>|[:=])`;

// A label inside a URL's authority (`https://x-access-token:<token>@github.com/…`) is the user name:
// the url-password rule reads the password there. Read as a label, its value ran on over the host and
// path, and the union with the token's own span redacted the whole URL.
const NOT_IN_AUTHORITY = String.raw`(?<!://[^\s/@]{0,256})`; // bounded: the look back runs on every label match

/** Order matters only on ties: on two matches with the same span the earlier rule names it. */
export const SECRET_RULES: readonly SecretRule[] = [
  // --- key blocks ---
  {
    // RFC 7468 (PKCS #8 / PKCS #1 / SEC 1 "-----BEGIN ... PRIVATE KEY-----"), OpenSSH's PROTOCOL.key
    // ("OPENSSH PRIVATE KEY"), RFC 4880 §6.2 ("PGP PRIVATE KEY BLOCK"). The body may hold RFC 1421
    // headers (Proc-Type, DEK-Info) and JSON-escaped newlines (`\n`, service-account files). Without
    // an END line (output cut short) the base64 run after the header is taken; a lone header line
    // (code that looks for one) is left alone. The body may not contain `-----`, so a scan from one
    // BEGIN stops at the next armour line: linear time even on a flood of headers with no END.
    id: 'private-key',
    source: 'https://www.rfc-editor.org/rfc/rfc7468 ; https://github.com/openssh/openssh-portable/blob/master/PROTOCOL.key ; https://www.rfc-editor.org/rfc/rfc4880#section-6.2',
    keywords: ['PRIVATE KEY'],
    pattern: re(
      '-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----' +
        '(?:(?:[A-Za-z0-9+/=\\s\\\\:,.]|-(?!----))*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----' +
        '|(?:[A-Za-z0-9+/=]|\\r?\\n|\\\\r|\\\\n){16,})',
    ),
    raw: true,
    placeholdersToo: true,
    wholeText: true,
  },
  {
    // PuTTY's .ppk format (PuTTY manual, appendix C): the lines after `Private-Lines: N` are the key.
    id: 'putty-private-key',
    source: 'https://the.earth.li/~sgtatham/putty/latest/htmldoc/AppendixC.html',
    keywords: ['Private-Lines:'],
    pattern: re(String.raw`Private-Lines: \d{1,4}(?:\r?\n|\\r?\\n)((?:[A-Za-z0-9+/=]{4,}(?:\r?\n|\\r?\\n)?)+)`),
    group: 1,
    raw: true,
    placeholdersToo: true,
    wholeText: true,
  },
  token('age-secret-key', 'https://github.com/C2SP/C2SP/blob/main/age.md#x25519-recipient-stanza', ['AGE-SECRET-KEY-1'], 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}'),

  // --- cloud providers ---
  {
    // AWS IAM User Guide, "IAM identifiers" → unique ID prefixes: AKIA (access key), ASIA (temporary
    // STS key), ABIA (STS service bearer token), ACCA (context-specific credential). 20 characters.
    id: 'aws-access-key-id',
    source: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids',
    keywords: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    pattern: re(`${LB}(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9+/])`),
  },
  {
    // AWS CLI User Guide, "Configuration and credential file settings" (`aws_secret_access_key`), and
    // the `SecretAccessKey` field of STS/IAM JSON. A bare 40-character base64 string is too common
    // (hashes, data) to flag, so only a labelled one counts; the label stays.
    id: 'aws-secret-access-key',
    source: 'https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-files.html',
    keywords: ['secret'],
    keywordsIgnoreCase: true,
    pattern: re(
      '(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)\\\\?["\']?\\s*(?::|=>?)\\s*\\\\?["\']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])',
      'i',
    ),
    group: 1,
  },
  token('google-api-key', 'https://cloud.google.com/docs/authentication/api-keys', ['AIza'], 'AIza[A-Za-z0-9_-]{35}'),
  token('google-oauth-client-secret', 'https://developers.google.com/identity/protocols/oauth2 (client secrets start with GOCSPX-)', ['GOCSPX-'], 'GOCSPX-[A-Za-z0-9_-]{28}'),
  token('google-oauth-token', 'https://developers.google.com/identity/protocols/oauth2 (access tokens ya29., refresh tokens 1//)', ['ya29.', '1//0'], 'ya29\\.[A-Za-z0-9_-]{30,}|1//0[A-Za-z0-9_-]{40,}'),
  {
    // Azure Storage / Service Bus connection strings: `AccountKey=` (88 base64 characters) and
    // `SharedAccessKey=`; the label and the rest of the connection string stay.
    id: 'azure-connection-key',
    source: 'https://learn.microsoft.com/en-us/azure/storage/common/storage-configure-connection-string',
    keywords: ['accesskey=', 'accountkey='],
    keywordsIgnoreCase: true,
    pattern: re('(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{40,}={0,2})', 'i'),
    group: 1,
  },
  {
    // Azure shared access signatures: the `sig=` query parameter is the HMAC that grants access.
    id: 'azure-sas-signature',
    source: 'https://learn.microsoft.com/en-us/rest/api/storageservices/create-service-sas#specify-the-signature',
    keywords: ['sig='],
    pattern: re('[?&]sig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})'),
    group: 1,
  },
  token('azure-ad-client-secret', 'https://learn.microsoft.com/en-us/entra/identity-platform/how-to-add-credentials (format per gitleaks azure-ad-client-secret)', ['Q~'], '[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}'),
  {
    // Azure's identifiable keys (GitHub secret scanning partner formats): a fixed signature at a
    // fixed offset inside a base64 key. Shapes from Microsoft's security-utilities
    // (https://github.com/microsoft/security-utilities, GeneratedRegexPatterns/HighConfidenceSecurityModels.json, MIT):
    // common annotated keys (Azure DevOps PATs, `JQQJ9` at 52), 88-character keys (`+ASt` storage,
    // `ACDb` Cosmos DB, `+ABa` Batch, `+AMC` ML classic, `APIM` API Management at 76), 44-character
    // keys (`+ARm` Relay, `+AEh` Event Hubs, `+ASb` Service Bus, `AIoT` IoT, `AzCa` Cache for
    // Redis, `AZEG` Event Grid at 33), Functions (`AzFu` at 44), Search (`AzSe` at 42) and Container
    // Registry (`+ACR` at 42). The signature is the keyword; windows reach 256 characters back.
    id: 'azure-identifiable-key',
    source: 'https://learn.microsoft.com/en-us/purview/sit-defn-azure-devops-personal-access-token ; https://github.com/microsoft/security-utilities (identifiable key formats)',
    keywords: ['JQQJ9', '+ASt', 'ACDb', '+ABa', '+AMC', 'APIM', '+ARm', '+AEh', '+ASb', 'AIoT', 'AzCa', 'AZEG', 'AzFu', 'AzSe', '+ACR'],
    pattern: re(
      '(?<![A-Za-z0-9+/_-])(?:' +
        '[A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}[A-Za-z][A-Za-z0-9]{7}(?:[A-Za-z0-9]{2}==)?' +
        '|[A-Za-z0-9+/]{76}(?:\\+ASt|ACDb|\\+ABa|\\+AMC|APIM)[A-Za-z0-9+/]{5}[AQgw]==' +
        '|[A-Za-z0-9+/]{33}(?:\\+ARm|\\+AEh|\\+ASb|AIoT|AzCa|AZEG)[A-P][A-Za-z0-9+/]{5}=' +
        '|[A-Za-z0-9_-]{44}AzFu[A-Za-z0-9_-]{5}[AQgw]==' +
        '|[A-Za-z0-9]{42}AzSe[A-D][A-Za-z0-9]{5}' +
        '|[A-Za-z0-9+/]{42}\\+ACR[A-D][A-Za-z0-9+/]{5}' +
        ')(?![A-Za-z0-9+/=_-])',
    ),
  },
  token('digitalocean-token', 'https://docs.digitalocean.com/reference/api/create-personal-access-token/', ['_v1_'], 'do[por]_v1_[a-f0-9]{64}'),
  token('heroku-api-key', 'https://devcenter.heroku.com/articles/authentication', ['HRKU-'], 'HRKU-[A-Za-z0-9_-]{60}'),
  token('alibaba-access-key-id', 'https://www.alibabacloud.com/help/en/ram/user-guide/create-an-accesskey-pair', ['LTAI'], 'LTAI[A-Za-z0-9]{12,20}'),
  token('cloudflare-origin-ca-key', 'https://developers.cloudflare.com/fundamentals/api/reference/keys/#origin-ca-keys', ['v1.0-'], 'v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}'),
  token('fly-token', 'https://fly.io/docs/security/tokens/ (fo1_ org tokens per gitleaks flyio-access-token)', ['fm1', 'fm2', 'fo1_'], 'fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3}|fo1_[A-Za-z0-9_-]{43}'),
  // STS session tokens are base64 of a protobuf that starts the same way (`FwoGZXIvYXdz` older,
  // `IQoJb3JpZ2lu` current): the prefix alone marks them, under any label (`session:`, `SessionToken`).
  token('aws-session-token', 'https://docs.aws.amazon.com/STS/latest/APIReference/API_Credentials.html (prefixes per Nosey Parker np.aws.5)', ['FwoGZXIvYXdz', 'IQoJb3JpZ2lu'], '(?:FwoGZXIvYXdz|IQoJb3JpZ2lu)[A-Za-z0-9/+]{100,}={0,2}'),
  {
    // A labelled session token whatever its prefix: `aws_session_token = …`, `session: …`,
    // `"SessionToken": "…"`, `security_token`. Long base64 only, so `session: 42` is no secret.
    id: 'session-token',
    source: 'https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-envvars.html (AWS_SESSION_TOKEN)',
    keywords: ['session', 'security_token', 'securitytoken'],
    keywordsIgnoreCase: true,
    pattern: re(String.raw`(?:(?:aws_?)?session(?:_?token)?|security_?token)\\?["']?[ \t]*(?::|=>?)[ \t]*\\?["']?([A-Za-z0-9/+]{100,}={0,2})(?![A-Za-z0-9/+=])`, 'i'),
    group: 1,
  },
  token('firebase-fcm-server-key', 'https://firebase.google.com/docs/cloud-messaging/auth-server', ['AAAA'], 'AAAA[A-Za-z0-9_-]{7}:[A-Za-z0-9_-]{140}'),

  // --- source hosting, CI and package registries ---
  // ghp_ personal, gho_ OAuth, ghu_ user-to-server, ghs_ server-to-server, ghr_ refresh: 36 base62
  // characters after the prefix; longer bodies are accepted because GitHub reserves the right to grow them.
  token('github-token', 'https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/about-authentication-to-github#githubs-token-formats', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], 'gh[pousr]_[A-Za-z0-9]{36,251}'),
  token('github-fine-grained-token', 'https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens', ['github_pat_'], 'github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}'),
  // GitLab token prefixes (glpat- personal, gldt- deploy, glrt- runner, glptt- trigger, glft- feed,
  // glimt- incoming mail, gloas- OAuth secret, glcbt- CI job, glsoat- service account, glffct- feature
  // flags, glagent- agent, glwt- workspace, GR1348941 runner registration); routable tokens add dotted parts.
  token('gitlab-token', 'https://docs.gitlab.com/security/tokens/#token-prefixes', ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glft-', 'glimt-', 'gloas-', 'glcbt-', 'glsoat-', 'glffct-', 'glagent-', 'glwt-', 'GR1348941'], 'gl(?:pat|dt|rt|ptt|ft|imt|oas|cbt|soat|ffct|agent|wt)-[A-Za-z0-9_-]{20,}(?:\\.[A-Za-z0-9_-]{2,}){0,2}|GR1348941[A-Za-z0-9_-]{20,}'),
  // Atlassian API tokens (ATATT3…), Bitbucket app passwords (ATBB…) and access tokens (ATCTT3…).
  token('atlassian-token', 'https://support.atlassian.com/atlassian-account/docs/manage-api-tokens-for-your-atlassian-account/ ; https://support.atlassian.com/bitbucket-cloud/docs/app-passwords/', ['ATATT3', 'ATCTT3', 'ATBB'], 'AT(?:ATT3|CTT3)[A-Za-z0-9_=-]{100,}|ATBB[A-Za-z0-9_=.-]{28,}'),
  token('npm-token', 'https://docs.npmjs.com/about-access-tokens', ['npm_'], 'npm_[A-Za-z0-9]{36}'),
  {
    // npm's .npmrc auth settings: `//registry/:_authToken=…`, `_auth=` (base64 user:pass), `_password=`.
    id: 'npmrc-auth',
    generic: true,
    source: 'https://docs.npmjs.com/cli/v10/configuring-npm/npmrc#auth-related-configuration',
    keywords: ['_auth', '_password'],
    // At a line start or after the registry's `:`, as .npmrc writes it (not `key_password=` in code).
    pattern: re(String.raw`(?<![^\s:])(?:_authToken|_auth|_password)[ \t]*=[ \t]*["']?([^\s"'\\]{8,})`),
    group: 1,
    check: (v) => !/^\$/.test(v) && !/^[A-Za-z_.]+$/.test(v),
  },
  token('pypi-token', 'https://pypi.org/help/#apitoken', ['pypi-Ag'], 'pypi-Ag[A-Za-z0-9_-]{50,}'),
  token('rubygems-key', 'https://guides.rubygems.org/api-key-scopes/', ['rubygems_'], 'rubygems_[a-f0-9]{48}'),
  token('nuget-key', 'https://learn.microsoft.com/en-us/nuget/nuget-org/scoped-api-keys (format per gitleaks nuget)', ['oy2'], 'oy2[a-z0-9]{43}'),
  token('docker-token', 'https://docs.docker.com/security/access-tokens/', ['dckr_'], 'dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}'),
  token('jfrog-token', 'https://jfrog.com/help/r/jfrog-platform-administration-documentation/access-tokens', ['AKCp', 'cmVmdGtu'], 'AKCp[A-Za-z0-9]{69}|cmVmdGtuOjAxOj[A-Za-z0-9]{40,}'),
  token('buildkite-token', 'https://buildkite.com/docs/apis/managing-api-tokens', ['bkua_'], 'bkua_[a-f0-9]{40}'),
  token('circleci-token', 'https://circleci.com/docs/managing-api-tokens/', ['CCIPAT_'], 'CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}'),
  token('sourcegraph-token', 'https://sourcegraph.com/docs/cli/how-tos/creating_an_access_token', ['sgp_'], 'sgp_(?:(?:[A-Fa-f0-9]{16}|local)_)?[A-Fa-f0-9]{40}'),
  token('octopus-api-key', 'https://octopus.com/docs/octopus-rest-api/how-to-create-an-api-key', ['API-'], 'API-[A-Z0-9]{26}'),
  token('harness-token', 'https://developer.harness.io/docs/platform/automation/api/add-and-manage-api-keys/', ['pat.', 'sat.'], '(?:pat|sat)\\.[A-Za-z0-9_-]{22}\\.[a-f0-9]{24}\\.[A-Za-z0-9]{20}'),

  // --- AI providers ---
  token('anthropic-key', 'https://docs.anthropic.com/en/api/overview#authentication', ['sk-ant-'], 'sk-ant-(?:api|admin|oat|sid)\\d{2}-[A-Za-z0-9_-]{20,}'),
  // OpenAI project `sk-proj-`, service-account `sk-svcacct-`, admin `sk-admin-`; legacy `sk-` + 48.
  token('openai-key', 'https://platform.openai.com/docs/api-reference/authentication', ['sk-'], 'sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{48})'),
  token('openrouter-key', 'https://openrouter.ai/docs/api-reference/authentication', ['sk-or-'], 'sk-or-v\\d-[a-f0-9]{64}'),
  token('huggingface-token', 'https://huggingface.co/docs/hub/security-tokens', ['hf_', 'api_org_'], '(?:hf_|api_org_)[A-Za-z0-9]{34,40}'),
  token('groq-key', 'https://console.groq.com/docs/quickstart', ['gsk_'], 'gsk_[A-Za-z0-9]{48,52}'),
  token('xai-key', 'https://docs.x.ai/docs/overview', ['xai-'], 'xai-[A-Za-z0-9]{70,90}'),
  token('perplexity-key', 'https://docs.perplexity.ai/guides/getting-started', ['pplx-'], 'pplx-[A-Za-z0-9]{40,56}'),
  token('replicate-token', 'https://replicate.com/docs/topics/security/api-tokens', ['r8_'], 'r8_[A-Za-z0-9]{37}'),
  token('langsmith-key', 'https://docs.smith.langchain.com/administration/how_to_guides/organization_management/create_account_api_key', ['lsv2_'], 'lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}'),
  token('tavily-key', 'https://docs.tavily.com/documentation/api-reference/introduction (format per Nosey Parker np.tavily.1)', ['tvly-'], 'tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}'),
  token('jina-key', 'https://jina.ai/api-dashboard/ (format per Nosey Parker np.jina.1)', ['jina_'], 'jina_[a-f0-9]{32}[A-Za-z0-9_-]{30}'),
  // Keys of the `sk-…` / `pk-…` shape many providers copied (DeepSeek, Moonshot, Langfuse, LiteLLM, …):
  // the prefix says little, so the body must look generated.
  token('generic-sk-key', 'design example; e.g. https://api-docs.deepseek.com/ , https://langfuse.com/docs/api', ['sk-', 'pk-'], '(?:sk|pk)-(?:[a-z0-9]{1,10}-){0,2}[A-Za-z0-9]{20,}', {
    check: (v) => /\d/.test(v) && /[A-Za-z]/.test(v.slice(3)) && looksSecret(v.slice(3)),
  }),

  // --- payments, messaging, e-mail ---
  token('stripe-key', 'https://docs.stripe.com/keys ; https://docs.stripe.com/webhooks#verify-official-libraries', ['k_live_', 'k_test_', 'k_prod_', 'whsec_'], '(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,247}|whsec_[A-Za-z0-9+/=]{24,}'),
  token('square-token', 'https://developer.squareup.com/docs/build-basics/access-tokens', ['sq0', 'EAAA'], 'sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}|EAAA[A-Za-z0-9_-]{60}'),
  token('shippo-token', 'https://docs.goshippo.com/docs/guides_general/authentication/', ['shippo_'], 'shippo_(?:live|test)_[a-f0-9]{40}'),
  token('braintree-token', 'https://developer.paypal.com/braintree/docs/guides/authorization/gateway-credentials', ['access_token$'], 'access_token\\$(?:production|sandbox)\\$[a-z0-9]{16}\\$[a-f0-9]{32}'),
  token('easypost-key', 'https://docs.easypost.com/docs/authentication', ['EZAK', 'EZTK'], 'EZ[AT]K[A-Za-z0-9]{54}'),
  token('shopify-token', 'https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens (prefixes per gitleaks shopify-*)', ['shpat_', 'shpca_', 'shppa_', 'shpss_'], 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}'),
  // Slack: xoxb- bot, xoxp- user, xoxa-/xoxr-, xoxo-, xoxs-, rotating `xoxe.xoxp-`/`xoxe-`, app-level `xapp-`.
  {
    id: 'slack-token',
    source: 'https://api.slack.com/concepts/token-types',
    keywords: ['xox', 'xapp-'],
    pattern: re(`(?<![A-Za-z0-9_.-])(?:xoxe\\.xox[bp]|xox[abeoprs]|xapp)-[A-Za-z0-9-]{10,}${R}`),
  },
  {
    // The path after /services/ is the secret; workflow and trigger URLs work the same way.
    id: 'slack-webhook',
    source: 'https://api.slack.com/messaging/webhooks',
    keywords: ['hooks.slack.com/'],
    pattern: re('https://hooks\\.slack\\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/+-]{20,})'),
    group: 1,
  },
  {
    id: 'discord-webhook',
    source: 'https://discord.com/developers/docs/resources/webhook#execute-webhook',
    keywords: ['/api/webhooks/'],
    pattern: re('https://(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/webhooks/\\d+/([A-Za-z0-9_-]{60,})'),
    group: 1,
  },
  {
    id: 'teams-webhook',
    source: 'https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook',
    keywords: ['webhook.office.com/'],
    pattern: re('https://[A-Za-z0-9-]+\\.webhook\\.office\\.com/(?:webhookb2|IncomingWebhook)/([A-Za-z0-9@/-]{40,})'),
    group: 1,
  },
  token('discord-bot-token', 'https://discord.com/developers/docs/reference#authentication', [], '[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}', {
    check: (v) => /\d/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v.slice(1)),
  }),
  {
    // Bot API tokens `<bot id>:AA…`; also inside API URLs (`https://api.telegram.org/bot<token>/getMe`).
    id: 'telegram-bot-token',
    source: 'https://core.telegram.org/bots/api#authorizing-your-bot',
    keywords: [':AA'],
    pattern: re(`(?:${L}|(?<=/bot))\\d{8,10}:AA[A-Za-z0-9_-]{33}${R}`),
  },
  token('twilio-api-key', 'https://www.twilio.com/docs/iam/api-keys', ['SK'], 'SK[0-9a-fA-F]{32}'),
  token('sendgrid-key', 'https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys', ['SG.'], 'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}'),
  token('mailgun-key', 'https://documentation.mailgun.com/docs/mailgun/user-manual/get-started/#primary-account-api-key', ['key-'], 'key-[0-9a-f]{32}'),
  // Newer Mailgun keys (32-8-8 hex) have no prefix: looked for only where the text says "mailgun".
  token('mailgun-signing-key', 'https://documentation.mailgun.com/docs/mailgun/user-manual/get-started/#primary-account-api-key', ['mailgun'], '[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}', { keywordsIgnoreCase: true, wholeText: true }),
  token('mailchimp-key', 'https://mailchimp.com/developer/marketing/guides/quick-start/#generate-your-api-key', ['-us'], '[0-9a-f]{32}-us\\d{1,2}'),
  token('brevo-key', 'https://developers.brevo.com/docs/getting-started', ['xkeysib-', 'xsmtpsib-'], 'x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}'),
  token('facebook-token', 'https://developers.facebook.com/docs/facebook-login/guides/access-tokens', ['EAA'], 'EAA[MCUG][A-Za-z0-9]{100,}'),

  // --- infrastructure, observability, SaaS ---
  // No keyword used to mean a scan of the whole text (~10% of a plain log's time for this rule and
  // asana-token): now the first three characters of every match are keywords, and each match
  // starts at one, so the regex is tried once per hit (`s.t` in `items.test` fails at once).
  token('hashicorp-vault-token', 'https://developer.hashicorp.com/vault/docs/concepts/tokens#token-prefixes', ['hvs.', 'hvb.', 'hvr.', ...threeCharacterKeywords('sbr', '.', ALNUM)], 'hv[sbr]\\.[A-Za-z0-9_-]{24,}|[sbr]\\.[A-Za-z0-9]{24,26}', {
    startsAtKeyword: true,
    check: (v) => v.startsWith('hv') || (/\d/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v)),
  }),
  token('terraform-cloud-token', 'https://developer.hashicorp.com/terraform/cloud-docs/users-teams-organizations/api-tokens', ['.atlasv1.'], '[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,70}'),
  token('tailscale-key', 'https://tailscale.com/kb/1085/auth-keys', ['tskey-'], 'tskey-(?:[a-z]+-)?[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}'),
  token('doppler-token', 'https://docs.doppler.com/docs/token-formats', ['dp.'], 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.(?:[a-z0-9_-]{1,40}\\.)?[A-Za-z0-9]{40,44}'),
  token('pulumi-token', 'https://www.pulumi.com/docs/pulumi-cloud/access-management/access-tokens/', ['pul-'], 'pul-[a-f0-9]{40}'),
  token('grafana-token', 'https://grafana.com/docs/grafana/latest/administration/service-accounts/ ; https://grafana.com/docs/grafana-cloud/account-management/authentication-and-permissions/access-policies/', ['glc_', 'glsa_', 'eyJrIjoi'], 'glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9+/]{50,}={0,2}'),
  {
    // Datadog API (32 hex) and application (40 hex) keys carry no prefix: only a labelled one counts.
    id: 'datadog-key',
    source: 'https://docs.datadoghq.com/account_management/api-app-keys/',
    keywords: ['dd_', 'dd-', 'datadog'],
    keywordsIgnoreCase: true,
    pattern: re(String.raw`(?:dd|datadog)[\w.-]*?(?:api|app|application)[\w.-]*?key\\?["']?[ \t]*[:=][ \t]*\\?["']?([a-f0-9]{32}(?:[a-f0-9]{8})?)(?![A-Za-z0-9])`, 'i'),
    group: 1,
  },
  token('newrelic-key', 'https://docs.newrelic.com/docs/apis/intro-apis/new-relic-api-keys/', ['NRAK-', 'NRJS-', 'NRII-', 'NRAA-', 'NRIQ-', 'NRAL'], 'NRAK-[A-Z0-9]{27}|NRJS-[a-f0-9]{19}|NRII-[A-Za-z0-9_-]{32}|NRAA-[a-f0-9]{27}|NRIQ-[A-Za-z0-9_-]{32}|[a-f0-9]{36}NRAL'),
  token('sentry-token', 'https://docs.sentry.io/account/auth-tokens/', ['sntrys_', 'sntryu_'], 'sntrys_eyJ[A-Za-z0-9+/=_-]{40,}|sntryu_[a-f0-9]{64}'),
  token('adafruit-io-key', 'https://io.adafruit.com/api/docs/#authentication (format per Nosey Parker np.adafruit.1)', ['aio_'], 'aio_[A-Za-z0-9]{28}'),
  token('dependency-track-key', 'https://docs.dependencytrack.org/integrations/rest-api/ (odt_ prefix per Nosey Parker np.dtrack.1)', ['odt_'], 'odt_[A-Za-z0-9]{32,}'),
  token('stackhawk-key', 'https://docs.stackhawk.com/apidocs.html (format per Nosey Parker np.stackhawk.1)', ['hawk.'], 'hawk\\.[A-Za-z0-9_-]{20}\\.[A-Za-z0-9_-]{20}'),
  token('crates-io-token', 'https://doc.rust-lang.org/cargo/reference/registry-authentication.html (cio prefix per Nosey Parker np.cratesio.1)', ['cio'], 'cio[A-Za-z0-9]{32}', { check: (v) => /\d/.test(v) && /[A-Z]/.test(v) }),
  token('sonarqube-token', 'https://docs.sonarsource.com/sonarqube-server/latest/user-guide/managing-tokens/ (squ_, sqp_, sqa_)', ['sqp_', 'squ_', 'sqa_'], 'sq[pua]_[a-f0-9]{40}'),
  {
    // SonarQube/SonarCloud tokens before the sq*_ prefixes: 40 hex-like characters after a sonar login/token label.
    id: 'sonar-login',
    source: 'https://docs.sonarsource.com/sonarqube-server/latest/analyzing-source-code/analysis-parameters/ (sonar.login, sonar.token)',
    keywords: ['sonar'],
    keywordsIgnoreCase: true,
    pattern: re(String.raw`sonar[\w.-]{0,20}?(?:login|token)\\?["']?[ \t]*[:=][ \t]*\\?["']?([A-Za-z0-9]{40})(?![A-Za-z0-9])`, 'i'),
    group: 1,
    check: (v) => /\d/.test(v) && /[A-Za-z]/.test(v),
  },
  {
    // Facebook app access tokens are `<app id>|<app secret>` (or a 27+ character client token).
    id: 'facebook-app-token',
    source: 'https://developers.facebook.com/docs/facebook-login/guides/access-tokens/#apptokens',
    keywords: ['facebook', 'access_token', 'fb_'],
    keywordsIgnoreCase: true,
    pattern: re(String.raw`(?<![\d])\d{15,16}(?:\||%7C)([A-Za-z0-9_-]{27,})`),
    wholeText: true,
    group: 1,
  },
  {
    // Bundler credentials for a gem server: BUNDLE_<HOST>=user:password (Sidekiq Pro/Enterprise
    // sources are the well-known case). The whole user:password pair is replaced.
    id: 'bundler-credentials',
    source: 'https://bundler.io/v2.5/man/bundle-config.1.html#CREDENTIALS-FOR-GEM-SOURCES',
    keywords: ['BUNDLE_'],
    pattern: re(String.raw`BUNDLE_[A-Z0-9_]{0,100}__[A-Z0-9_]{1,100}\\?["']?[ \t]*[:=][ \t]*\\?["']?([^\s:'"\\]+:[^\s'"\\]+)`),
    group: 1,
    check: (v) => !/\$/.test(v),
  },
  token('dynatrace-token', 'https://docs.dynatrace.com/docs/manage/identity-access-management/access-tokens-and-oauth-clients/access-tokens#token-format', ['dt0c01.'], 'dt0c01\\.[A-Z0-9]{24}\\.[A-Z0-9]{64}'),
  token('databricks-token', 'https://docs.databricks.com/aws/en/dev-tools/auth/pat', ['dapi', 'dose'], '(?:dapi|dose)[a-f0-9]{32}(?:-\\d)?'),
  token('linear-key', 'https://linear.app/developers/graphql#personal-api-keys', ['lin_'], 'lin_(?:api|oauth)_[A-Za-z0-9]{40,64}'),
  token('notion-token', 'https://developers.notion.com/docs/authorization', ['ntn_', 'secret_'], 'ntn_[A-Za-z0-9]{40,50}|secret_[A-Za-z0-9]{43}'),
  token('airtable-token', 'https://airtable.com/developers/web/guides/personal-access-tokens', ['pat'], 'pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}'),
  token('postman-key', 'https://learning.postman.com/docs/developer/postman-api/authentication/', ['PMAK-'], 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}'),
  token('figma-token', 'https://www.figma.com/developers/api#access-tokens', ['figd_'], 'figd_[A-Za-z0-9_-]{40,}'),
  token('dropbox-token', 'https://developers.dropbox.com/oauth-guide', ['sl.'], 'sl\\.[A-Za-z0-9_-]{130,}'),
  token('contentful-token', 'https://www.contentful.com/developers/docs/references/authentication/', ['CFPAT-'], 'CFPAT-[A-Za-z0-9_-]{43}'),
  token('asana-token', 'https://developers.asana.com/docs/personal-access-token', threeCharacterKeywords(DIGIT_CHARS, '/', DIGIT_CHARS), '\\d/\\d{10,20}(?:/\\d{10,20})?:[a-f0-9]{32}', { startsAtKeyword: true }),
  token('typeform-token', 'https://www.typeform.com/developers/get-started/personal-access-token/', ['tfp_'], 'tfp_[A-Za-z0-9_-]{44}_[A-Za-z0-9_-]{14}'),
  token('onepassword-token', 'https://developer.1password.com/docs/service-accounts/ ; https://support.1password.com/secret-key/', ['ops_eyJ', 'A3-'], 'ops_eyJ[A-Za-z0-9+/=_-]{100,}|A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}'),
  token('supabase-key', 'https://supabase.com/docs/guides/api/api-keys', ['sbp_', 'sb_secret_'], 'sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,}'),
  token('planetscale-token', 'https://planetscale.com/docs/concepts/service-tokens', ['pscale_'], 'pscale_(?:tkn|pw|oauth)_[A-Za-z0-9=._-]{32,64}'),
  token('netlify-token', 'https://docs.netlify.com/api/get-started/#authentication', ['nfp_'], 'nfp_[A-Za-z0-9]{36}'),
  token('render-key', 'https://render.com/docs/api#1-create-an-api-key', ['rnd_'], 'rnd_[A-Za-z0-9]{32}'),
  token('neon-key', 'https://neon.tech/docs/manage/api-keys', ['napi_'], 'napi_[a-z0-9]{64}'),
  token('prefect-key', 'https://docs.prefect.io/v3/manage/cloud/manage-users/api-keys', ['pnu_'], 'pnu_[A-Za-z0-9]{36}'),
  token('readme-key', 'https://docs.readme.com/main/reference/intro/authentication', ['rdme_'], 'rdme_[a-z0-9]{70}'),
  token('infracost-key', 'https://www.infracost.io/docs/integrations/infracost_api/', ['ico-'], 'ico-[A-Za-z0-9]{32}'),
  // Formats that have only gitleaks' MIT rule as a public description (the providers document the
  // prefix in their dashboards): the gitleaks rule is the source.
  token('authress-key', 'https://authress.io/knowledge-base/docs/authorization/service-clients (format per gitleaks authress-service-client-access-key)', ['.acc'], '(?:sc|ext|scauth|authress)_[a-z0-9]{5,30}\\.[a-z0-9]{4,6}\\.acc[_-][a-z0-9-]{10,32}\\.[a-z0-9+/_=-]{30,120}'),
  token('clojars-token', 'https://github.com/clojars/clojars-web/wiki/Deploy-Tokens', ['CLOJARS_'], 'CLOJARS_[a-z0-9]{60}'),
  token('defined-networking-key', 'https://docs.defined.net/guides/automatically-creating-hosts/ (format per gitleaks defined-networking-api-token)', ['dnkey-'], 'dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}'),
  token('duffel-token', 'https://duffel.com/docs/api/overview/making-requests/authentication', ['duffel_'], 'duffel_(?:test|live)_[A-Za-z0-9_=-]{43}'),
  token('flutterwave-key', 'https://developer.flutterwave.com/docs/api-keys', ['FLWSECK', 'FLWPUBK'], 'FLW(?:SECK|PUBK)(?:_TEST)?-[a-h0-9]{32}-X'),
  token('frameio-token', 'https://developer.frame.io/docs/getting-started/authentication (format per gitleaks frameio-api-token)', ['fio-u-'], 'fio-u-[A-Za-z0-9_=-]{64}'),
  token('intra42-secret', 'https://api.intra.42.fr/apidoc/guides/getting_started (format per gitleaks intra42-client-secret)', ['s-s4t2'], 's-s4t2(?:ud|af)-[a-f0-9]{64}'),
  token('maxmind-license-key', 'https://dev.maxmind.com/geoip/docs/web-services/requests/#authorization-and-security', ['_mmk'], '[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk'),
  token('openshift-token', 'https://docs.openshift.com/container-platform/latest/authentication/managing-oauth-access-tokens.html', ['sha256~'], 'sha256~[A-Za-z0-9_-]{43}'),
  token('plaid-token', 'https://plaid.com/docs/api/items/#token-exchange-flow', ['access-sandbox-', 'access-development-', 'access-production-'], 'access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'),
  token('scalingo-token', 'https://doc.scalingo.com/platform/user-management/api-tokens', ['tk-us-'], 'tk-us-[A-Za-z0-9_-]{48}'),
  token('settlemint-token', 'https://console.settlemint.com/documentation (format per gitleaks settlemint-*-token)', ['sm_pat_', 'sm_aat_', 'sm_sat_'], 'sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}'),
  token('yandex-token', 'https://yandex.cloud/en/docs/iam/concepts/authorization/api-key', ['AQVN', 't1.', 'YC'], 'AQVN[A-Za-z0-9_-]{35,38}|t1\\.[A-Za-z0-9_-]+={0,2}\\.[A-Za-z0-9_-]{86}={0,2}|YC[A-Za-z0-9_-]{38}', {
    check: (v) => /\d/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v.slice(2)),
  }),
  // GitHub secret scanning partner formats with a fixed prefix (the partner list:
  // https://docs.github.com/en/code-security/secret-scanning/introduction/supported-secret-scanning-patterns),
  // added with issue 27; where the provider publishes no grammar, the shape is gitleaks' MIT rule's.
  token('adobe-client-secret', 'https://developer.adobe.com/developer-console/docs/guides/authentication/ (format per gitleaks adobe-client-secret)', ['p8e-'], 'p8e-[A-Za-z0-9]{32}', {
    check: (v) => /\d/.test(v) && /[A-Za-z]/.test(v.slice(4)),
  }),
  token('adyen-api-key', 'https://docs.adyen.com/development-resources/api-credentials/ (format per gitleaks adyen-api-key)', ['AQE'], 'AQE[a-z0-9]{5,}\\.[A-Za-z0-9_=-]{50,80}'),
  // ClickHouse Cloud key secrets start with 4b1d; the body must hold a non-hex letter, so a 42-digit hex id is no key.
  token('clickhouse-cloud-key', 'https://clickhouse.com/docs/cloud/manage/openapi (format per gitleaks clickhouse-cloud-api-secret-key)', ['4b1d'], '4b1d[A-Za-z0-9]{38}', {
    check: (v) => /[g-zG-Z]/.test(v),
  }),
  // HubSpot private app tokens: `pat-` + data-centre (na1, eu1) + a UUID.
  token('hubspot-token', 'https://developers.hubspot.com/docs/guides/apps/private-apps/overview', ['pat-na1-', 'pat-eu1-'], 'pat-(?:na1|eu1)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}'),
  // Pinecone keys as the console issues them: `pcsk_`, a short key id, `_`, the secret.
  token('pinecone-key', 'https://docs.pinecone.io/guides/projects/manage-api-keys', ['pcsk_'], 'pcsk_[A-Za-z0-9]{4,10}_[A-Za-z0-9]{50,80}'),
  token('mapbox-token', 'https://docs.mapbox.com/accounts/guides/tokens/ (public tokens pk.; scanners flag them too)', ['pk.eyJ'], 'pk\\.eyJ[A-Za-z0-9_-]{20,}\\.[A-Za-z0-9_-]{20,}'),
  // A JWT written as base64 (`eyJ` encodes to `ZXlK`), as Kubernetes Secret data and some CI variables hold them.
  token('jwt-base64', 'https://www.rfc-editor.org/rfc/rfc7519#section-3 (base64 of a JWT, per gitleaks jwt-base64)', ['ZXlK'], 'ZXlK[A-Za-z0-9+/]{20,}(?:LmV5S|5leUt|uZXlK)[A-Za-z0-9+/]{20,}={0,2}'),
  token('mapbox-secret-token', 'https://docs.mapbox.com/accounts/guides/tokens/', ['sk.eyJ'], 'sk\\.eyJ[A-Za-z0-9_-]{20,}\\.[A-Za-z0-9_-]{20,}'),

  // --- structural: tokens, headers, URLs, assignments ---
  // RFC 7519 JWT (JWS compact form): base64url header `eyJ…` . payload . signature (empty when unsigned).
  token('jwt', 'https://www.rfc-editor.org/rfc/rfc7519#section-3', ['eyJ'], 'eyJ[A-Za-z0-9_-]{10,}={0,2}\\.[A-Za-z0-9_-]{10,}={0,2}\\.(?:[A-Za-z0-9_-]{10,}={0,2})?'),
  {
    // RFC 7617 (Basic) and RFC 6750 (Bearer) credentials in an Authorization header, as curl -H,
    // HTTP dumps and client configs print them. The scheme stays.
    id: 'authorization-header',
    generic: true,
    source: 'https://www.rfc-editor.org/rfc/rfc7617 ; https://www.rfc-editor.org/rfc/rfc6750#section-2.1',
    keywords: ['authorization'],
    keywordsIgnoreCase: true,
    pattern: re(String.raw`authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:basic|bearer|token|bot|digest|apikey)[ \t]+([A-Za-z0-9._~+/=-]{8,})`, 'i'),
    group: 1,
    check: (v) => (/\d|[+/=]/.test(v) || v.length >= 20) && !/^[a-z]+$/.test(v),
  },
  {
    // curl -u / --user / --proxy-user user:password (curl manual, "-u, --user").
    id: 'curl-user-password',
    generic: true,
    source: 'https://curl.se/docs/manpage.html#-u',
    keywords: ['curl'],
    pattern: re(String.raw`(?<![\w-])curl[ \t](?:[^\n]{0,300}?[ \t])?-(?:-(?:proxy-)?user(?:=|[ \t]+)|[A-Za-z]*[uU][ \t]*)\\?["']?[^\s:'"@\\]*:(?<secret>[^\s'"\\]+)`),
    check: (v) => !/^[$%]/.test(v) && !isPasswordWord(v),
  },
  {
    // Passwords given as command-line flags: wget --password/--http-password, docker/helm/psql-style
    // `--password X`, `--token X`, `--api-key X`.
    id: 'cli-password',
    generic: true,
    source: 'https://www.gnu.org/software/wget/manual/wget.html#Download-Options ; https://docs.docker.com/reference/cli/docker/login/',
    keywords: ['--'],
    pattern: re(String.raw`(?<![\w-])--(?:[a-z]+-)?(?:password|passwd|token|api-key|secret|client-secret)(?:=|[ \t]+)\\?["']?(?<secret>[^\s'"\\]{6,})`),
    check: (v) => !/^[$%-]/.test(v) && !/^(?:stdin|file|none|null|true|false)$/i.test(v) && (/\d|[^A-Za-z0-9]/.test(v) || v.length >= 12),
  },
  {
    // .netrc: `machine host login user password secret` (GNU inetutils manual, "The .netrc file").
    id: 'netrc-password',
    source: 'https://www.gnu.org/software/inetutils/manual/html_node/The-_002enetrc-file.html',
    keywords: ['machine'],
    pattern: re(String.raw`(?<![\w-])machine[ \t]+\S+(?:\s+login[ \t]+\S+)?\s+password[ \t]+(?<secret>\S+)`),
    wholeText: true,
    check: (v) => !/^[{$%<]/.test(v) && !isPasswordWord(v),
  },
  {
    // ADO.NET / ODBC / JDBC / libpq key=value connection strings: `Server=db;User Id=app;Password=…;`,
    // `jdbc:sqlserver://h;user=app;password=…`, `jdbc:mysql://h/db?user=app&password=…`,
    // `host=h user=app password=… dbname=d`. Only after a `;`, `?`, `&` or a libpq key, so a
    // lone `password=…` is left to the label rule and its stricter value check.
    id: 'connection-string-password',
    source: 'https://learn.microsoft.com/en-us/dotnet/framework/data/adonet/connection-string-syntax ; https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING-KEYWORD-VALUE ; https://dev.mysql.com/doc/connector-j/en/connector-j-reference-jdbc-url-format.html',
    keywords: ['password=', 'pwd=', 'password =', 'pwd ='],
    keywordsIgnoreCase: true,
    pattern: re(String.raw`(?:[;?&][ \t]*|(?:host|user|dbname|port|sslmode|server|uid|user id|username)=[^\s;&'"]{1,200}[ \t]+)(?:password|pwd)[ \t]*=[ \t]*(?:\{(?<secret2>[^}\n]{4,200})\}|(?<secret>[^\s;&'"\\{}]{4,200}))`, 'i'),
    check: (v) => !/^[$%{<]/.test(v) && !isPasswordWord(v),
  },
  {
    // Go's database/sql MySQL DSN: `user:password@tcp(host:3306)/db` (no scheme, so not url-password).
    id: 'dsn-password',
    source: 'https://github.com/go-sql-driver/mysql#dsn-data-source-name',
    keywords: ['@tcp(', '@unix('],
    pattern: re(String.raw`(?<![\w.-])[\w.-]{1,64}:(?<secret>[^\s:@/'"\\]{4,200})@(?:tcp|unix)\(`),
    check: (v) => !/^[$%{<]/.test(v) && !isPasswordWord(v),
  },
  {
    // MySQL/MariaDB clients take the password attached to -p (`mysql -uroot -pS3cret db`; `-p secret`
    // with a space would be a database name). sshpass and PsExec take it after `-p `.
    id: 'cli-attached-password',
    generic: true,
    source: 'https://dev.mysql.com/doc/refman/8.4/en/connecting.html#option_general_password ; https://linux.die.net/man/1/sshpass ; https://learn.microsoft.com/en-us/sysinternals/downloads/psexec',
    keywords: ['mysql', 'mariadb', 'sshpass', 'psexec'],
    keywordsIgnoreCase: true,
    // Case-sensitive: `-P3306` is a port. PsExec is written in any case on Windows.
    pattern: re(String.raw`(?:(?<![\w-])(?:mysql(?:dump|admin|import|show|check|pump|sh)?|mariadb(?:-dump|-admin)?)(?:[ \t]+(?:[^\s|;&>-]\S{0,200}|-[^p\s]\S{0,200}|--\S{1,200})){0,30}?[ \t]+-p\\?["']?(?<secret>[^\s'"\\|;&]{3,200})|(?<![\w-])(?:sshpass|[Pp][Ss][Ee][Xx][Ee][Cc](?:64)?(?:\.[Ee][Xx][Ee])?)(?![\w-])[^\n|;&]{0,200}?[ \t]-p[ \t]+\\?["']?(?<secret2>[^\s'"\\|;&]{3,200}))`),
    check: (v) => !/^[$%{<]/.test(v) && !isPasswordWord(v),
  },
  {
    // RFC 3986 §3.2.1: `scheme://user:password@host` (deprecated but everywhere: DB URLs, git remotes,
    // proxies). Only the password is replaced; `$VAR`, `${VAR}`, `{{var}}` and masks are left alone.
    id: 'url-password',
    source: 'https://www.rfc-editor.org/rfc/rfc3986#section-3.2.1',
    keywords: ['://'],
    pattern: re(
      // `://` first and the scheme checked behind it: the regex only starts work at a `://`.
      '://(?<=(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,40}://)[^\\s:@/?#\'"<>\\\\]*:' +
        '(?!\\$\\{?[A-Za-z_][A-Za-z0-9_]*\\}?@|\\{\\{|\\*+@|%s@|\\[REDACTED)' +
        '([^\\s@/?#\'"<>\\\\]+)@(?=[A-Za-z0-9[])',
    ),
    group: 1,
    // Three characters or fewer (`abc:xyz@`, `a:b@`) is an example, not a password.
    check: (v) => v.length > 3 && !isPasswordWord(v),
  },
  {
    // `NAME=value`, `NAME: value`, `"name": "value"`, `name := "value"` where the name ends with a
    // secret word (password, secret, token, api_key, ...) and the value looks generated (see
    // `looksSecret`). The approach of gitleaks' generic-api-key and cc-safety-net's `*KEY|TOKEN|
    // SECRET|PASSWORD*=value`, with their allow-lists' spirit (references, placeholders, words).
    // The match starts at the secret word (whatever precedes it in the name), so the regex only does
    // work where one of those words is: linear, and cheap on text full of other identifiers.
    id: 'secret-assignment',
    generic: true,
    source: 'https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml (generic-api-key)',
    keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'cred', 'auth', 'pat'],
    keywordsIgnoreCase: true,
    pattern: re(
      String.raw`${SECRET_WORD}${ASSIGN}${NOT_IN_AUTHORITY}[ \t]*(?:\\?["'\x60])?(?<secret>[^\s"'\x60\\,;<>(){}\[\]|&]{8,1000})(?![^\s"'\x60\\,;<>(){}\[\]|&])`,
      'i',
    ),
    startsAtKeyword: true,
    check: looksSecret,
  },
  {
    // `<service>_key` / `<service>Token` / `<service>-secret` with a generated-looking value: how most
    // SaaS keys without a prefix are written in configs (`clockify_key: "…"`, `censysSecret = "…"`).
    // The name is weaker than `api_key`, so the value must be longer (16+), mix letters and digits,
    // and not be a hash, a UUID or a reference; names that mean something else (`cache_key`,
    // `primary_key`, `sort_key`) never count. The regex starts at the key word and reads the name in a
    // lookbehind: started at every word's first letter it was the slowest rule on plain logs.
    id: 'service-key-assignment',
    generic: true,
    source: 'https://github.com/trufflesecurity/trufflehog/tree/main/pkg/detectors (keyword + key shape, the common SaaS detector)',
    keywords: ['key', 'token', 'secret'],
    keywordsIgnoreCase: true,
    pattern: re(
      String.raw`(?:key|token|secret)(?<=(?<![A-Za-z0-9_])(?!(?:cache|primary|foreign|sort|partition|idempotency|public|hash|object|storage|i18n|translation|lookup|unique|composite|shard|routing|message|dedup|etag|row|column|index|map|dict|react|group|item|node|entry|field|hot|short|ssh|gpg|pgp|host|ca|cert|sign)(?:[_.-]|(?=[KTS])))(?<name>[A-Za-z][A-Za-z0-9]{2,30})(?:[_.-]|(?<=[a-z0-9])(?=[KTS]))(?:key|token|secret))\\?["'\x60]?[ \t]*(?::{1,3}=|=>|[:=])[ \t]*(?:\\?["'\x60])?(?<secret>[A-Za-z0-9_.+/~=-]{16,200})(?![^\s"'\x60\\,;<>(){}\[\]|&])`,
      'i',
    ),
    startsAtKeyword: true,
    check: (v) =>
      /\d/.test(v) && /[A-Za-z]/.test(v) && !/^[a-f0-9]+$/i.test(v) && !/^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/i.test(v) && looksSecret(v) && entropy(v) >= 3.5,
  },
  {
    // The same names as XML elements: `<password>…</password>`, `<apiKey>…</apiKey>` (Maven
    // settings.xml, .NET configs, SOAP).
    id: 'secret-xml-element',
    generic: true,
    source: 'https://maven.apache.org/settings.html#servers',
    // Every match holds its closing tag: `</` is far rarer than the label words (8,400 hits per MB
    // of plain log, each costing a window), and the opening tag can sit 1,000 characters before
    // it, so the rule reads the whole text when one occurs.
    keywords: ['</'],
    wholeText: true,
    pattern: re(String.raw`<([\w.-]{0,40}?${SECRET_NAME})>(?<secret>[^<\s]{8,1000})</\1>`, 'i'),
    check: looksSecret,
  },
  {
    // A credential in a URL query: `?api_key=…`, `&access_token=…`, `?key=…`, `&client_secret=…`.
    // The value must look generated (letters and digits, 16 or more), so `?key=name` is left alone.
    id: 'url-query-secret',
    generic: true,
    source: 'https://www.rfc-editor.org/rfc/rfc6750#section-2.3 (access_token in the query) ; https://cloud.google.com/docs/authentication/api-keys-use#using-with-rest',
    keywords: ['key=', 'token=', 'secret=', 'password=', 'apikey=', 'signature='],
    keywordsIgnoreCase: true,
    pattern: re(String.raw`[?&](?:[a-z_]{0,20}[_-])?(?:api[_-]?key|apikey|key|token|access[_-]?token|auth[_-]?token|secret|client[_-]?secret|password|passwd|signature)=(?<secret>[A-Za-z0-9_.~%+/-]{16,512}={0,2})(?![A-Za-z0-9_.~%+/=-])`, 'i'),
    check: (v) => /\d/.test(v) && /[A-Za-z]/.test(v) && !isPlaceholder(v) && !/^[a-z]+(?:[._-][a-z]+)*$/i.test(v),
  },
];

// JSON/shell escapes and ANSI CSI sequences (raw ESC, or written as `\u001b`, `\x1b`, `\033`, `\e`),
// and every character outside Latin-1. ESCAPES is the definition (a test holds the fast path below
// to it); STARTS_SLASH and STARTS_ESC are its alternatives that begin with a backslash or an ESC.
export const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]|\\(?:u001[bB]|x1[bB]|033|e)\[[0-9;?]*[A-Za-z]|\\u[0-9a-fA-F]{4}|\\[nrtfbv0]/g;
const STARTS_SLASH = /\\(?:u001[bB]|x1[bB]|033|e)\[[0-9;?]*[A-Za-z]|\\u[0-9a-fA-F]{4}|\\[nrtfbv0]/y;
const STARTS_ESC = /\x1b\[[0-9;?]*[A-Za-z]/y;
const WIDE = /[^\x00-\xff]/g;

/**
 * The text the rules read: escapes and colour codes become as many backslashes (which end a token,
 * a URL password and a labelled value, as the escape did, but are not whitespace, so a label and a
 * value on two lines of JSON text stay apart), and characters outside Latin-1 become DEL (no token
 * contains one). Offsets stay the same, and the copy is a one-byte string, which V8 searches faster.
 * Built in a Latin-1 Buffer (one byte per UTF-16 unit, so offsets hold) with `indexOf` jumps to each
 * backslash and ESC: a `replace` with a callback cost more than a JSON.parse of the same text.
 */
export function blankEscapes(text: string): string {
  return blankEscapesBytes(text).text;
}

/**
 * `blankEscapes`, with the copy's Latin-1 bytes as well (the keyword pass reads them; writing the
 * Buffer once is cheaper than once here and once there).
 */
export function blankEscapesBytes(text: string): { text: string; bytes: Buffer } {
  const bytes = Buffer.from(text, 'latin1');
  let changed = false;
  if (/[^\x00-\xff]/.test(text)) {
    changed = true;
    WIDE.lastIndex = 0;
    for (let match = WIDE.exec(text); match !== null; match = WIDE.exec(text)) bytes[match.index] = 0x7f;
  }
  // The leftmost escape at or after each backslash or ESC, as a global scan of ESCAPES would find them.
  let slash = text.indexOf('\\');
  let esc = text.indexOf('\x1b');
  while (slash >= 0 || esc >= 0) {
    const atSlash = esc < 0 || (slash >= 0 && slash < esc);
    const at = atSlash ? slash : esc;
    const pattern = atSlash ? STARTS_SLASH : STARTS_ESC;
    pattern.lastIndex = at;
    let next = at + 1;
    if (pattern.test(text)) {
      bytes.fill(0x5c, at, pattern.lastIndex);
      changed = true;
      next = pattern.lastIndex;
    }
    if (slash >= 0 && slash < next) slash = text.indexOf('\\', next);
    if (esc >= 0 && esc < next) esc = text.indexOf('\x1b', next);
  }
  return { text: changed ? bytes.toString('latin1') : text, bytes };
}

export const SECRET_RULE_IDS = SECRET_RULES.map((rule) => rule.id) as [string, ...string[]];

/** True when the secret text a rule found should be left alone after all. */
export function rejectedByFilters(rule: SecretRule, secret: string): boolean {
  // The rule's own check first: for the label rules it rejects references (`process.env.API_KEY`)
  // cheaply, and it runs the placeholder filter itself when it gets that far.
  if (rule.check !== undefined && !rule.check(secret)) return true;
  return !rule.placeholdersToo && rule.check !== looksSecret && isPlaceholder(secret);
}
