// OpenTelemetry export of what the runner decided: the one entry the CLI (`hooks run`) and `hooks serve`
// call, with the run's outcome, after the answer is made. Nothing here can change a decision: every
// failure is a warning. Load this module only when `telemetryWanted` (./settings.js) says so.
import os from 'node:os';
import { createExporter, type Exporter } from './export.js';
import { runRecord, type RunOutcome } from './record.js';
import { telemetrySettings, type TelemetryConfig, type TelemetrySettings } from './settings.js';

export type { RunOutcome } from './record.js';

/** How long `hooks run` waits for the collector before it exits anyway (the agent waits on the runner). */
export const CLI_FLUSH_MS = 1500;

export interface OutcomeContext {
  env: NodeJS.ProcessEnv;
  /** The `telemetry` key of the user and managed config (ResolvedConfig.telemetry). */
  config: TelemetryConfig | undefined;
  warn: (line: string) => void;
}

/** `hooks run`: exports one run and waits for it to be sent, at most `flushMs`. */
export async function exportOutcome(outcome: RunOutcome, context: OutcomeContext, flushMs = CLI_FLUSH_MS): Promise<void> {
  try {
    const settings = settingsFor(outcome, context);
    if (settings === undefined) return;
    const exporter = await createExporter(settings, { mode: 'cli', warn: context.warn });
    exporter.record(runRecord(outcome, { payloads: settings.payloads }));
    if (!(await exporter.shutdown(flushMs))) {
      // The exporter retries a refused connection with backoff: unreachable and silent look alike from here.
      context.warn(`telemetry: the OTLP collector (${settings.traces ?? settings.metrics}) did not take this event's spans and metrics within ${flushMs / 1000} s (unreachable or not answering); they were dropped`);
    }
  } catch (error) {
    context.warn(`telemetry: not exported: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `hooks serve`: one exporter (batching) per settings for the server's life, flushed by `close`. */
export interface TelemetryHub {
  record(outcome: RunOutcome, context: OutcomeContext): void;
  close(timeoutMs: number): Promise<void>;
}

export function createTelemetryHub(): TelemetryHub {
  const exporters = new Map<string, Promise<Exporter | undefined>>();
  return {
    record(outcome, context) {
      const settings = settingsFor(outcome, context);
      if (settings === undefined) return;
      const key = JSON.stringify(settings);
      let exporter = exporters.get(key);
      if (exporter === undefined) {
        exporter = createExporter(settings, { mode: 'serve', warn: context.warn }).catch((error: unknown) => {
          context.warn(`telemetry: not exported: ${error instanceof Error ? error.message : String(error)}`);
          return undefined;
        });
        exporters.set(key, exporter);
      }
      const record = runRecord(outcome, { payloads: settings.payloads });
      void exporter.then((e) => e?.record(record)).catch((error: unknown) => context.warn(`telemetry: not exported: ${error instanceof Error ? error.message : String(error)}`));
    },
    async close(timeoutMs) {
      await Promise.all([...exporters.values()].map(async (e) => (await e)?.shutdown(timeoutMs)));
      exporters.clear();
    },
  };
}

function settingsFor(outcome: RunOutcome, context: OutcomeContext): TelemetrySettings | undefined {
  const { settings, warnings } = telemetrySettings(context.env, context.config, { projectDir: outcome.projectDir, home: context.env.HOME || os.homedir() });
  for (const w of warnings) context.warn(w);
  return settings;
}
