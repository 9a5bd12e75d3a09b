/**
 * The one module that imports the OpenTelemetry JS SDK. It is bundled into a file of its own
 * (dist/bundle/vendor/otel.cjs.br, scripts/bundle.mjs) and loaded only when telemetry is configured
 * (src/telemetry/settings.ts): a run without it loads none of this. Import it with `await import()`.
 *
 * The exporters are built from otlp-exporter-base's HTTP delegate and otlp-transformer's serializers,
 * not from the exporter-*-otlp-* packages: those read OTEL_EXPORTER_OTLP_HEADERS (and the rest) from the
 * environment themselves, which would send what a project `.env` planted there; here only what
 * settings.ts accepted is used. It also keeps the file smaller.
 */
export { trace, ROOT_CONTEXT, SpanStatusCode, SpanKind, diag, DiagLogLevel } from '@opentelemetry/api';
export type { Span } from '@opentelemetry/api';
export { setGlobalErrorHandler, ExportResultCode } from '@opentelemetry/core';
export { resourceFromAttributes } from '@opentelemetry/resources';
export { TracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace';
export type { SpanExporter } from '@opentelemetry/sdk-trace';
export { MeterProvider, PeriodicExportingMetricReader, AggregationTemporality } from '@opentelemetry/sdk-metrics';
export type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
export { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
export { createOtlpHttpExportDelegate, httpAgentFactoryFromOptions } from '@opentelemetry/otlp-exporter-base/node-http';
export { ProtobufTraceSerializer, JsonTraceSerializer, ProtobufMetricsSerializer, JsonMetricsSerializer, TraceExporterMetricsHelper, MetricsExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
