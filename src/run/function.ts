// Runs one in-process hook (a builtin guard or an API handler) under the same timeout rules as a process.
import type { HandlerContext, HandlerFn, HookInput } from '../types.js';
import { wholeMs } from './duration.js';

export type FunctionEnd = { kind: 'returned'; value: unknown } | { kind: 'threw'; message: string } | { kind: 'timeout' };

/** Calls the handler on a private copy of the payload; a throw or a timeout is a value. */
export async function runFunction(
  handler: HandlerFn,
  input: HookInput,
  context: Omit<HandlerContext, 'signal'>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<FunctionEnd> {
  const controller = new AbortController();
  const cancel = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', cancel, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<FunctionEnd>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('timeout'));
      resolve({ kind: 'timeout' });
    }, wholeMs(timeoutMs));
  });
  const called = (async (): Promise<FunctionEnd> => {
    try {
      // A copy, so a handler that mutates its input cannot change what later hooks see.
      const value = await handler(privateCopy(input), { ...context, signal: controller.signal });
      return { kind: 'returned', value };
    } catch (error) {
      return { kind: 'threw', message: error instanceof Error ? error.message : String(error) };
    }
  })();
  try {
    return await Promise.race([called, timedOut]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }
}

/**
 * structuredClone recurses and throws on values nested a few thousand levels deep; the event came
 * from JSON, so such a value is copied with an explicit stack instead, and the guard still runs
 * (redact-secrets must see a deep tool_response rather than fail and let it through).
 */
function privateCopy(input: HookInput): HookInput {
  try {
    return structuredClone(input);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return jsonCopy(input) as HookInput;
  }
}

function jsonCopy(root: unknown): unknown {
  const copyOf = (node: unknown): unknown => (Array.isArray(node) ? new Array(node.length) : node !== null && typeof node === 'object' ? {} : node);
  const top = copyOf(root);
  const stack: [unknown, unknown][] = [[root, top]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    if (from === null || typeof from !== 'object') continue;
    for (const key of Object.keys(from)) {
      const child = (from as Record<string, unknown>)[key];
      const copy = copyOf(child);
      Object.defineProperty(to, key, { value: copy, writable: true, enumerable: true, configurable: true });
      if (copy !== child) stack.push([child, copy]);
    }
  }
  return top;
}
