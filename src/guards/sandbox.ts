// Guard `sandbox` (ai4j's routeTo): every exec call it matches is rewritten to run inside a sandbox
// (bubblewrap, unshare or docker: no network, the project writable, the rest read-only), and the
// model is told so. With no sandbox present the call is blocked: it never runs unsandboxed in silence.
import { firstAbsolute, sandboxProjectOf } from '../sandbox/project.js';
import type { SandboxOptions } from '../sandbox/options.js';
import type { Guard, HookInput, ReplyObject } from '../types.js';

export type { SandboxOptions } from '../sandbox/options.js';

export const sandbox: Guard<SandboxOptions> = {
  id: 'sandbox',
  summary: 'Runs matching shell commands inside a sandbox (bubblewrap, unshare or docker: no network, only the project writable); blocks when none is present',
  events: ['preToolUse'],
  match: ['exec'],
  options: async () => (await import('../sandbox/options.js')).sandboxOptionsSchema,
  create(options, guardContext) {
    const env = guardContext?.env ?? {};
    return async (input: HookInput): Promise<ReplyObject | undefined> => {
      const toolInput: unknown = input.tool_input;
      if (toolInput === undefined || toolInput === null) return undefined;
      if (typeof toolInput !== 'object' || Array.isArray(toolInput)) return blocked('tool_input is not an object');
      if (!Object.hasOwn(toolInput, 'command')) return undefined;
      const cwd = firstAbsolute(input.cwd);
      try {
        const { routeToSandbox } = await import('../sandbox/index.js');
        const routed = await routeToSandbox(toolInput as Record<string, unknown>, options ?? {}, { projectDir: sandboxProjectOf(guardContext), cwd, env });
        if (!routed.ok) return blocked(routed.reason);
        return { decision: 'modify', updatedInput: routed.updatedInput, additionalContext: routed.context, reason: `sandbox: runs in ${routed.kind}` };
      } catch (error) {
        return blocked(`the guard failed (${error instanceof Error ? error.message : String(error)})`);
      }
    };
  },
};

function blocked(why: string): ReplyObject {
  return { decision: 'block', reason: `sandbox: not run: this command must run in a sandbox, but ${why}` };
}
