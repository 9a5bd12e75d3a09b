// Code fetched from the network and run without a look: interpreter one-liners that download and
// evaluate (`python3 -c "exec(urlopen(URL).read())"`, `node -e 'fetch(URL).then(r=>r.text()).then(eval)'`),
// and package installs straight from a URL, a VCS or a tarball (`pip install git+…`, `npx -y https://…`),
// which run the package's install scripts or the package itself. A registry package by name is
// not this: that is how tools are installed, and the registry is the trust anchor.
import { stdinBodies } from '../shell/code-runners.js';
import { isInterpreter } from '../shell/program.js';
import type { SimpleCommand } from '../shell/types.js';

/** Reads something from the network, in any of the usual interpreters. */
const FETCH = /\b(?:urlopen|urlretrieve|urllib\d?\.request|requests\.(?:get|post|request)|httpx\.|http\.client|aiohttp|fetch\s*\(|https?\.(?:get|request)\s*\(|axios|XMLHttpRequest|LWP::|HTTP::Tiny|IO::Socket|getstore\s*\(|getprint\s*\(|\bget\s*\(\s*["']https?:|Net::HTTP|open-uri|URI\.open|URI\.parse|open\s*\(\s*["']https?:|file_get_contents\s*\(\s*["']?(?:https?:|\$)|curl_exec|fsockopen|stream_get_contents|socket\.|Invoke-WebRequest|Invoke-RestMethod|\biwr\b|\birm\b|DownloadString|WebClient|import\s*\(\s*["']https?:|require\s*\(\s*["']https?:)/;
/** Runs a string as code: eval and its relatives in each language. */
const EXEC = /(?:\bexec\s*\(|\beval\b|\bcompile\s*\(|new\s+Function\b|\bFunction\s*\(|runInThisContext|runInNewContext|vm\.Script|\binstance_eval\b|\bclass_eval\b|(?<![.\w])load\s*\(|\bloadstring\b|\bdofile\b|Invoke-Expression|\biex\b|import\s*\(\s*["']https?:|require\s*\(\s*["']https?:|\bsystem\s*\(|os\.system|subprocess|child_process|popen|shell_exec|passthru)/i;

/** Where a command's interpreter code is: `-c`/`-e`/`--eval` words, `deno eval`, a heredoc or pipe into it. */
function interpreterCode(cmd: SimpleCommand): string[] {
  const [program = '', ...args] = cmd.argv;
  if (!isInterpreter(program)) return [];
  const codes: string[] = [];
  args.forEach((a, i) => {
    if (/^-[a-zA-Z]*[ceErp]$|^--(eval|print|command)$/.test(a) && args[i + 1] !== undefined) codes.push(args[i + 1]!);
    else if (/^--(eval|print)=/.test(a)) codes.push(a.slice(a.indexOf('=') + 1));
  });
  if ((program === 'deno' || program === 'bun') && args[0] === 'eval' && args[1] !== undefined) codes.push(args.slice(1).join(' '));
  const previous = cmd.pipedFrom.length > 0 ? [cmd.pipedFrom[cmd.pipedFrom.length - 1]!] : [];
  if (codes.length === 0) codes.push(...stdinBodies(cmd, previous));
  // `perl -MLWP::Simple -e …`, `ruby -ropen-uri -e …`: the library that fetches is loaded by an option.
  const loaded = args.filter((a) => /^-(M|r)\S/.test(a)).map((a) => a.slice(2)).join(' ');
  return codes.map((c) => `${loaded} ${c}`);
}

/** An interpreter whose code both fetches and evaluates: what it runs comes from the network. */
export function fetchAndExec(cmd: SimpleCommand): string | undefined {
  for (const code of interpreterCode(cmd)) {
    if (FETCH.test(code) && EXEC.test(code)) return `${cmd.argv[0]} code downloads and runs code`;
  }
  const [program, sub, ...rest] = cmd.argv;
  // `deno run https://…`, `deno install https://…`: a script by URL.
  if (program === 'deno' && /^(run|install|compile|test|bench)$/.test(sub ?? '')) {
    const url = rest.find((a) => !a.startsWith('-') && REMOTE.test(a));
    if (url) return `deno ${sub} runs ${url} from the network`;
  }
  return undefined;
}

/** A package spec that names a URL, a VCS or a direct reference (`name @ https://…`). */
const REMOTE = /^(?:[\w.[\],-]+\s*@\s*)?(?:git\+[a-z+]+:|git:\/\/|hg\+|svn\+|bzr\+|https?:\/\/|ftps?:\/\/|ssh:\/\/|github:|gist:|gitlab:|bitbucket:)/i;
/** npm's `user/repo` shorthand is a GitHub repository; `./x`, `@scope/x` and local tarballs are not. */
const NPM_GITHUB = /^[A-Za-z0-9][\w.-]*\/[\w.-]+(?:#\S*)?$/;
const LOCAL_TARBALL = /\.(tgz|tar|tar\.gz)$/;

function isRemote(spec: string, npm: boolean): boolean {
  if (REMOTE.test(spec)) return true;
  return npm && NPM_GITHUB.test(spec) && !LOCAL_TARBALL.test(spec);
}

/** The words after `index` that are not options (option values that are URLs count: `--from git+…`). */
function specs(argv: readonly string[], index: number, valueOptions: RegExp): string[] {
  const out: string[] = [];
  for (let i = index; i < argv.length; i += 1) {
    const a = argv[i]!;
    if (a === '--') continue;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq !== -1) {
      if (valueOptions.test(a.slice(0, eq))) out.push(a.slice(eq + 1));
      continue;
    }
    if (valueOptions.test(a)) {
      out.push(argv[i + 1] ?? '');
      i += 1;
      continue;
    }
    if (!a.startsWith('-')) out.push(a);
  }
  return out;
}

/** `pip install https://…`, `npm i git+…`, `npx -y https://…tgz`: a package from outside any registry. */
export function remotePackage(cmd: SimpleCommand): string | undefined {
  const argv = cmd.argv;
  let [program = ''] = argv;
  let at = 1;
  // `python3 -m pip install …`, `uv pip install …`.
  if (isInterpreter(program) && argv[1] === '-m' && argv[2] !== undefined) {
    program = argv[2];
    at = 3;
  }
  if (program === 'uv' && argv[at] === 'pip') {
    program = 'pip';
    at += 1;
  }
  const sub = argv[at] ?? '';
  const found = (specList: string[], npm: boolean): string | undefined => specList.find((s) => isRemote(s, npm));
  let spec: string | undefined;
  if (/^pip[\d.]*$/.test(program) && /^(install|download|wheel)$/.test(sub)) {
    spec = found(specs(argv, at + 1, /^(-r|--requirement|-c|--constraint|-e|--editable)$/), false);
  } else if (program === 'pipx' && /^(install|run|inject|upgrade)$/.test(sub)) {
    spec = found(specs(argv, at + 1, /^--spec$/), false);
  } else if (program === 'uv' && /^(add|run|tool)$/.test(sub)) {
    spec = found(specs(argv, at + 1, /^(--with|--from|--with-requirements|--with-editable)$/), false);
  } else if (program === 'uvx') {
    spec = found(specs(argv, at, /^(--from|--with)$/), false);
  } else if (/^(npm|pnpm|yarn|bun)$/.test(program) && /^(i|install|add|isntall|in|ins|inst|insta|instal|update|up|upgrade)$/.test(sub)) {
    spec = found(specs(argv, at + 1, /^(-p|--package)$/), true);
  } else if (/^(npx|pnpx|bunx)$/.test(program) || (/^(npm|pnpm|yarn|bun)$/.test(program) && /^(exec|x|dlx|create|init)$/.test(sub))) {
    // `npx [options] <package> [args]`: only the package (and `--package` values) are specs.
    const list = specs(argv, /^(npx|pnpx|bunx)$/.test(program) ? at : at + 1, /^(-p|--package)$/);
    spec = found(list.slice(0, argv.some((a) => /^(-p|--package)(=|$)/.test(a)) ? list.length : 1), true);
  } else if (program === 'gem' && /^(install|i|update)$/.test(sub)) {
    const source = specs(argv, at + 1, /^(-s|--source|--clear-sources)$/).find((s) => /^https?:/.test(s) && !/^https:\/\/rubygems\.org\/?$/.test(s));
    if (source) return `gem ${sub} from the source ${source}`;
  } else if (program === 'cargo' && sub === 'install') {
    spec = found(specs(argv, at + 1, /^(--git|--index|--registry)$/), false);
  } else if (program === 'go' && /^(install|run|get)$/.test(sub)) {
    spec = argv.slice(at + 1).find((a) => REMOTE.test(a));
  }
  const label = /^(npx|pnpx|bunx|uvx)$/.test(program) ? program : `${program} ${sub}`;
  return spec !== undefined ? `${label} of ${spec}, from outside any package registry` : undefined;
}
