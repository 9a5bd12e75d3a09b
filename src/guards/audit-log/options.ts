// Options of `audit-log`, checked by zod. Loaded only to check a config.
import { z } from 'zod';

export const auditLogOptions = z.strictObject({
  /** Where to append; `~` is the home folder, relative paths are relative to the project folder. */
  path: z.string().min(1).optional(),
  /** Longest reason or failure message kept per record; longer ones are cut and marked. */
  maxReasonLength: z.number().int().min(0).max(100_000).optional(),
});

export type AuditLogOptions = z.output<typeof auditLogOptions>;
