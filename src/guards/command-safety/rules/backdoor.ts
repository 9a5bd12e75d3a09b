// Listeners and reverse shells: a program wired to a network socket.
import type { SimpleCommand } from '../../shell/types.js';
import { isNetworkDevice } from '../paths.js';
import { isNetworkTool, runsStdin } from '../streams.js';

import type { Finding } from '../finding.js';

const NETCAT = /^(nc|ncat|netcat|nc\.traditional|nc\.openbsd|pwncat|cryptcat)$/;

export function backdoorRule(cmd: SimpleCommand): Finding | undefined {
  for (const r of cmd.redirects) {
    if (isNetworkDevice(r.target)) return finding(cmd, `redirection ${r.op} to ${r.target}`);
  }
  const [program] = cmd.argv;
  if (program === undefined) return undefined;
  if (NETCAT.test(program)) {
    const exec = cmd.argv.slice(1).find((a) => /^--(exec|sh-exec|lua-exec)(=|$)/.test(a) || /^-[a-zA-Z]*[ec]/.test(a));
    if (exec) return finding(cmd, `${program} ${exec} runs a program for the network peer`);
  }
  if (program === 'socat') {
    const exec = cmd.argv.slice(1).find((a) => /(^|[,!])\s*(exec|system):/i.test(a));
    if (exec) return finding(cmd, `socat connects ${exec} to the network`);
  }
  if (runsStdin(cmd)) {
    const peer = [...cmd.pipedFrom, ...cmd.pipedTo].find(isNetworkTool);
    if (peer) return { ...finding(cmd, `${cmd.argv[0]} wired to ${peer.argv[0]} (reverse shell)`), involved: [peer] };
  }
  return undefined;
}

function finding(cmd: SimpleCommand, what: string): Finding {
  return { category: 'backdoor', what, command: cmd };
}
