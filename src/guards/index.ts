// The registry of first-party guards. Each loads on first use, so `hooks run` pays only for the guards it uses.
import type { Guard } from '../types.js';

type GuardLoader = () => Promise<Guard<any>>;

const GUARDS: Record<string, GuardLoader> = {
  'command-safety': async () => (await import('./command-safety.js')).commandSafety,
  'audit-log': async () => (await import('./audit-log.js')).auditLog,
  'sensitive-paths': async () => (await import('./sensitive-paths.js')).sensitivePaths,
  'redact-secrets': async () => (await import('./redact-secrets.js')).redactSecrets,
  'secret-write': async () => (await import('./secret-write.js')).secretWrite,
  sandbox: async () => (await import('./sandbox.js')).sandbox,
  'output-budget': async () => (await import('./output-budget.js')).outputBudget,
  'schema-pin': async () => (await import('./schema-pin.js')).schemaPin,
};

export const GUARD_IDS: readonly string[] = Object.keys(GUARDS);

/** The guard with this id, or undefined if there is none. */
export async function loadGuard(id: string): Promise<Guard<any> | undefined> {
  const loader = Object.hasOwn(GUARDS, id) ? GUARDS[id] : undefined;
  return loader === undefined ? undefined : loader();
}
