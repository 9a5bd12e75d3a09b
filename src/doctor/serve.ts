// install --serve --http: Claude Code's http hooks send every event, with the token, to whatever listens
// on the port, and obey its answer; they cannot check who that is. doctor says so for every such install,
// and names the holder when the port is another user's.
import { euid } from '../fs/private.js';
import { describeHolder, portHolder } from '../serve/port-holder.js';
import type { Finding } from './finding.js';

export function checkHttpPorts(ports: readonly number[], at: string): Finding[] {
  const fix = 'npx agent-hooks install claude-code --user --serve (command hooks through agent-hooks-client, which checks the socket is yours)';
  const findings: Finding[] = [];
  const me = euid();
  for (const port of new Set(ports)) {
    const holder = portHolder(port);
    if (holder !== undefined && me !== undefined && holder.uid !== me) {
      findings.push({ level: 'error', where: at, message: `the http hooks send every event and your token to 127.0.0.1:${port}, which is ${describeHolder(holder)}: its answers are obeyed`, fix });
    } else {
      findings.push({ level: 'warning', where: at, message: `http hooks on 127.0.0.1:${port}: only safe on a machine where no other user can bind loopback ports (whoever listens there while your server does not receives every event and your token, and is obeyed)`, fix });
    }
  }
  return findings;
}
