// Running code straight from the network: `curl … | sh`, `bash <(curl …)`, `sh -c "$(curl …)"`;
// an interpreter's code that downloads and evaluates (rule `fetch-and-exec`); a package installed
// or run from a URL, a VCS or a tarball (rule `package-from-url`).
import type { ShellWord, SimpleCommand } from '../../shell/types.js';
import type { Finding } from '../finding.js';
import { fetchAndExec, remotePackage } from '../remote-sources.js';
import { isFetcher, runsCode, runsStdin } from '../streams.js';

export function remoteCodeRule(cmd: SimpleCommand): Finding | undefined {
  if (runsStdin(cmd)) {
    const fetcher = cmd.pipedFrom.find(isFetcher);
    if (fetcher) {
      return {
        category: 'remote-code',
        what: `output of ${fetcher.argv[0]} piped into ${cmd.argv[0]}`,
        command: cmd,
        involved: [fetcher],
      };
    }
  }
  const codeWords: ShellWord[] = [...cmd.codeWords];
  if (runsCode(cmd)) {
    codeWords.push(...cmd.words.slice(1).filter((w) => w.processSubstitution));
    for (const r of cmd.redirects) if (r.word && r.op.startsWith('<')) codeWords.push(r.word);
    // `python3 -c "$(curl …)"`: the word after an inline-code option is code.
    cmd.words.forEach((w, i) => {
      if (i > 1 && /^-(c|e|E|r|-eval)$/.test(cmd.argv[i - 1] ?? '')) codeWords.push(w);
    });
  }
  for (const word of codeWords) {
    const fetcher = word.subCommands.find(isFetcher);
    if (fetcher) {
      return {
        category: 'remote-code',
        what: `${cmd.argv[0] ?? 'shell'} runs code downloaded by ${fetcher.argv[0]}`,
        command: cmd,
        involved: [fetcher],
      };
    }
  }
  const fetched = fetchAndExec(cmd);
  if (fetched) return { category: 'remote-code', rule: 'fetch-and-exec', what: fetched, command: cmd };
  const remote = remotePackage(cmd);
  if (remote) return { category: 'remote-code', rule: 'package-from-url', what: remote, command: cmd };
  return undefined;
}
