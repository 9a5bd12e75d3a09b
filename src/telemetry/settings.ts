// When OpenTelemetry export is on, and where it goes: the standard OTEL_ variables, else the `telemetry`
// key of the user or managed config (src/config/resolve.ts keeps a project file's out). Read on every run,
// so it is plain code with no SDK: the SDK (src/telemetry/sdk.ts) is loaded only when this says yes.
import { projectEnvSource } from '../config/project-env.js';

/** The `telemetry` key of a user or managed config. */
export interface TelemetryConfig {
  otlp?: {
    /** Base URL: `/v1/traces` and `/v1/metrics` are appended, as with OTEL_EXPORTER_OTLP_ENDPOINT. */
    endpoint?: string;
    headers?: Record<string, string>;
    protocol?: 'http/protobuf' | 'http/json';
  };
  /** Adds the event's payload (redacted, cut) to the event span. Default false. */
  payloads?: boolean;
}

export interface TelemetrySettings {
  /** Full URLs; absent: that signal is not exported. */
  traces?: string;
  metrics?: string;
  headers: Record<string, string>;
  protocol: 'http/protobuf' | 'http/json';
  payloads: boolean;
  serviceName: string;
  resource: Record<string, string>;
  /** How often `hooks serve` exports its metrics (ms): OTEL_METRIC_EXPORT_INTERVAL, at least MIN_METRIC_INTERVAL_MS. */
  metricIntervalMs: number;
}

/** The OTel default. */
export const METRIC_INTERVAL_MS = 60_000;
/** A shorter interval would keep a server exporting (and a collector receiving) all the time. */
export const MIN_METRIC_INTERVAL_MS = 1_000;

/** The variables that choose where events go: a project `.env` must not set them (see projectEnvSource). */
export const DESTINATION_VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
] as const;

/**
 * The variables that switch export off, change its protocol or say whose events they are: from a project
 * `.env` they would let a repository stop the user's (or the managed config's) export without a word, file its
 * events under another service's name, or keep a server exporting every millisecond, so they are refused alike.
 */
export const SWITCH_VARIABLES = ['OTEL_SDK_DISABLED', 'OTEL_TRACES_EXPORTER', 'OTEL_METRICS_EXPORTER', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_SERVICE_NAME', 'OTEL_RESOURCE_ATTRIBUTES', 'OTEL_METRIC_EXPORT_INTERVAL'] as const;

/** Whether telemetry could be on: the cheap test every run makes before anything else is loaded. */
export function telemetryWanted(env: NodeJS.ProcessEnv, config: TelemetryConfig | undefined): boolean {
  // OTEL_SDK_DISABLED is not trusted here: a project .env may have set it (telemetrySettings tells which).
  return config?.otlp?.endpoint !== undefined || Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT);
}

/**
 * The settings, or none, with a line for each thing refused or not understood. A destination variable
 * whose value a project `.env` gives (Gemini CLI loads a workspace's `.env` into the environment its hooks
 * inherit) is ignored: a repository must not send the user's events, or their collector's token, elsewhere.
 */
export function telemetrySettings(
  env: NodeJS.ProcessEnv,
  config: TelemetryConfig | undefined,
  where: { projectDir: string; home: string | undefined },
): { settings?: TelemetrySettings; warnings: string[] } {
  const warnings: string[] = [];
  const fromEnv = (name: (typeof DESTINATION_VARIABLES)[number] | (typeof SWITCH_VARIABLES)[number]): string | undefined => {
    const value = env[name];
    if (value === undefined || value.trim() === '') return undefined;
    const planted = projectEnvSource(name, value, where.projectDir, where.home);
    if (planted === undefined) return value.trim();
    warnings.push(`telemetry: ${name} comes from ${planted}, a project .env file (Gemini CLI loads it into the hooks' environment); ignored: set it in your own environment or in your user config's telemetry key`);
    return undefined;
  };
  if (isTrue(fromEnv('OTEL_SDK_DISABLED'))) return { warnings };
  const base = fromEnv('OTEL_EXPORTER_OTLP_ENDPOINT') ?? config?.otlp?.endpoint;
  const signalUrl = (own: string | undefined, path: string): string | undefined => {
    const url = own ?? (base === undefined ? undefined : `${base.replace(/\/+$/, '')}${path}`);
    if (url === undefined) return undefined;
    if (!/^https?:\/\/[^/\s]/i.test(url)) {
      warnings.push(`telemetry: the OTLP endpoint ${JSON.stringify(url)} is not an http(s) URL; nothing is exported to it`);
      return undefined;
    }
    return url;
  };
  const protocolName = fromEnv('OTEL_EXPORTER_OTLP_PROTOCOL') || config?.otlp?.protocol || 'http/protobuf';
  if (protocolName !== 'http/protobuf' && protocolName !== 'http/json') {
    if (base !== undefined || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) {
      warnings.push(`telemetry: OTEL_EXPORTER_OTLP_PROTOCOL=${protocolName} is not supported (http/protobuf or http/json); nothing is exported`);
    }
    return { warnings };
  }
  const traces = fromEnv('OTEL_TRACES_EXPORTER') === 'none' ? undefined : signalUrl(fromEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'), '/v1/traces');
  const metrics = fromEnv('OTEL_METRICS_EXPORTER') === 'none' ? undefined : signalUrl(fromEnv('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'), '/v1/metrics');
  if (traces === undefined && metrics === undefined) return { warnings };
  const headerText = fromEnv('OTEL_EXPORTER_OTLP_HEADERS');
  const headers = { ...config?.otlp?.headers, ...(headerText === undefined ? {} : parseList(headerText, 'OTEL_EXPORTER_OTLP_HEADERS', warnings)) };
  const resource = parseList(fromEnv('OTEL_RESOURCE_ATTRIBUTES') ?? '', 'OTEL_RESOURCE_ATTRIBUTES', warnings);
  const serviceName = fromEnv('OTEL_SERVICE_NAME') || resource['service.name'] || 'agent-hooks';
  const metricIntervalMs = metricInterval(fromEnv('OTEL_METRIC_EXPORT_INTERVAL'), warnings);
  return {
    settings: { ...(traces === undefined ? {} : { traces }), ...(metrics === undefined ? {} : { metrics }), headers, protocol: protocolName, payloads: config?.payloads === true, serviceName, resource, metricIntervalMs },
    warnings,
  };
}

function metricInterval(text: string | undefined, warnings: string[]): number {
  if (text === undefined) return METRIC_INTERVAL_MS;
  const ms = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(ms)) {
    warnings.push(`telemetry: OTEL_METRIC_EXPORT_INTERVAL=${JSON.stringify(text.slice(0, 40))} is not a whole number of milliseconds; ${METRIC_INTERVAL_MS} is used`);
    return METRIC_INTERVAL_MS;
  }
  if (ms < MIN_METRIC_INTERVAL_MS) {
    warnings.push(`telemetry: OTEL_METRIC_EXPORT_INTERVAL=${ms} is below ${MIN_METRIC_INTERVAL_MS} ms; ${MIN_METRIC_INTERVAL_MS} is used`);
    return MIN_METRIC_INTERVAL_MS;
  }
  return ms;
}

/** `key=value,key2=value2`, values percent-encoded (the OTel spec's format for headers and resource attributes). */
export function parseList(text: string, name: string, warnings: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? '' : part.slice(0, eq).trim();
    if (key === '') {
      // Never the entry itself: a header's value is a credential.
      warnings.push(`telemetry: ${name} has an entry that is not key=value; it is left out`);
      continue;
    }
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // Not percent-encoded after all: taken as written.
    }
    out[key] = value;
  }
  return out;
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && value.trim().toLowerCase() === 'true';
}
