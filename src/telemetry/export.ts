// The OpenTelemetry side: one tracer and meter per settings, fed by runRecord's plain values. Loaded only
// when telemetry is configured (src/telemetry/index.ts); the SDK itself comes from ./sdk.js.
import { VERSION } from '../version.js';
import type { RunRecord } from './record.js';
import type { TelemetrySettings } from './settings.js';

type Sdk = typeof import('./sdk.js');

export interface Exporter {
  record(run: RunRecord): void;
  /** Sends what is buffered; resolves `false` when `timeoutMs` passed first (what was buffered is dropped). */
  flush(timeoutMs: number): Promise<boolean>;
  /** Flushes within `timeoutMs` and stops. */
  shutdown(timeoutMs: number): Promise<boolean>;
}

export interface ExporterOptions {
  /**
   * `cli`: one event per process, flushed before it exits; metrics as deltas (each process counts from
   * zero: cumulative points from thousands of short processes would collide in a backend).
   * `serve`: one long-lived process; spans batched, metrics cumulative every `settings.metricIntervalMs`.
   */
  mode: 'cli' | 'serve';
  /** Where export errors go (an unreachable collector): a warning, once per kind of error. */
  warn: (line: string) => void;
}

export async function createExporter(settings: TelemetrySettings, options: ExporterOptions): Promise<Exporter> {
  const sdk: Sdk = await import('./sdk.js');
  const warned = new Set<string>();
  // The SDK reports export failures through its global handler (else through diag, which is silent).
  sdk.setGlobalErrorHandler((error) => {
    const message = oneLine(error instanceof Error ? error.message : String(error));
    if (warned.has(message)) return;
    warned.add(message);
    options.warn(`telemetry: export to the OTLP collector failed: ${message}`);
  });
  const resource = sdk.resourceFromAttributes({
    ...settings.resource,
    'service.name': settings.serviceName,
    'service.version': VERSION,
  });
  const json = settings.protocol === 'http/json';
  const delegate = <I, R>(url: string, serializer: import('@opentelemetry/otlp-transformer').ISerializer<I, R>, component: string, helper: import('@opentelemetry/otlp-transformer').IExporterMetricsHelper<I>) =>
    sdk.createOtlpHttpExportDelegate(
      {
        url,
        headers: async () => ({ ...settings.headers, 'Content-Type': json ? 'application/json' : 'application/x-protobuf' }),
        timeoutMillis: 10_000,
        concurrencyLimit: 30,
        compression: 'none',
        agentFactory: sdk.httpAgentFactoryFromOptions({ keepAlive: options.mode === 'serve' }),
        userAgent: `agent-hooks/${VERSION}`,
      },
      serializer,
      component,
      helper,
      undefined,
    );

  let tracer: import('@opentelemetry/api').Tracer | undefined;
  let tracerProvider: InstanceType<Sdk['TracerProvider']> | undefined;
  if (settings.traces !== undefined) {
    const exporter = new sdk.OTLPExporterBase(delegate(settings.traces, json ? sdk.JsonTraceSerializer : sdk.ProtobufTraceSerializer, 'otlp_http_span_exporter', sdk.TraceExporterMetricsHelper));
    tracerProvider = new sdk.TracerProvider({
      resource,
      spanProcessors: [new sdk.BatchSpanProcessor({ exporter, ...(options.mode === 'cli' ? { scheduledDelayMillis: 60_000 } : {}) })],
    });
    tracer = tracerProvider.getTracer('agent-hooks');
  }

  let meterProvider: InstanceType<Sdk['MeterProvider']> | undefined;
  let instruments: Instruments | undefined;
  if (settings.metrics !== undefined) {
    const base = new sdk.OTLPExporterBase(delegate(settings.metrics, json ? sdk.JsonMetricsSerializer : sdk.ProtobufMetricsSerializer, 'otlp_http_metric_exporter', sdk.MetricsExporterMetricsHelper));
    const temporality = options.mode === 'cli' ? sdk.AggregationTemporality.DELTA : sdk.AggregationTemporality.CUMULATIVE;
    const exporter: import('@opentelemetry/sdk-metrics').PushMetricExporter = {
      export: (metrics, done) => base.export(metrics, done),
      forceFlush: () => base.forceFlush(),
      shutdown: () => base.shutdown(),
      selectAggregationTemporality: () => temporality,
    };
    const interval = settings.metricIntervalMs;
    meterProvider = new sdk.MeterProvider({
      resource,
      readers: [new sdk.PeriodicExportingMetricReader({ exporter, exportIntervalMillis: options.mode === 'cli' ? 3_600_000 : interval, exportTimeoutMillis: Math.min(30_000, interval) })],
    });
    const meter = meterProvider.getMeter('agent-hooks', VERSION);
    instruments = {
      events: meter.createCounter('agent_hooks.events', { description: 'Events run, by event and decision', unit: '{event}' }),
      decisions: meter.createCounter('agent_hooks.hook.decisions', { description: 'Hook answers, by hook kind and decision', unit: '{decision}' }),
      duration: meter.createHistogram('agent_hooks.hook.duration', {
        description: 'How long each hook ran',
        unit: 's',
        advice: { explicitBucketBoundaries: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] },
      }),
      failures: meter.createCounter('agent_hooks.hook.failures', { description: 'Hook failures, by failure kind', unit: '{failure}' }),
    };
  }

  const flush = async (timeoutMs: number, stop: boolean): Promise<boolean> => {
    const work = Promise.all([
      stop ? tracerProvider?.shutdown() : tracerProvider?.forceFlush(),
      stop ? meterProvider?.shutdown() : meterProvider?.forceFlush(),
    ]).then(
      () => true,
      () => true,
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    record(run) {
      if (tracer !== undefined) {
        const parent = tracer.startSpan(run.event.name, { kind: sdk.SpanKind.INTERNAL, startTime: run.event.start, attributes: run.event.attributes });
        const context = sdk.trace.setSpan(sdk.ROOT_CONTEXT, parent);
        for (const hook of run.hooks) {
          const span = tracer.startSpan(hook.name, { kind: sdk.SpanKind.INTERNAL, startTime: hook.start, attributes: hook.attributes }, context);
          if (hook.error !== undefined) span.setStatus({ code: sdk.SpanStatusCode.ERROR, message: hook.error });
          span.end(hook.end);
        }
        if (run.event.error !== undefined) parent.setStatus({ code: sdk.SpanStatusCode.ERROR, message: run.event.error });
        parent.end(run.event.end);
      }
      if (instruments !== undefined) {
        const event = String(run.event.attributes['agent_hooks.event']);
        instruments.events.add(1, { 'agent_hooks.event': event, 'agent_hooks.decision': String(run.event.attributes['agent_hooks.decision']), 'agent_hooks.dialect': String(run.event.attributes['agent_hooks.dialect']) });
        for (const hook of run.hooks) {
          const a = hook.attributes;
          const id = String(a['agent_hooks.hook.id']);
          const kind = String(a['agent_hooks.hook.kind']);
          instruments.decisions.add(1, { 'agent_hooks.event': event, 'agent_hooks.hook.kind': kind, 'agent_hooks.hook.decision': String(a['agent_hooks.hook.decision']) });
          instruments.duration.record(Number(a['agent_hooks.hook.duration_ms']) / 1000, { 'agent_hooks.hook.id': id, 'agent_hooks.hook.kind': kind });
          if (a['error.type'] !== undefined) instruments.failures.add(1, { 'error.type': String(a['error.type']), 'agent_hooks.hook.id': id, 'agent_hooks.hook.kind': kind });
        }
      }
    },
    flush: (timeoutMs) => flush(timeoutMs, false),
    shutdown: (timeoutMs) => flush(timeoutMs, true),
  };
}

interface Instruments {
  events: import('@opentelemetry/api').Counter;
  decisions: import('@opentelemetry/api').Counter;
  duration: import('@opentelemetry/api').Histogram;
  failures: import('@opentelemetry/api').Counter;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
