// Options of the sandbox route, as written under `{ "builtin": "sandbox", "options": { … } }` and
// under command-safety's `sandbox` key.
import { z } from 'zod';

export const SANDBOX_KINDS = ['bwrap', 'unshare', 'docker'] as const;
export type SandboxKind = (typeof SANDBOX_KINDS)[number];

const absolute = z
  .string()
  .min(1)
  .refine((p) => p.startsWith('/') || p === '~' || p.startsWith('~/'), 'must be absolute or start with ~/')
  // A control character in a path cannot be passed through the setup script safely: refused here.
  .refine((p) => !/[\0-\x1f\x7f]/.test(p), 'must not hold control characters');

export const sandboxOptionsSchema = z
  .object({
    /** Sandboxes to try, in order; the first one present is used. Default: bwrap, unshare, then docker (when `docker.image` is set). */
    use: z.array(z.enum(SANDBOX_KINDS)).min(1).optional(),
    /** Let the command reach the network. Default false: a network namespace with nothing in it. */
    network: z.boolean().optional(),
    /** Folders writable besides the project (absolute or `~/…`); they must exist. */
    writable: z.array(absolute).max(16).optional(),
    /** `/tmp` inside the sandbox: a fresh empty one, thrown away after (`private`, the default), or the host's, read-only. */
    tmp: z.enum(['private', 'read-only']).optional(),
    /** The shell that runs a command given as a string; default `/bin/bash` when it exists, else `/bin/sh`. */
    shell: z.string().startsWith('/').optional(),
    /** Docker: the image to run in (required for docker to count as configured). */
    docker: z.object({ image: z.string().min(1).regex(/^[^\s-][^\s]*$/, 'an image name, not an option') }).strict().optional(),
  })
  .strict();

export type SandboxOptions = z.infer<typeof sandboxOptionsSchema>;
