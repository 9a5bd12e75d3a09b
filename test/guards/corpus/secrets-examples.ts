// Written examples for redact-secrets: per rule, fake tokens of the documented shape in the places
// they turn up (env dumps, JSON, YAML, logs, shell history), and a clean corpus that must come back
// byte for byte. Every token is generated at run time from a seeded generator, so the file holds no
// string a secret scanner (or GitHub push protection) would take for a real credential, and the
// bodies are not placeholders (no runs of one character, no sequences).

export function generator(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (alphabet: string, n: number): string => {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(next() * alphabet.length)];
    return out;
  };
  return { next, pick };
}

export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const DIGITS = '0123456789';
export const A62 = UPPER + LOWER + DIGITS;
export const HEX = '0123456789abcdef';
export const UPHEX = '0123456789ABCDEF';
export const B64 = A62 + '+/';
export const URLSAFE = A62 + '_-';

export interface SecretExample {
  rule: string;
  text: string;
  /** The secret itself: it must not survive redaction. */
  secret: string;
}

/** Joins parts at run time so the source never holds a whole token. */
const j = (...parts: string[]): string => parts.join('');

export function secretExamples(seed = 12): SecretExample[] {
  const g = generator(seed);
  const p = g.pick;
  const out: SecretExample[] = [];
  const add = (rule: string, secret: string, ...contexts: ((s: string) => string)[]) => {
    for (const context of contexts) out.push({ rule, secret, text: context(secret) });
  };
  const env = (name: string) => (s: string) => `${name}=${s}\n`;
  const json = (name: string) => (s: string) => `{"${name}": "${s}", "ok": true}`;
  const yaml = (name: string) => (s: string) => `config:\n  ${name}: ${s}\n`;
  const log = (s: string) => `2026-11-22T10:00:00Z INFO using credential ${s} for request`;
  const jsonEscaped = (s: string) => `{"type":"tool_result","content":"line one\\n${s}\\nline three"}`;
  const ansi = (s: string) => `src/config.ts:12:  \u001b[01;31m\u001b[K${s}\u001b[m\u001b[K`;
  const bare = (s: string) => s;
  const quoted = (s: string) => `const key = "${s}";`;

  const pem = (label: string) =>
    j('-----BEGIN ', label, ' PRIVATE KEY-----\n', p(B64, 64), '\n', p(B64, 64), '\n', p(B64, 20), '==\n-----END ', label, ' PRIVATE KEY-----');
  add('private-key', pem('RSA'), bare, (s) => `$ cat ~/.ssh/id_rsa\n${s}\n$ `);
  add('private-key', pem('OPENSSH'), bare);
  add('private-key', pem('EC'), (s) => JSON.stringify({ private_key: s }));
  add('private-key', j('-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n', p(B64, 64), '\n=', p(B64, 4), '\n-----END PGP PRIVATE KEY BLOCK-----'), bare);
  add('private-key', j('-----BEGIN ENCRYPTED PRIVATE KEY-----\n', p(B64, 64), '\n-----END ENCRYPTED PRIVATE KEY-----'), bare);
  add('putty-private-key', j(p(B64, 64), '\n', p(B64, 40)), (s) => `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 2\n${s}\nPrivate-MAC: ${p(HEX, 64)}`);
  add('age-secret-key', j('AGE-SECRET-KEY-1', p('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)), (s) => `# created: 2026-01-01\n# public key: age1${p(LOWER + DIGITS, 58)}\n${s}\n`);

  add('aws-access-key-id', j('AKIA', p(UPPER + DIGITS, 16)), env('AWS_ACCESS_KEY_ID'), jsonEscaped, ansi);
  add('aws-access-key-id', j('ASIA', p(UPPER + DIGITS, 16)), json('AccessKeyId'));
  add('aws-secret-access-key', p(B64, 40), (s) => `[default]\naws_secret_access_key = ${s}\n`, json('SecretAccessKey'), env('AWS_SECRET_ACCESS_KEY'));
  add('google-api-key', j('AIza', p(URLSAFE, 35)), json('apiKey'), log, ansi);
  add('google-oauth-client-secret', j('GOCSPX-', p(URLSAFE, 28)), json('client_secret'));
  add('google-oauth-token', j('ya29.', p(URLSAFE, 120)), (s) => `Authorization: Bearer ${s}`, json('access_token'));
  add('google-oauth-token', j('1//0', p(URLSAFE, 60)), json('refresh_token'));
  add('azure-connection-key', j(p(B64, 86), '=='), (s) => `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${s};EndpointSuffix=core.windows.net`);
  add('azure-connection-key', j(p(B64, 43), '='), (s) => `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${s}`);
  add('azure-sas-signature', j(p(A62 + '%', 43), '%3D'), (s) => `https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&se=2026-12-01&sr=b&sp=r&sig=${s}`);
  add('azure-ad-client-secret', j(p(A62, 3), '8Q~', p(A62 + '_~.', 34)), env('AZURE_CLIENT_SECRET'), log);
  add('digitalocean-token', j('dop_v1_', p(HEX, 64)), env('DIGITALOCEAN_TOKEN'), jsonEscaped);
  add('heroku-api-key', j('HRKU-AA', p(URLSAFE, 58)), env('HEROKU_API_KEY'));
  add('alibaba-access-key-id', j('LTAI', p(A62, 20)), json('AccessKeyId'));
  add('cloudflare-origin-ca-key', j('v1.0-', p(HEX, 24), '-', p(HEX, 146)), env('CF_ORIGIN_CA_KEY'));
  add('fly-token', j('fm2_', p(B64, 180)), (s) => `FLY_API_TOKEN="FlyV1 ${s}"`);
  add('firebase-fcm-server-key', j('AAAA', p(URLSAFE, 7), ':', p(URLSAFE, 140)), json('serverKey'));

  add('github-token', j('ghp_', p(A62, 36)), env('GITHUB_TOKEN'), jsonEscaped, ansi, (s) => `git clone https://x-access-token:${s}@github.com/o/r.git`);
  add('github-token', j('gho_', p(A62, 36)), json('oauth_token'));
  add('github-token', j('ghs_', p(A62, 36)), log);
  add('github-fine-grained-token', j('github_pat_', p(A62, 22), '_', p(A62, 59)), env('GH_TOKEN'), quoted);
  add('gitlab-token', j('glpat-', p(URLSAFE, 20)), env('GITLAB_TOKEN'), jsonEscaped);
  add('gitlab-token', j('glrt-', p(URLSAFE, 24)), yaml('token'));
  add('gitlab-token', j('GR1348941', p(URLSAFE, 20)), (s) => `gitlab-runner register --registration-token ${s}`);
  add('atlassian-token', j('ATATT3', p(URLSAFE, 180), '=', p(UPHEX, 8)), env('JIRA_API_TOKEN'));
  add('atlassian-token', j('ATBB', p(A62, 32)), json('app_password'));
  add('npm-token', j('npm_', p(A62, 36)), (s) => `//registry.npmjs.org/:_authToken=${s}`, env('NPM_TOKEN'));
  add('npmrc-auth', p(B64, 32), (s) => `//npm.pkg.example.com/:_authToken=${s}`);
  add('npmrc-auth', j(p(B64, 28), '=='), (s) => `_auth=${s}\nalways-auth=true`);
  add('pypi-token', j('pypi-AgEIcHlwaS5vcmc', p(URLSAFE, 70)), (s) => `[pypi]\n  username = __token__\n  password = ${s}\n`);
  add('rubygems-key', j('rubygems_', p(HEX, 48)), (s) => `---\n:rubygems_api_key: ${s}\n`);
  add('nuget-key', j('oy2', p(LOWER + DIGITS, 43)), (s) => `dotnet nuget push pkg.nupkg --api-key ${s} --source nuget.org`);
  add('docker-token', j('dckr_pat_', p(URLSAFE, 27)), (s) => `echo ${s} | docker login -u me --password-stdin`, env('DOCKERHUB_TOKEN'));
  add('jfrog-token', j('AKCp', p(A62, 69)), env('ARTIFACTORY_API_KEY'));
  add('buildkite-token', j('bkua_', p(HEX, 40)), env('BUILDKITE_API_TOKEN'));
  add('circleci-token', j('CCIPAT_', p(A62, 22), '_', p(HEX, 40)), env('CIRCLE_TOKEN'));
  add('sourcegraph-token', j('sgp_', p(HEX, 16), '_', p(HEX, 40)), env('SRC_ACCESS_TOKEN'));
  add('octopus-api-key', j('API-', p(UPPER + DIGITS, 26)), env('OCTOPUS_API_KEY'));
  add('harness-token', j('pat.', p(URLSAFE, 22), '.', p(HEX, 24), '.', p(A62, 20)), env('HARNESS_PLATFORM_API_KEY'));

  add('anthropic-key', j('sk-ant-api03-', p(URLSAFE, 93), 'AA'), env('ANTHROPIC_API_KEY'), jsonEscaped, ansi, (s) => `x-api-key: ${s}`);
  add('anthropic-key', j('sk-ant-admin01-', p(URLSAFE, 93), 'AA'), json('admin_key'));
  add('anthropic-key', j('sk-ant-oat01-', p(URLSAFE, 93), 'AA'), env('CLAUDE_CODE_OAUTH_TOKEN'));
  add('openai-key', j('sk-proj-', p(URLSAFE, 74), 'T3BlbkFJ', p(URLSAFE, 74)), env('OPENAI_API_KEY'), jsonEscaped);
  add('openai-key', j('sk-svcacct-', p(URLSAFE, 74), 'T3BlbkFJ', p(URLSAFE, 74)), json('api_key'));
  add('openai-key', j('sk-', p(A62, 20), 'T3BlbkFJ', p(A62, 20)), log);
  add('openrouter-key', j('sk-or-v1-', p(HEX, 64)), env('OPENROUTER_API_KEY'));
  add('huggingface-token', j('hf_', p(UPPER + LOWER, 34)), env('HF_TOKEN'), (s) => `huggingface-cli login --token ${s}`, ansi);
  add('huggingface-token', j('api_org_', p(UPPER + LOWER, 34)), json('token'));
  add('groq-key', j('gsk_', p(A62, 52)), env('GROQ_API_KEY'));
  add('xai-key', j('xai-', p(A62, 80)), env('XAI_API_KEY'));
  add('perplexity-key', j('pplx-', p(A62, 48)), env('PERPLEXITY_API_KEY'));
  add('replicate-token', j('r8_', p(A62, 37)), env('REPLICATE_API_TOKEN'));
  add('langsmith-key', j('lsv2_pt_', p(HEX, 32), '_', p(HEX, 10)), env('LANGSMITH_API_KEY'));
  add('generic-sk-key', j('sk-', p(HEX, 32)), (s) => `client = OpenAI(api_key="${s}", base_url="https://api.deepseek.com")`, log);
  add('generic-sk-key', j('pk-lf-', p(HEX, 8), p(A62, 20)), env('LANGFUSE_PUBLIC_KEY'));

  add('stripe-key', j('sk_live_', p(A62, 99)), env('STRIPE_SECRET_KEY'), jsonEscaped, quoted);
  add('stripe-key', j('rk_live_', p(A62, 99)), log);
  add('stripe-key', j('sk_test_', p(A62, 24)), (s) => `curl https://api.stripe.com/v1/charges -u ${s}:`);
  add('stripe-key', j('whsec_', p(A62, 32)), env('STRIPE_WEBHOOK_SECRET'));
  add('square-token', j('sq0atp-', p(URLSAFE, 22)), env('SQUARE_ACCESS_TOKEN'));
  add('square-token', j('EAAA', p(URLSAFE, 60)), json('accessToken'));
  add('shippo-token', j('shippo_live_', p(HEX, 40)), env('SHIPPO_TOKEN'));
  add('braintree-token', j('access_token$production$', p(LOWER + DIGITS, 16), '$', p(HEX, 32)), env('BT_ACCESS_TOKEN'));
  add('easypost-key', j('EZAK', p(LOWER + DIGITS, 54)), env('EASYPOST_API_KEY'));
  add('shopify-token', j('shpat_', p(HEX, 32)), env('SHOPIFY_ACCESS_TOKEN'), jsonEscaped);
  add('shopify-token', j('shpss_', p(HEX, 32)), json('shared_secret'));
  add('slack-token', j('xoxb-', p(DIGITS, 12), '-', p(DIGITS, 13), '-', p(A62, 24)), env('SLACK_BOT_TOKEN'), jsonEscaped, ansi);
  add('slack-token', j('xoxp-', p(DIGITS, 12), '-', p(DIGITS, 12), '-', p(DIGITS, 13), '-', p(HEX, 32)), json('token'));
  add('slack-token', j('xapp-1-', p(UPPER + DIGITS, 11), '-', p(DIGITS, 13), '-', p(HEX, 64)), env('SLACK_APP_TOKEN'));
  add('slack-webhook', j('T', p(UPPER + DIGITS, 8), '/B', p(UPPER + DIGITS, 8), '/', p(A62, 24)), (s) => `curl -X POST https://hooks.slack.com/services/${s} -d @payload.json`);
  add('discord-webhook', p(URLSAFE, 68), (s) => `DISCORD_WEBHOOK=https://discord.com/api/webhooks/${p(DIGITS, 18)}/${s}`);
  add('teams-webhook', j(p(HEX, 8), '-', p(HEX, 4), '-', p(HEX, 4), '-', p(HEX, 4), '-', p(HEX, 12), '@', p(HEX, 8), '/IncomingWebhook/', p(HEX, 32), '/', p(HEX, 8)), (s) => `url: https://contoso.webhook.office.com/webhookb2/${s}`);
  add('discord-bot-token', j('M', p(A62, 25), '.', p(URLSAFE, 6), '.', p(URLSAFE, 38)), env('DISCORD_BOT_TOKEN'));
  add('telegram-bot-token', j(p(DIGITS, 10), ':AA', p(URLSAFE, 33)), env('TELEGRAM_BOT_TOKEN'), (s) => `curl https://api.telegram.org/bot${s}/getMe`);
  add('twilio-api-key', j('SK', p(HEX, 32)), env('TWILIO_API_KEY'), log);
  add('sendgrid-key', j('SG.', p(URLSAFE, 22), '.', p(URLSAFE, 43)), env('SENDGRID_API_KEY'), jsonEscaped);
  add('mailgun-key', j('key-', p(HEX, 32)), env('MAILGUN_API_KEY'));
  add('mailgun-signing-key', j(p(HEX, 32), '-', p(HEX, 8), '-', p(HEX, 8)), json('mailgun_api_key'));
  add('mailchimp-key', j(p(HEX, 32), '-us', p(DIGITS, 2)), env('MAILCHIMP_API_KEY'));
  add('brevo-key', j('xkeysib-', p(HEX, 64), '-', p(A62, 16)), env('BREVO_API_KEY'));
  add('facebook-token', j('EAAC', p(A62, 160)), json('access_token'));

  add('hashicorp-vault-token', j('hvs.', p(URLSAFE, 90)), env('VAULT_TOKEN'), jsonEscaped);
  add('hashicorp-vault-token', j('hvb.', p(URLSAFE, 120)), json('client_token'));
  add('terraform-cloud-token', j(p(A62, 14), '.atlasv1.', p(URLSAFE, 67)), (s) => `credentials "app.terraform.io" {\n  token = "${s}"\n}`);
  add('tailscale-key', j('tskey-auth-k', p(A62, 10), 'CNTRL-', p(A62, 32)), env('TS_AUTHKEY'), jsonEscaped);
  add('tailscale-key', j('tskey-api-k', p(A62, 10), 'CNTRL-', p(A62, 32)), json('apiKey'));
  add('doppler-token', j('dp.st.prd.', p(A62, 40)), env('DOPPLER_TOKEN'));
  add('doppler-token', j('dp.pt.', p(A62, 43)), json('token'));
  add('pulumi-token', j('pul-', p(HEX, 40)), env('PULUMI_ACCESS_TOKEN'));
  add('grafana-token', j('glsa_', p(A62, 32), '_', p(HEX, 8)), env('GRAFANA_SERVICE_ACCOUNT_TOKEN'));
  add('grafana-token', j('glc_', p(B64, 120), '=='), env('GRAFANA_CLOUD_TOKEN'));
  add('grafana-token', j('eyJrIjoi', p(B64, 80), '='), json('apiKey'));
  add('datadog-key', p(HEX, 32), env('DD_API_KEY'), json('datadog_api_key'));
  add('datadog-key', p(HEX, 40), env('DD_APP_KEY'));
  add('newrelic-key', j('NRAK-', p(UPPER + DIGITS, 27)), env('NEW_RELIC_API_KEY'));
  add('newrelic-key', j(p(HEX, 36), 'NRAL'), env('NEW_RELIC_LICENSE_KEY'));
  add('sentry-token', j('sntrys_eyJpYXQiOjE3', p(B64, 80), '_', p(A62, 43)), env('SENTRY_AUTH_TOKEN'));
  add('sentry-token', j('sntryu_', p(HEX, 64)), json('token'));
  add('dynatrace-token', j('dt0c01.', p(UPPER + DIGITS, 24), '.', p(UPPER + DIGITS, 64)), env('DT_API_TOKEN'));
  add('databricks-token', j('dapi', p(HEX, 32)), env('DATABRICKS_TOKEN'), (s) => `[DEFAULT]\nhost = https://adb-1.azuredatabricks.net\ntoken = ${s}\n`);
  add('linear-key', j('lin_api_', p(A62, 40)), env('LINEAR_API_KEY'));
  add('notion-token', j('ntn_', p(DIGITS, 11), p(A62, 35)), env('NOTION_TOKEN'));
  add('notion-token', j('secret_', p(A62, 43)), json('auth'));
  add('airtable-token', j('pat', p(A62, 14), '.', p(HEX, 64)), env('AIRTABLE_API_KEY'));
  add('postman-key', j('PMAK-', p(HEX, 24), '-', p(HEX, 34)), env('POSTMAN_API_KEY'));
  add('figma-token', j('figd_', p(URLSAFE, 40)), env('FIGMA_TOKEN'));
  add('dropbox-token', j('sl.', p(URLSAFE, 140)), json('access_token'));
  add('contentful-token', j('CFPAT-', p(URLSAFE, 43)), env('CONTENTFUL_MANAGEMENT_TOKEN'));
  add('asana-token', j('2/', p(DIGITS, 16), '/', p(DIGITS, 16), ':', p(HEX, 32)), env('ASANA_PAT'));
  add('typeform-token', j('tfp_', p(URLSAFE, 44), '_', p(URLSAFE, 14)), env('TYPEFORM_TOKEN'));
  add('onepassword-token', j('ops_eyJzaWduSW5BZGRyZXNzIjoi', p(B64, 200)), env('OP_SERVICE_ACCOUNT_TOKEN'));
  add('supabase-key', j('sbp_', p(HEX, 40)), env('SUPABASE_ACCESS_TOKEN'));
  add('planetscale-token', j('pscale_tkn_', p(URLSAFE, 43)), env('PLANETSCALE_SERVICE_TOKEN'));
  add('netlify-token', j('nfp_', p(A62, 36)), env('NETLIFY_AUTH_TOKEN'));
  add('render-key', j('rnd_', p(A62, 32)), env('RENDER_API_KEY'));
  add('neon-key', j('napi_', p(LOWER + DIGITS, 64)), env('NEON_API_KEY'));
  add('prefect-key', j('pnu_', p(A62, 36)), env('PREFECT_API_KEY'));
  add('readme-key', j('rdme_', p(LOWER + DIGITS, 70)), env('README_API_KEY'));
  add('infracost-key', j('ico-', p(A62, 32)), env('INFRACOST_API_KEY'));
  add('authress-key', j('sc_', p(LOWER + DIGITS, 10), '.', p(LOWER + DIGITS, 5), '.acc_', p(LOWER + DIGITS, 20), '.', p(LOWER + DIGITS + '+/', 60)), env('AUTHRESS_KEY'));
  add('clojars-token', j('CLOJARS_', p(LOWER + DIGITS, 60)), env('CLOJARS_PASSWORD'));
  add('defined-networking-key', j('dnkey-', p(URLSAFE, 26), '-', p(URLSAFE, 52)), env('DN_API_KEY'));
  add('duffel-token', j('duffel_test_', p(URLSAFE, 43)), env('DUFFEL_ACCESS_TOKEN'));
  add('flutterwave-key', j('FLWSECK_TEST-', p('abcdefgh0123456789', 32), '-X'), env('FLW_SECRET_KEY'));
  add('frameio-token', j('fio-u-', p(URLSAFE, 64)), env('FRAMEIO_TOKEN'));
  add('intra42-secret', j('s-s4t2ud-', p(HEX, 64)), env('FT_CLIENT_SECRET'));
  add('maxmind-license-key', j(p(A62, 6), '_', p(A62, 29), '_mmk'), env('MAXMIND_LICENSE_KEY'));
  add('openshift-token', j('sha256~', p(URLSAFE, 43)), (s) => `oc login --token=${s} --server=https://api.cluster:6443`);
  add('plaid-token', j('access-sandbox-', p(HEX, 8), '-', p(HEX, 4), '-', p(HEX, 4), '-', p(HEX, 4), '-', p(HEX, 12)), json('access_token'));
  add('scalingo-token', j('tk-us-', p(URLSAFE, 48)), env('SCALINGO_API_TOKEN'));
  add('settlemint-token', j('sm_pat_', p(A62, 16)), env('SETTLEMINT_ACCESS_TOKEN'));
  add('yandex-token', j('AQVN', p(A62, 36)), env('YC_API_KEY'));
  add('mapbox-token', j('pk.eyJ1Ijoi', p(URLSAFE, 40), '.', p(URLSAFE, 22)), env('MAPBOX_ACCESS_TOKEN'));
  add('jwt-base64', Buffer.from(j('eyJhbGciOiJIUzI1NiJ9.eyJ', p(URLSAFE, 40), '.', p(URLSAFE, 43))).toString('base64'), yaml('token'), bare);
  add('mapbox-secret-token', j('sk.eyJ1Ijoi', p(URLSAFE, 40), '.', p(URLSAFE, 22)), env('MAPBOX_SECRET_TOKEN'));

  const jwt = () => j('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ', p(URLSAFE, 60), '.', p(URLSAFE, 43));
  add('jwt', jwt(), (s) => `Authorization: Bearer ${s}`, json('id_token'), jsonEscaped, ansi, log);
  add('jwt', j('eyJhbGciOiJub25lIn0.eyJ', p(URLSAFE, 40), '.'), json('token'));
  add('authorization-header', p(B64, 24), (s) => `curl -H "Authorization: Basic ${s}" https://api.example.com`);
  add('authorization-header', p(URLSAFE, 40), (s) => `> Authorization: Bearer ${s}\n> Accept: */*`, (s) => `headers: { authorization: 'token ${s}' }`);
  add('curl-user-password', j(p(A62, 10), '!', p(DIGITS, 3)), (s) => `curl -u admin:${s} https://ci.internal/api/json`, (s) => `curl -s --user deploy:${s} -X POST https://x.internal/`);
  add('cli-password', j(p(A62, 12), p(DIGITS, 2)), (s) => `wget --http-user=me --http-password=${s} https://files.internal/a.tgz`, (s) => `mysqladmin --user=root --password ${s} status`);
  add('netrc-password', j(p(A62, 14), p(DIGITS, 2)), (s) => `machine api.heroku.com\n  login me@example.com\n  password ${s}\n`);
  add('connection-string-password', j(p(A62, 12), p(DIGITS, 2)), (s) => `Server=db.internal;Database=app;User Id=app;Password=${s};Encrypt=true`, (s) => `jdbc:sqlserver://db:1433;databaseName=app;user=app;password=${s}`, (s) => `jdbc:mysql://db:3306/app?user=app&password=${s}&useSSL=true`, (s) => `psql "host=db.internal user=app password=${s} dbname=app"`, (s) => `Driver={ODBC Driver 18};Server=db;Uid=sa;Pwd={${s}};`);
  add('dsn-password', j(p(A62, 12), p(DIGITS, 2)), (s) => `MYSQL_DSN=app:${s}@tcp(db.internal:3306)/app?parseTime=true`);
  add('cli-attached-password', j(p(A62, 10), p(DIGITS, 2)), (s) => `mysql -h db.internal -uroot -p${s} app < dump.sql`, (s) => `mysqldump -u root -p'${s}' --all-databases > all.sql`, (s) => `sshpass -p ${s} ssh deploy@host uptime`, (s) => `PsExec.exe \\\\10.0.0.5 -u Administrator -p ${s} cmd`);
  add('url-query-secret', j(p(A62, 20), p(DIGITS, 4)), (s) => `GET https://api.example.com/v1/items?key=${s}&page=2`, (s) => `curl "https://api.example.net/data?format=json&signature=${s}"`, (s) => `base_url: "https://api.example.org/v1/user?key=${s}"`);
  add('aws-session-token', j('IQoJb3JpZ2luX2VjE', p(B64, 300), '='), json('SessionToken'), (s) => `session: ${s}`);
  add('aws-session-token', j('FwoGZXIvYXdzE', p(B64, 280)), env('AWS_SESSION_TOKEN'));
  add('session-token', j(p(B64, 200), p(DIGITS, 4)), (s) => `session: ${s}\n`, (s) => `[default]\naws_session_token = ${s}\n`, json('SessionToken'));
  add('service-key-assignment', j(p(A62, 24), p(DIGITS, 4)), yaml('clockify_key'), (s) => `censysKey = "${s}"`, json('weatherstack-key'));
  add('tavily-key', j('tvly-', p(A62, 32)), env('TAVILY_API_KEY'));
  add('jina-key', j('jina_', p(HEX, 32), p(A62, 30)), env('JINA_API_KEY'));
  add('adafruit-io-key', j('aio_', p(A62, 28)), (s) => `#define IO_KEY "${s}"`);
  add('dependency-track-key', j('odt_', p(A62, 32)), env('DTRACK_API_KEY'));
  add('stackhawk-key', j('hawk.', p(URLSAFE, 20), '.', p(URLSAFE, 20)), env('HAWK_API_KEY'));
  add('crates-io-token', j('cio', p(UPPER, 4), p(DIGITS, 4), p(A62, 24)), (s) => `[registry]\ntoken = "${s}"`, (s) => `Authorization: ${s}`);
  add('sonarqube-token', j('squ_', p(HEX, 40)), env('SONAR_TOKEN'));
  add('sonar-login', j(p(HEX, 36), p(DIGITS, 4)), (s) => `mvn sonar:sonar -Dsonar.host.url=https://sonarcloud.io -Dsonar.login=${s}`, (s) => `const SONAR_LOGIN = "${s}"`);
  add('facebook-app-token', j(p(A62, 25), p(DIGITS, 2)), (s) => `{"access_token":"${p(DIGITS, 15)}|${s}","token_type":"bearer"}`);
  add('bundler-credentials', j(p(HEX, 8), ':', p(HEX, 8)), (s) => `BUNDLE_ENTERPRISE__CONTRIBSYS__COM: ${s}`, (s) => `export BUNDLE_GEMS__EXAMPLE__COM="${s}"`);
  add('url-password', j(p(A62, 12), p(DIGITS, 2)), (s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/app`, (s) => `mongodb+srv://admin:${s}@cluster0.abcde.mongodb.net/test`, jsonEscapedUrl, (s) => `amqps://user:${s}@mq.example.net/vhost`, (s) => `ftp://anon:${s}@files.example.org/pub`);
  add('url-password', j(p(LOWER, 6), p(DIGITS, 2)), (s) => `git remote -v\norigin  https://me:${s}@git.example.com/r.git (fetch)`);
  add('secret-assignment', j(p(A62, 20), p(DIGITS, 4)), env('DB_PASSWORD'), json('client_secret'), yaml('password'), (s) => `export API_KEY="${s}"`, (s) => `const apiKey = '${s}';`, jsonEscapedAssignment, (s) => `$env:SERVICE_TOKEN = "${s}"`, (s) => `SECRET_KEY = '${s}'`);
  add('secret-assignment', j(p(LOWER, 6), '#', p(DIGITS, 3), p(UPPER, 3)), env('MYSQL_ROOT_PASSWORD'), json('password'));
  add('secret-assignment', p(HEX, 32), env('COHERE_API_KEY'), env('MISTRAL_API_KEY'), env('CLOUDFLARE_API_TOKEN'), json('twilio_auth_token'));
  add('secret-assignment', p(URLSAFE, 40), yaml('secret_key_base'), (s) => `aws_session_token = ${s}`, (s) => `"credentials": "${s}"`);
  // The places scanners' generic rules look: typed declarations, other assignment operators, XML.
  add('secret-assignment', j(p(A62, 28), p(DIGITS, 4)),
    (s) => `var algoliaToken string = "${s}"`,
    (s) => `algolia_api_token := "${s}"`,
    (s) => `String sonarToken = "${s}";`,
    (s) => `LAUNCHDARKLY_SDK_KEY ?= ${s}`,
    (s) => `settings.maxmind_license_key ||= '${s}'`,
    (s) => `let adminKey: &str = "${s}";`,
    (s) => `set GH_PAT=${s}`,
  );
  add('secret-assignment', p(LOWER, 32), env('ZENDESK_API_TOKEN'), json('clientSecret'));
  add('secret-xml-element', j(p(A62, 16), p(DIGITS, 3), '!'), (s) => `<server>\n  <id>nexus</id>\n  <password>${s}</password>\n</server>`, (s) => `<add key="x"/><apiKey>${s}</apiKey>`);
  add('adobe-client-secret', j('p8e-', p(A62, 30), p(DIGITS, 2)), env('ADOBE_CLIENT_SECRET'), json('client_secret'));
  add('adyen-api-key', j('AQE', p(LOWER + DIGITS, 7), '.', p(URLSAFE, 60)), env('ADYEN_API_KEY'));
  add('clickhouse-cloud-key', j('4b1d', p(A62, 38)), env('CLICKHOUSE_KEY_SECRET'), log);
  add('hubspot-token', j('pat-na1-', p(HEX, 8), '-', p(HEX, 4), '-', p(HEX, 4), '-', p(HEX, 4), '-', p(HEX, 12)), env('HUBSPOT_ACCESS_TOKEN'), jsonEscaped);
  add('pinecone-key', j('pcsk_', p(A62, 6), '_', p(A62, 63)), env('PINECONE_API_KEY'), quoted);
  add('azure-identifiable-key', j(p(A62, 52), 'JQQJ99', p(A62, 1), 'C', p(A62, 16), 'b', p(A62, 7)), env('AZURE_DEVOPS_EXT_PAT'), (s) => `git clone https://pat:${s}@dev.azure.com/org/repo`);
  add('azure-identifiable-key', j(p(B64, 76), 'ACDb', p(B64, 5), 'Q=='), env('COSMOS_KEY'), json('primaryMasterKey'));
  return out;
}

function jsonEscapedUrl(s: string): string {
  return `{"stdout":"connecting\\nredis://:${s}@cache:6379/0\\n"}`;
}
function jsonEscapedAssignment(s: string): string {
  return `{"content":"# settings\\nAPI_TOKEN=${s}\\nDEBUG=1\\n"}`;
}

/** Texts that look like secrets to a careless rule and must come back unchanged. */
export function cleanTexts(seed = 1012): string[] {
  const g = generator(seed);
  const p = g.pick;
  const out: string[] = [];
  const uuid = () => `${p(HEX, 8)}-${p(HEX, 4)}-4${p(HEX, 3)}-a${p(HEX, 3)}-${p(HEX, 12)}`;
  for (let i = 0; i < 12; i++) {
    out.push(`commit ${p(HEX, 40)}\nAuthor: Dev <dev@example.com>\n\n    fix parser`);
    out.push(`session ${uuid()} started; request-id: ${uuid()}`);
    out.push(`sha256:${p(HEX, 64)}`);
    out.push(`"integrity": "sha512-${p(B64, 86)}=="`);
    out.push(`data:image/png;base64,${p(B64, 200)}=`);
    out.push(`${p(HEX, 7)} ${['fix', 'feat', 'chore'][i % 3]}: update deps`);
    out.push(`go.sum: github.com/pkg/errors v0.9.1 h1:${p(B64, 43)}=`);
    out.push(`{"id": "${uuid()}", "etag": "W/\\"${p(HEX, 32)}\\"", "size": ${i * 1024}}`);
    out.push(`docker pull ghcr.io/org/app@sha256:${p(HEX, 64)}`);
    out.push(`https://example.com/download?file=${p(A62, 12)}&v=${i}`);
  }
  out.push(
    'const apiKey = process.env.OPENAI_API_KEY;',
    'token = os.environ["GITHUB_TOKEN"]',
    'password: string;',
    'def login(username: str, password: str) -> Token:',
    'if password == confirm_password:',
    'PASSWORD_MIN_LENGTH=8\nAPI_KEY_HEADER=x-api-key',
    'export GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}',
    'GITHUB_TOKEN: ${{ secrets.GH_PAT }}',
    'env:\n  NPM_TOKEN: ${NPM_TOKEN}',
    '//registry.npmjs.org/:_authToken=${NPM_TOKEN}',
    'password = getpass.getpass("Password: ")',
    'const token = await getAccessToken(client);',
    '"tokenizer": "cl100k_base", "max_tokens": 4096',
    'secret: true\ntoken: false',
    '"token_type": "Bearer", "expires_in": 3599',
    'api_key = settings.OPENAI_API_KEY',
    'apiKey: config.apiKey,',
    'aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'OPENAI_API_KEY=sk-...',
    'ANTHROPIC_API_KEY=<your-api-key>',
    'STRIPE_KEY=sk_test_XXXXXXXXXXXXXXXXXXXXXXXX',
    'SLACK_TOKEN=xoxb-your-token-here',
    'API_KEY=your_api_key_here',
    'password=changeme',
    'postgres://user:password@localhost:5432/db',
    'postgres://user:${DB_PASSWORD}@db:5432/app',
    'redis://localhost:6379/0',
    'https://github.com/org/repo/blob/main/src/index.ts#L10',
    'git@github.com:org/repo.git',
    'mail bob@example.com:8080',
    'ssh -i ~/.ssh/id_ed25519 deploy@host',
    'Authorization: Bearer $TOKEN',
    'curl -H "Authorization: Bearer ${API_TOKEN}" https://api.example.com',
    'curl -u "$USER:$PASS" https://ci.internal',
    'curl -fsSL https://get.example.com | sh',
    'docker login -u me --password-stdin < token.txt',
    'echo "use --password-file instead of --password"',
    'sort -u names.txt | uniq -c',
    '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----',
    "if (line === '-----BEGIN PRIVATE KEY-----') return parse(line);",
    'pip install scikit-learn sk-video',
    'task-sk-8f3a2b1c9d4e5f60718293a4b5c6d7e8f9a0b1c2 in tracker',
    'Tests: 12 passed, 0 failed (3.21s)',
    'npm WARN deprecated inflight@1.0.6: This module is not supported',
    'error TS2345: Argument of type "string" is not assignable to parameter of type "Token".',
    'at Object.<anonymous> (/app/node_modules/jsonwebtoken/verify.js:75:18)',
    'function verifyToken(token: string, secret: Buffer): Claims {',
    'const SECRET_NAME = "prod/db/password";',
    'kubectl create secret generic db --from-literal=password=$(pass show db)',
    'keyboard layout: us; keymap: default',
    'The password must be at least 12 characters long.',
    'hash: $2b$12$' + p(B64.replace(/\+/g, '.'), 53),
    'TOKEN_EXPIRY_SECONDS=3600',
    'session_token_ttl: 900',
    'access_key_id: !Ref AccessKey',
    '[REDACTED:github-token] already masked',
    'uuid_key = "' + uuid() + '"',
    'Downloading https://files.pythonhosted.org/packages/ab/cd/' + p(HEX, 60) + '/pkg-1.0.tar.gz',
    'x-amz-request-id: ' + p(UPPER + DIGITS, 16) + '\nx-amz-id-2: ' + p(B64, 76),
    'node_modules/.pnpm/@types+node@20.19.0/node_modules/@types/node/index.d.ts',
    'SKU: SK-2026-000123, order #' + p(DIGITS, 8),
    'LTAI is a prefix; see the docs',
    'eyJ is how base64 JSON starts',
    'version: v1.0-rc1-abcdef',
    'machine learning pipeline: password strength model v2',
    `cache_key = "${p(HEX, 40)}"`,
    `{"key": "${p(HEX, 32)}", "value": 1}`,
    `primary_key: ${p(HEX, 24)}`,
    `idempotency_key=${uuid()}`,
    '<password>${DB_PASSWORD}</password>',
    '<token></token>',
    'var accessToken string = os.Getenv("TOKEN")',
    'tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")',
    'const passwordHash = await bcrypt.hash(password, 12);',
    '"passwordPolicy": "requireUppercaseAndDigits"',
    'spatial_index_key: geohash',
    // Found by running the redactor over node_modules and /usr/lib/python3 (real code, not written for it).
    'ssl_context = _build_ssl_context(key_password=key_password, cert_file=cert_file)',
    'const pass = !this.result.issues || this.result.issues.length === 0;',
    'return { pass: matchResult?.pass ?? false, message };',
    "line = f'machine {host} login {self.username} password {self.password}'",
    'curl -u user:password https://example.com/api',
    "const myURL = new URL('https://abc:xyz@example.com');",
  );
  return out;
}
