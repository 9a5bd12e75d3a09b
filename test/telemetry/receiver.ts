// An OTLP/HTTP receiver on 127.0.0.1 for the tests. What arrives is decoded with OpenTelemetry's own
// definitions: the opentelemetry-proto .proto files (test/fixtures/otlp-proto, copied from
// open-telemetry/opentelemetry-proto v1.11) read by protobufjs, so the wire format is checked by
// reference code, not by ours.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import protobuf from 'protobufjs';
import { ROOT } from '../helpers.js';

const PROTO_DIR = path.join(ROOT, 'test', 'fixtures', 'otlp-proto');
let root: protobuf.Root | undefined;
function protos(): protobuf.Root {
  if (root !== undefined) return root;
  const r = new protobuf.Root();
  r.resolvePath = (_origin, target) => path.join(PROTO_DIR, target);
  r.loadSync(['opentelemetry/proto/collector/trace/v1/trace_service.proto', 'opentelemetry/proto/collector/metrics/v1/metrics_service.proto'], { keepCase: false });
  root = r;
  return r;
}

export interface Received {
  path: string;
  contentType: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** An attribute list (KeyValue[]) as a plain record. */
export function attrs(list: { key: string; value: Record<string, unknown> }[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) {
    const v = value.stringValue ?? value.boolValue ?? value.intValue ?? value.doubleValue;
    out[key] = typeof v === 'object' && v !== null ? String(v) : v;
  }
  return out;
}

export interface DecodedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  status?: { code?: number; message?: string };
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

export interface DecodedMetric {
  name: string;
  unit: string;
  /** Each data point: its attributes and its value (sum's asInt/asDouble, histogram's count and sum). */
  points: { attributes: Record<string, unknown>; value?: number; count?: number; sum?: number }[];
  temporality?: number;
}

/** A decoded protobuf message (protobufjs' toObject): checked field by field where used. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Decoded = Record<string, any>;

const hex = (b: unknown) => (b instanceof Uint8Array ? Buffer.from(b).toString('hex') : '');

export function decodeTraces(body: Buffer): DecodedSpan[] {
  const type = protos().lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
  const msg = type.toObject(type.decode(body), { longs: String, enums: Number, defaults: false }) as { resourceSpans?: { resource?: { attributes?: Decoded['attributes'] }; scopeSpans?: { spans?: Decoded[] }[] }[] };
  const spans: DecodedSpan[] = [];
  for (const rs of msg.resourceSpans ?? []) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        spans.push({
          name: s.name,
          traceId: hex(s.traceId),
          spanId: hex(s.spanId),
          parentSpanId: hex(s.parentSpanId),
          startTimeUnixNano: s.startTimeUnixNano,
          endTimeUnixNano: s.endTimeUnixNano,
          ...(s.status === undefined ? {} : { status: s.status }),
          attributes: attrs(s.attributes),
          resource: attrs(rs.resource?.attributes),
        });
      }
    }
  }
  return spans;
}

export function decodeMetrics(body: Buffer): DecodedMetric[] {
  const type = protos().lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest');
  const msg = type.toObject(type.decode(body), { longs: Number, enums: Number, defaults: false }) as { resourceMetrics?: { scopeMetrics?: { metrics?: Decoded[] }[] }[] };
  const metrics: DecodedMetric[] = [];
  for (const rm of msg.resourceMetrics ?? []) {
    for (const sm of rm.scopeMetrics ?? []) {
      for (const m of sm.metrics ?? []) {
        const data = (m.sum ?? m.histogram ?? m.gauge) as { dataPoints?: Decoded[]; aggregationTemporality?: number } | undefined;
        metrics.push({
          name: m.name,
          unit: m.unit,
          ...(data?.aggregationTemporality === undefined ? {} : { temporality: data.aggregationTemporality }),
          points: (data?.dataPoints ?? []).map((p) => ({
            attributes: attrs(p.attributes),
            ...(p.asInt !== undefined ? { value: Number(p.asInt) } : p.asDouble !== undefined ? { value: Number(p.asDouble) } : {}),
            ...(p.count !== undefined ? { count: Number(p.count), sum: Number(p.sum) } : {}),
          })),
        });
      }
    }
  }
  return metrics;
}

export interface Receiver {
  url: string;
  received: Received[];
  spans(): DecodedSpan[];
  metrics(): DecodedMetric[];
  close(): Promise<void>;
}

/** `answer: false`: takes each request and never answers (a collector that hangs). */
export async function startReceiver(options: { answer?: boolean } = {}): Promise<Receiver> {
  const received: Received[] = [];
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const contentType = String(req.headers['content-type'] ?? '');
      received.push({ path: req.url ?? '', contentType, headers: req.headers, body: Buffer.concat(chunks) });
      if (options.answer === false) {
        held.push(res);
        return;
      }
      // An empty Export*ServiceResponse: full success.
      if (contentType.includes('json')) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const only = (p: string) => received.filter((r) => r.path === p && !r.contentType.includes('json'));
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    spans: () => only('/v1/traces').flatMap((r) => decodeTraces(r.body)),
    metrics: () => only('/v1/metrics').flatMap((r) => decodeMetrics(r.body)),
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
