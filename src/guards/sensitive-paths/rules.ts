// The path table of sensitive-paths: which files are secrets (read and write blocked) and which
// are only dangerous to write (shell profiles, agent-hooks' own config, agents' hook settings).
// Sources: the design's list (shared/reference/guard-anchors.md §1.3 and §3) and each tool's
// documented credential location; see docs/guards/sensitive-paths.md.

export const KINDS = [
  'ssh',
  'cloud-credentials',
  'keyring',
  'system-auth',
  'agent-credentials',
  'shell-profile',
  'history',
  'dotenv',
  'private-key',
  'certificate',
  'self-protection',
] as const;

export type Kind = (typeof KINDS)[number];

export interface PathRule {
  kind: Kind;
  /** `any` blocks reads and writes; `write` blocks writes (edits, patches, deletes, moves) only. */
  on: 'any' | 'write';
  /**
   * Reads are blocked unless this option is `allow` (the design blocks reading shell profiles and
   * `/etc/passwd`; they are world-readable, so a user may relax it).
   */
  readOption?: 'shellProfileReads' | 'systemFileReads';
  /**
   * Globs on the whole absolute path: a place, so the test/fixture exemption does not apply.
   * `~/` means every home directory; `**∕` means any folder.
   */
  places?: string[];
  /** Globs on the file name wherever it lives; exempt under node_modules and test/fixture folders. */
  names?: string[];
  /** File names that match but are safe (templates, public keys). */
  except?: string[];
  /** Concrete paths tried against a shell glob word such as `~/.ssh/id_*` or `*.pem`. */
  samples: string[];
}

const PROFILES = ['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout', '.kshrc', '.mkshrc', '.cshrc', '.tcshrc'];

export const RULES: readonly PathRule[] = [
  {
    kind: 'ssh',
    on: 'any',
    places: ['~/.ssh', '~/.ssh/**', '/etc/ssh/ssh_host_*_key', '/etc/ssh/ssh_host_*_key.*'],
    except: ['*.pub'],
    samples: ['~/.ssh/id_rsa', '~/.ssh/id_ed25519', '~/.ssh/config', '~/.ssh/authorized_keys', '~/.ssh/known_hosts', '~/.ssh/config.bak'],
  },
  {
    // Public halves are public, but appending to authorized_keys or planting a key is a backdoor.
    kind: 'ssh',
    on: 'write',
    places: ['~/.ssh/*.pub'],
    samples: [],
  },
  {
    kind: 'cloud-credentials',
    on: 'any',
    places: [
      // `.aws/` anywhere, as the design has it: a copied or mounted AWS folder is as secret as the original.
      '**/.aws',
      '**/.aws/**',
      '~/.config/gcloud',
      '~/.config/gcloud/**',
      '~/.gcp',
      '~/.gcp/**',
      '~/.azure',
      '~/.azure/**',
      '~/.kube/config',
      '~/.kube/config.*',
      '~/.kube/config.d/**',
      '**/.docker/config.json',
      '~/.config/doctl/config.yaml',
      '~/.oci/config',
      '~/.oci/*.pem',
      '~/.terraform.d/credentials.tfrc.json',
      '~/.config/hcloud/cli.toml',
      '~/.config/scw/config.yaml',
      '~/.config/heroku/**',
      '~/.s3cfg',
      '~/.passwd-s3fs',
      '~/.databrickscfg',
      '~/.snowflake/**',
      '~/.config/rclone/rclone.conf',
      '~/.fly/config.yml',
      '~/.vercel/**',
      '~/.config/vercel/**',
      '~/.netlify/**',
      '~/.config/netlify/**',
      '~/.wrangler/**',
      // Container and cluster secrets mounted into the machine.
      '/var/run/secrets/**',
      '/run/secrets/**',
    ],
    names: ['credentials', 'credentials.json', 'credentials.toml', 'credentials.yml', 'credentials.yaml', 'credentials.xml', 'credentials.db', 'credentials.csv', '*_credentials.csv', 'accesskeys.csv', '*_accesskeys.csv', '*-credentials.json', '*_credentials.json', 'service-account.json', '*service-account*.json', 'service_account.json', 'kubeconfig', 'kubeconfig.*', 'kubeconfig-*', '*.kubeconfig', '.boto', 'application_default_credentials.json', 'gha-creds-*.json', 'credentials.tfrc.json',
      // Google service-account and Firebase Admin SDK keys in the namings their consoles and tutorials use.
      'serviceAccount.json', 'serviceAccount*.json', 'service_account*.json', 'service-account*.json', '*-firebase-adminsdk-*.json', 'firebase-adminsdk*.json', '*-sa-key.json', 'sa-key.json', 'gcp-key.json', 'gcloud-key.json',
      // Terraform variable files carry the provider credentials and passwords a plan needs.
      'terraform.tfvars', 'terraform.tfvars.json', '*.auto.tfvars', '*.auto.tfvars.json', '*.tfstate', '*.tfstate.backup'],
    samples: ['~/.aws/credentials', '~/.aws/config', '~/.config/gcloud/application_default_credentials.json', '~/.azure/msal_token_cache.json', '~/.kube/config', '~/.docker/config.json', 'credentials.json', 'service-account.json', 'kubeconfig', '.boto'],
  },
  {
    kind: 'keyring',
    on: 'any',
    places: [
      '**/.gnupg',
      '**/.gnupg/**',
      '**/.password-store',
      '**/.password-store/**',
      '~/.local/share/keyrings',
      '~/.local/share/keyrings/**',
      '~/Library/Keychains/**',
      '~/.config/age/**',
      '~/.config/sops/age/**',
      // Vault bundles are folders: every file inside is the vault.
      '**/*.agilekeychain/**',
      '**/*.opvault/**',
    ],
    // Password-manager vaults and exports: KeePass, Password Safe, 1Password, Enpass, Bitwarden/LastPass exports.
    names: ['*.kdbx', '*.kdb', '*.keychain', '*.keychain-db', '*.agekey', 'keys.txt.age', '*.psafe3', '*.psafe', '*.agilekeychain', '*.opvault', '*.1pif', '*.1pux', '*.walletx', 'bitwarden_export*.json', 'lastpass_export*.csv', '*.kwallet'],
    samples: ['~/.gnupg/private-keys-v1.d/x.key', '~/.gnupg/secring.gpg', '~/.password-store/x.gpg', '~/.local/share/keyrings/login.keyring', 'vault.kdbx'],
  },
  {
    kind: 'system-auth',
    on: 'any',
    // `/proc/*/environ` holds every variable of a process, API keys included.
    places: ['/proc/*/environ', '/proc/*/task/*/environ', '/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/master.passwd', '/etc/sudoers', '/etc/sudoers.d', '/etc/sudoers.d/**', '/etc/security/opasswd', '/var/db/sudo/**'],
    samples: ['/etc/shadow', '/etc/gshadow', '/etc/sudoers'],
  },
  {
    // World-readable, but the design blocks reading them (account names help an attacker); relax with `systemFileReads`.
    kind: 'system-auth',
    on: 'any',
    readOption: 'systemFileReads',
    places: ['/etc/passwd', '/etc/passwd-', '/etc/group', '/etc/group-'],
    samples: ['/etc/passwd', '/etc/group'],
  },
  {
    kind: 'system-auth',
    on: 'write',
    // `/etc/hosts` and resolver files redirect every later connection (a registry or an API host to an attacker's address).
    places: ['/etc/pam.d', '/etc/pam.d/**', '/etc/security/**', '/etc/ld.so.preload', '/etc/hosts', '/etc/resolv.conf', '/etc/nsswitch.conf', '/private/etc/hosts'],
    samples: [],
  },
  {
    kind: 'agent-credentials',
    on: 'any',
    places: [
      '**/.claude/.credentials.json',
      '**/.claude/credentials',
      '**/.claude/credentials/**',
      // Auth stores of other agents and tools live in hidden folders: opencode, pi, composer, crush, ...
      '**/.*/auth.json',
      '**/.*/**/auth.json',
      '**/.codex/auth.json',
      '**/.codex/.credentials.json',
      // Dot-credential files in any tool's hidden folder (`~/.claude/.credentials.json`, `~/.codex/.credentials.json`).
      '**/.*/.credentials.json',
      '~/.config/gcloud/access_tokens.db',
      '~/.config/gcloud/credentials.db',
      '~/.docker/.token_seed',
      '~/.config/gh/config.yml',
      '~/.config/hub/**',
      '**/.gemini/oauth_creds.json',
      '**/.gemini/google_accounts.json',
      '**/.qwen/oauth_creds.json',
      '**/.minimax/oauth_creds.json',
      '**/.openclaw/credentials',
      '**/.openclaw/credentials/**',
      '**/.clawdbot/credentials',
      '**/.clawdbot/credentials/**',
      '**/whatsapp/**/creds.json',
      '**/gogcli/credentials.json',
      '~/.config/gh/hosts.yml',
      '~/.config/github-copilot',
      '~/.config/github-copilot/**',
      '~/.copilot/**/token*',
      '~/.local/share/opencode/auth.json',
      '~/.config/opencode/auth.json',
      '~/.local/share/crush/**',
      '~/.local/share/amp/secrets.json',
      '~/.pi/agent/auth.json',
      '~/.kimi/credentials/**',
      '~/.config/goose/secrets.yaml',
      '~/.cursor/mcp.json',
      '~/.npmrc',
      '~/.yarnrc.yml',
      '~/.config/yarn/**/.yarnrc*',
      '~/.pypirc',
      '~/.config/pip/pip.conf',
      '~/.pip/pip.conf',
      '~/.git-credentials',
      '~/.config/git/credentials',
      '~/.cargo/credentials',
      '~/.cargo/credentials.toml',
      '~/.gem/credentials',
      '~/.local/share/gem/credentials',
      '~/.m2/settings.xml',
      '~/.m2/settings-security.xml',
      '~/.gradle/gradle.properties',
      '~/.nuget/NuGet/NuGet.Config',
      '~/.composer/auth.json',
      '~/.config/composer/auth.json',
      '~/.config/hub',
      '~/.config/glab-cli/config.yml',
      '~/.my.cnf',
      '~/.config/op/**',
      '~/.op/**',
      '~/.config/bitwarden*/**',
      '~/.config/Bitwarden CLI/**',
    ],
    names: [
      '.npmrc',
      '.pypirc',
      '.netrc',
      '_netrc',
      '.git-credentials',
      '.vault-token',
      '.htpasswd',
      '.pgpass',
      'auth-profiles.json',
      'github-copilot.token.json',
      'oauth_creds.json',
      'creds.json',
      'secrets.json',
      'secrets.yml',
      'secrets.yaml',
      'secrets.toml',
      '*.secrets.json',
      'client_secret*.json',
      '.token',
      'master.key',
      'credentials.yml.enc',
      '.dockercfg',
      '.s3cfg',
    ],
    samples: ['~/.claude/.credentials.json', '~/.codex/auth.json', '~/.config/gh/hosts.yml', '~/.npmrc', '~/.pypirc', '~/.netrc', '~/.git-credentials', '.vault-token', '.htpasswd', '.pgpass', 'auth-profiles.json'],
  },
  {
    // Code every new shell runs, and the design blocks reading them too (profiles export API keys);
    // `shellProfileReads: "allow"` relaxes the reads.
    kind: 'shell-profile',
    on: 'any',
    readOption: 'shellProfileReads',
    places: ['**/.config/fish/config.fish', '**/.config/fish/conf.d/**', '/etc/profile', '/etc/profile.d/**', '/etc/bash.bashrc', '/etc/bashrc', '/etc/zshrc', '/etc/zshenv', '/etc/zsh/**', '/etc/environment'],
    names: PROFILES,
    samples: ['~/.bashrc', '~/.zshrc', '~/.profile', '~/.bash_profile'],
  },
  {
    kind: 'history',
    on: 'any',
    places: ['~/.bash_history', '~/.zsh_history', '~/.zhistory', '~/.histfile', '~/.local/share/fish/fish_history', '~/.python_history', '~/.psql_history', '~/.mysql_history', '~/.node_repl_history', '~/.rediscli_history', '~/.sqlite_history', '~/.lesshst'],
    samples: ['~/.bash_history', '~/.zsh_history'],
  },
  {
    kind: 'dotenv',
    on: 'any',
    names: ['.env', '.env.*', '*.env', '.flaskenv', '.dev.vars'],
    except: [
      '.env.example', '.env.*.example', '*.env.example', '.env.sample', '.env.*.sample', '*.env.sample', '.env.template', '.env.*.template', '*.env.template', '.env.tmpl', '.env.*.tmpl',
      '.env.dist', '.env.*.dist', '.env.defaults', '.env.*.defaults', '.env.default', '.env.schema', '.env.*.schema', '.env.example.*', '.env.sample.*', '.env.template.*',
      '.env.vault', '.env.keys.example', '.env.d.ts', '*.env.d.ts', 'example.env', 'sample.env', 'template.env', 'default.env', '.env.ts', '.env.js', '.env.mjs', '.env.cjs', '.env.json.example', '.dev.vars.example',
    ],
    samples: ['.env', '.env.local', '.env.production', 'prod.env'],
  },
  {
    // direnv's `.envrc` is a shell script the project commits and reviews (secrets go in `.env`, which
    // it loads): reading it is ordinary, but direnv runs it on every `cd`, so a write plants code.
    kind: 'dotenv',
    on: 'write',
    names: ['.envrc', '.envrc.local'],
    samples: [],
  },
  {
    kind: 'private-key',
    on: 'any',
    names: [
      'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_ecdsa_sk', 'id_ed25519_sk', 'id_xmss',
      'id_rsa[-_.]*', 'id_dsa[-_.]*', 'id_ecdsa[-_.]*', 'id_ed25519[-_.]*',
      '*_rsa', '*_dsa', '*_ecdsa', '*_ed25519', '*_rsa_key', '*_ed25519_key', '*_ecdsa_key',
      'deploy_key', 'deploy-key', 'deploy_key.*', 'deploy-key.*', '*_deploy_key', '*-deploy-key', '*.deploy_key', 'deploy_key_*', 'deploy-key-*',
      '*.key', '*.ppk', '*.p8', 'private_key*', 'private-key*', '*_private_key*', '*-private-key*', 'privkey*.pem', '*.ovpn', '*.gpg-key', '*.asc.key', '*.sec', '*.pkcs8', '*.keytab', '*secret*.asc', '*private*.asc', 'secring.*'
    ],
    except: ['*.pub', '*.pub.*', '*.key.pub', '*.ts', '*.js', '*.mjs', '*.cjs', '*.tsx', '*.jsx', '*.py', '*.go', '*.rs', '*.java', '*.kt', '*.rb', '*.md', '*.map', '*.d.ts', '*.html', '*.css'],
    samples: ['id_rsa', 'id_ed25519', 'server.key', 'id_rsa.bak', 'deploy_key'],
  },
  {
    kind: 'certificate',
    on: 'any',
    names: ['*.pem', '*.p12', '*.pfx', '*.keystore', '*.jks', '*.bks', '*.jceks', '*.pkcs12', '*.der.key', '*.p7m', '*.mobileprovision', '*.cer.key', '*.truststore'],
    samples: ['cert.pem', 'cert.p12', 'cert.pfx', 'app.keystore', 'app.jks'],
  },
];

/** Suffixes of copies that hold the same secret (`id_rsa.bak`, `~/.ssh/config.bak`, `credentials.json.orig`). */
export const BACKUP_SUFFIX = /(?:\.(?:bak|backup|old|orig|save|sav|swp|swo|tmp|copy|prev|previous|dist-old|\d+)|~|\.~\d+~)$/i;

// Segments and file names that mark code that is not the user's live configuration.
export const EXEMPT_SEGMENTS = new Set(['node_modules', 'test', 'tests', '__tests__', 'fixtures', '__fixtures__', 'testdata', 'fixture', '__mocks__', 'spec', '__snapshots__']);
// `app.test.pem` is a fixture; `.env.test.local` is a live env file, so dotfiles do not qualify.
export const EXEMPT_NAME = /^[^.].*\.(?:test|spec|fixture|mock|fake|dummy)\./;
