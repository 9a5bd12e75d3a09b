// Issue 27 item 4: the secret classes other guards' suites found missing, and the false-positive
// classes (a project's own fixture, direnv's .envrc, a path only printed by interpreter code).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeToolCall } from '../../src/guards/sensitive-paths.js';

// One options object for every call: the guard builds its judge once per options object (compileJudge).
const NO_OPTIONS = {};

const HOME = '/home/dev';
const CWD = `${HOME}/project`;
const TOOLS = { Bash: 'exec', Read: 'read', Write: 'write', Edit: 'edit' } as const;
type Tool = keyof typeof TOOLS;

function verdict(tool: Tool, value: string): string {
  const toolInput = tool === 'Bash' ? { command: value } : tool === 'Write' ? { file_path: value, content: 'x' } : { file_path: value };
  const j = judgeToolCall({ hook_event_name: 'PreToolUse', cwd: CWD, tool_name: tool, tool_input: toolInput }, NO_OPTIONS, { tool: TOOLS[tool], home: HOME, env: { HOME }, realpath: false });
  return j.verdict === 'allow' ? 'allow' : `${j.verdict}:${'kind' in j ? j.kind : ''}`;
}

describe('sensitive-paths: issue 27 classes', () => {
  it.each([
    ['Read', 'serviceAccount.json', 'cloud-credentials'],
    ['Read', 'config/serviceAccountKey.json', 'cloud-credentials'],
    ['Read', 'my-app-firebase-adminsdk-x1y2z-0123456789.json', 'cloud-credentials'],
    ['Bash', 'cat firebase-adminsdk.json', 'cloud-credentials'],
    ['Read', 'infra/terraform.tfvars', 'cloud-credentials'],
    ['Read', 'infra/prod.auto.tfvars', 'cloud-credentials'],
    ['Bash', 'cat infra/terraform.tfstate', 'cloud-credentials'],
    ['Read', 'passwords.psafe3', 'keyring'],
    ['Read', 'vault.kdbx', 'keyring'],
    ['Read', 'backup.1pux', 'keyring'],
    ['Read', '1Password.agilekeychain/data/default/contents.js', 'keyring'],
    ['Read', 'android/app/release.jks', 'certificate'],
    ['Read', 'upload.keystore', 'certificate'],
    ['Read', 'cert.pfx', 'certificate'],
    ['Read', '~/.codex/.credentials.json', 'agent-credentials'],
    ['Bash', 'cat ~/.codex/auth.json', 'agent-credentials'],
    ['Read', '~/.claude/.credentials.json', 'agent-credentials'],
    ['Read', '~/.config/gh/hosts.yml', 'agent-credentials'],
    ['Read', '~/.config/gcloud/access_tokens.db', 'cloud-credentials'],
    ['Read', '~/.docker/config.json', 'cloud-credentials'],
    ['Read', '~/.npmrc', 'agent-credentials'],
    ['Write', '/etc/hosts', 'system-auth'],
    ['Bash', 'echo "10.0.0.1 registry.npmjs.org" | sudo tee -a /etc/hosts', 'system-auth'],
    ['Bash', 'echo "nameserver 10.0.0.1" > /etc/resolv.conf', 'system-auth'],
    ['Write', '.envrc', 'dotenv'],
  ] as const)('%s %j is blocked (%s)', (tool, value, kind) => {
    expect(verdict(tool, value)).toBe(`block:${kind}`);
  });

  it.each([
    ['Read', 'test/fixtures/credentials.json'],
    ['Read', 'tests/fixtures/gcp/serviceAccount.json'],
    ['Read', 'test/fixtures/terraform.tfvars'],
    ['Read', 'terraform.tfvars.example'],
    ['Read', 'variables.tf'],
    ['Read', '.envrc'],
    ['Bash', 'cat .envrc'],
    ['Read', '/etc/hosts'],
    ['Bash', 'cat /etc/hosts'],
    ['Bash', `node -e 'console.log(".env")'`],
    ['Bash', `python3 -c 'print(".env is ignored by git")'`],
    ['Bash', `ruby -e 'puts ".env"'`],
    ['Bash', `perl -e 'print ".env\\n"'`],
  ] as const)('%s %j passes', (tool, value) => {
    expect(verdict(tool, value)).toBe('allow');
  });

  // The documented stance: literals in interpreter code are paths unless the code cannot open anything.
  it.each([
    `node -e 'require("fs").readFileSync(".env")'`,
    `node -e 'console.log(require("fs").readFileSync(".env", "utf8"))'`,
    `python3 -c 'print(open(".env").read())'`,
    `python3 -c '__import__("builtins").print(".env")'`,
    `ruby -e 'puts File.read(".env")'`,
    `perl -e 'print \`cat .env\`'`,
    `perl -e 'do ".env"'`,
    `node -e 'console.log(globalThis.process.binding, ".env")'`,
  ])('%j is still judged as a read of .env', (command) => {
    expect(verdict('Bash', command)).toBe('block:dotenv');
  });

  it('exempts printing code only when it names no file, process, import or eval API (property)', () => {
    const api = fc.constantFrom('open', 'require', 'import', 'fs', 'exec', 'eval', 'File', 'IO', 'process', 'system', 'globalThis', 'constructor', 'load', 'Buffer', 'spawn', 'do', 'qx');
    const printer = fc.constantFrom('console.log', 'print', 'puts');
    fc.assert(
      fc.property(printer, api, fc.constantFrom('node', 'python3', 'ruby', 'perl'), (print, word, program) => {
        const flag = program === 'python3' ? '-c' : '-e';
        const command = `${program} ${flag} '${print}(${word}, ".env")'`;
        expect(verdict('Bash', command)).toBe('block:dotenv');
      }),
      { seed: 27, numRuns: 200, interruptAfterTimeLimit: 15_000 },
    );
  });
});

// Hostile review F4: the print-only exception is an allow-list of print calls with literal arguments.
describe('sensitive-paths: print-only interpreter exception (review)', () => {
  it.each([
    // `node -e` has every core module as a global: `vm` evaluates code from a string.
    `node -e 'console.log(vm.runInThisContext("require")("fs")["readFileSync"](".env","utf8"))'`,
    `node -e 'console.log(vm.runInThisContext("req"+"uire")("f"+"s")["readFileSync"](".env","utf8"))'`,
    `node -p 'vm.runInThisContext("require")("fs")["readFileSync"](".env","utf8")'`,
    `node -e 'console.log(L(".env"))'`,
    `python3 -c 'print(".env"); x = 1'`,
    `python3 -c 'print(f".env")'`,
  ])('%j is judged as a read of .env', (command) => {
    expect(verdict('Bash', command)).toBe('block:dotenv');
  });

  it.each([`node -e 'console.log(".env", "is " + "ignored"); console.error(".env")'`, `node -p '".env"'`, `python3 -c 'print(".env")\nprint("x")'`, `ruby -e 'puts ".env"; puts "x"'`, `perl -e 'print ".env" . "\\n"'`])(
    '%j only prints',
    (command) => {
      expect(verdict('Bash', command)).toBe('allow');
    },
  );
});

// An interpolation runs code inside a string: the literal scanner read `${require("fs").readFileSync(".env")}`
// as one template string and never saw ".env" (found after issue 27's merge; it predates it).
describe('sensitive-paths: reads inside interpolations', () => {
  it.each([
    "node -e 'console.log(`${require(\"fs\").readFileSync(\".env\")}`)'",
    "node -e 'const f = require(\"fs\"); console.log(`x${f.readFileSync(`.env`)}`)'",
    "node -p '`${require(\"fs\").readFileSync(`${\".e\"}nv`)}`'",
    "python3 -c \"print(f'{open(\\\".env\\\").read()}')\"",
    "python3 -c 'print(f\"{open(\".env\").read()}\")'",
    "ruby -e \"puts \\\"#{File.read('.env')}\\\"\"",
    "perl -e 'print \"@{[ `cat .env` ]}\"'",
  ])('%j is judged as a read of .env', (command) => {
    expect(verdict('Bash', command)).toBe('block:dotenv');
  });

  it.each(["node -e 'console.log(`${1 + 2} .env files`)'", "python3 -c 'print(f\"{len(\\\"abc\\\")}\")'", "node -e 'const o = { a: \"x\" }; console.log(o.a)'"])(
    '%j names no protected file and passes',
    (command) => {
      expect(verdict('Bash', command)).toBe('allow');
    },
  );

  it('a read of any protected file, wrapped in any language\'s interpolation, is never allowed (seeded)', () => {
    const files = ['.env', '.env.production', '~/.ssh/id_rsa', '~/.aws/credentials', 'serviceAccount.json'];
    const wrap: ((file: string) => string)[] = [
      (f) => `node -e 'console.log(\`\${require("fs").readFileSync("${f}", "utf8")}\`)'`,
      (f) => `node -e 'console.log(\`a\${require("fs").readFileSync(\`${f}\`)}b\`)'`,
      (f) => `python3 -c 'print(f"{open("${f}").read()}")'`,
      (f) => `python3 -c "print(f'{open(\\"${f}\\").read()}')"`,
      (f) => `ruby -e "puts \\"#{File.read('${f}')}\\""`,
    ];
    fc.assert(
      fc.property(fc.constantFrom(...files), fc.integer({ min: 0, max: wrap.length - 1 }), (file, i) => {
        expect(verdict('Bash', wrap[i]!(file))).toMatch(/^block:/);
      }),
      { seed: 2711, numRuns: 100, interruptAfterTimeLimit: 10_000 },
    );
  });
});

// Review (hostile): `interpolations` stops after 64 bodies, so 64 harmless brace pairs holding a quote
// ahead of the real `${…}` hide the read inside it: 63 pads block, 64 allow. Expected to FAIL until the
// cap fails closed (too many bodies: judge as unknown code / ask) or the bodies are scanned without a cap.
describe('review: interpolation cap exhaustion', () => {
  const real = 'console.log(`${require("fs").readFileSync(".env","utf8")}`)';
  it.each([63, 64, 200])('%i harmless {a:"x"} pads before the real read: still blocked', (n) => {
    expect(verdict('Bash', `node -e '${'const o={a:"x"};'.repeat(n)}${real}'`)).toBe('block:dotenv');
  });
});

// Review (hostile): `interpolations` pairs braces without reading strings, so a `}` inside a string or
// regex literal in the interpolation closes it early and the read after it is never judged as code
// (main allowed these too; the interpolation change was meant to close this class). Expected to FAIL
// until the body is cut by a scanner that skips the language's string/regex literals.
describe('review: a quoted } inside an interpolation ends it early', () => {
  it.each([
    `node -e 'console.log(\`\${["}", require("fs").readFileSync(".env", "utf8")]}\`)'`,
    `node -e 'console.log(\`\${"}" + require("fs").readFileSync(".env", "utf8")}\`)'`,
    `node -e 'console.log(\`\${/}/.source + require("fs").readFileSync(".env", "utf8")}\`)'`,
    `node -e 'console.log(\`\${\`\${"}"}\` + require("fs").readFileSync(".env")}\`)'`,
    `ruby -e 'puts "#{"}" + File.read(".env")}"'`,
  ])('%s is judged as a read of .env', (command) => {
    expect(verdict('Bash', command)).toBe('block:dotenv');
  });
});

describe('sensitive-paths: interpolations under hostile padding (seeded)', () => {
  it('whatever comes before it (braces, quoted braces, stray quotes), a read inside an interpolation is judged', () => {
    const pads = ['const o={a:"x"};', 'const p="}";', 'const q="{";', "const r='{';", 'if (1) { let s = "}" }', 'const t=/}/;', '`${"}"}`;'];
    const reads = [
      '`${require("fs").readFileSync(".env")}`',
      '`${"}" + require("fs").readFileSync(".env")}`',
      '`${[`}`, require("fs").readFileSync(".e" + "nv")]}`',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pads), { maxLength: 300 }), fc.constantFrom(...reads), (padding, read) => {
        expect(verdict('Bash', `node -e '${padding.join('')}console.log(${read})'`)).toMatch(/^block:/);
      }),
      { seed: 2712, numRuns: 60, interruptAfterTimeLimit: 15_000 },
    );
  });
});

it('code nested deeper than the guard walks is blocked, not passed, and judged quickly', () => {
  const deep = `${'{'.repeat(20_000)}"x"${'}'.repeat(20_000)}`;
  expect(verdict('Bash', `node -e '${deep}'`)).toMatch(/^block:self-protection/);
});
