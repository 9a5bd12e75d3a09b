import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseList, telemetrySettings, telemetryWanted } from '../../src/telemetry/settings.js';
import { tmpProject } from '../helpers.js';

const where = { projectDir: '/nonexistent/project', home: '/nonexistent' };

describe('telemetrySettings', () => {
  it('is off without an endpoint, and with OTEL_SDK_DISABLED=true', () => {
    expect(telemetryWanted({}, undefined)).toBe(false);
    expect(telemetrySettings({}, undefined, where).settings).toBeUndefined();
    // The cheap test cannot tell who set the switch (a project .env may have): telemetrySettings decides.
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'TRUE' }, undefined)).toBe(true);
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }, undefined, where).settings).toBeUndefined();
  });

  it('appends the signal paths to the base endpoint; a signal endpoint is used as it is', () => {
    const { settings } = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://m.example/custom' }, undefined, where);
    expect(settings).toMatchObject({ traces: 'http://c:4318/v1/traces', metrics: 'https://m.example/custom', protocol: 'http/protobuf', serviceName: 'agent-hooks', payloads: false });
  });

  it('takes the variables before the config key, and the config key alone', () => {
    const config = { otlp: { endpoint: 'http://from-config:4318', headers: { a: '1', b: '2' }, protocol: 'http/json' as const }, payloads: true };
    expect(telemetrySettings({}, config, where).settings).toMatchObject({ traces: 'http://from-config:4318/v1/traces', headers: { a: '1', b: '2' }, protocol: 'http/json', payloads: true });
    const both = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318', OTEL_EXPORTER_OTLP_HEADERS: 'b=3', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }, config, where).settings;
    expect(both).toMatchObject({ traces: 'http://env:4318/v1/traces', headers: { a: '1', b: '3' }, protocol: 'http/protobuf' });
  });

  it('OTEL_TRACES_EXPORTER=none / OTEL_METRICS_EXPORTER=none leave that signal out', () => {
    const { settings } = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }, undefined, where);
    expect(settings?.traces).toBeUndefined();
    expect(settings?.metrics).toBe('http://c:4318/v1/metrics');
  });

  it('says so for grpc and for an endpoint that is not http(s), and exports nothing', () => {
    const grpc = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, undefined, where);
    expect(grpc.settings).toBeUndefined();
    expect(grpc.warnings).toEqual(['telemetry: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported (http/protobuf or http/json); nothing is exported']);
    const file = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'file:///tmp/x' }, undefined, where);
    expect(file.settings).toBeUndefined();
    expect(file.warnings[0]).toContain('is not an http(s) URL');
  });

  it('refuses headers a project .env gives, and keeps the ones the user set', () => {
    const home = tmpProject();
    const dir = tmpProject({ '.gemini/.env': 'OTEL_EXPORTER_OTLP_HEADERS="authorization=Bearer planted"\n' });
    const planted = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer planted' }, undefined, { projectDir: dir, home });
    expect(planted.settings?.headers).toEqual({});
    expect(planted.warnings).toEqual([`telemetry: OTEL_EXPORTER_OTLP_HEADERS comes from ${path.join(dir, '.gemini', '.env')}, a project .env file (Gemini CLI loads it into the hooks' environment); ignored: set it in your own environment or in your user config's telemetry key`]);
    const own = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer mine' }, undefined, { projectDir: dir, home });
    expect(own.settings?.headers).toEqual({ authorization: 'Bearer mine' });
    expect(own.warnings).toEqual([]);
  });
});

describe('telemetrySettings: a project .env cannot switch export off', () => {
  const config = { otlp: { endpoint: 'http://collector.example:4318' } };
  it.each([
    ['OTEL_SDK_DISABLED', 'true'],
    ['OTEL_TRACES_EXPORTER', 'none'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
  ])('%s=%s from .env is ignored with a warning; the same value set by the user still counts', (name, value) => {
    const dir = tmpProject({ '.env': `${name}=${value}\n` });
    const planted = telemetrySettings({ [name]: value }, config, { projectDir: dir, home: '/nonexistent' });
    expect(telemetryWanted({ [name]: value }, config)).toBe(true);
    expect(planted.settings).toMatchObject({ traces: 'http://collector.example:4318/v1/traces', protocol: 'http/protobuf' });
    expect(planted.warnings).toEqual([`telemetry: ${name} comes from ${path.join(dir, '.env')}, a project .env file (Gemini CLI loads it into the hooks' environment); ignored: set it in your own environment or in your user config's telemetry key`]);
    const own = telemetrySettings({ [name]: value }, config, where);
    expect(own.settings?.traces).toBeUndefined();
  });

  it('OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES from .env do not relabel the events', () => {
    const dir = tmpProject({ '.env': 'OTEL_SERVICE_NAME=payroll\nOTEL_RESOURCE_ATTRIBUTES=host.name=ci-runner\n' });
    const r = telemetrySettings({ OTEL_SERVICE_NAME: 'payroll', OTEL_RESOURCE_ATTRIBUTES: 'host.name=ci-runner' }, config, { projectDir: dir, home: '/nonexistent' });
    expect(r.settings).toMatchObject({ serviceName: 'agent-hooks', resource: {} });
    expect(r.warnings).toHaveLength(2);
  });

  it('OTEL_METRICS_EXPORTER=none from .env keeps metrics', () => {
    const dir = tmpProject({ '.gemini/.env': 'OTEL_METRICS_EXPORTER=none\n' });
    expect(telemetrySettings({ OTEL_METRICS_EXPORTER: 'none' }, config, { projectDir: dir, home: '/nonexistent' }).settings?.metrics).toBe('http://collector.example:4318/v1/metrics');
  });
});

describe('telemetrySettings: the metric interval of hooks serve', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
  it('is OTEL_METRIC_EXPORT_INTERVAL, 60 s without it, never below 1 s, and a value it cannot read is said', () => {
    const at = (value: string | undefined) => telemetrySettings({ ...endpoint, ...(value === undefined ? {} : { OTEL_METRIC_EXPORT_INTERVAL: value }) }, undefined, where);
    expect(at(undefined)).toEqual({ settings: expect.objectContaining({ metricIntervalMs: 60_000 }), warnings: [] });
    expect(at('5000')).toEqual({ settings: expect.objectContaining({ metricIntervalMs: 5_000 }), warnings: [] });
    expect(at('1')).toEqual({ settings: expect.objectContaining({ metricIntervalMs: 1_000 }), warnings: ['telemetry: OTEL_METRIC_EXPORT_INTERVAL=1 is below 1000 ms; 1000 is used'] });
    for (const bad of ['1e3', '-5', '0x10', 'soon']) {
      expect(at(bad).settings?.metricIntervalMs).toBe(60_000);
      expect(at(bad).warnings).toEqual([`telemetry: OTEL_METRIC_EXPORT_INTERVAL=${JSON.stringify(bad)} is not a whole number of milliseconds; 60000 is used`]);
    }
  });

  it('from a project .env is ignored with a warning: a repository cannot set a server exporting every millisecond', () => {
    const dir = tmpProject({ '.gemini/.env': 'OTEL_METRIC_EXPORT_INTERVAL=1\n' });
    const r = telemetrySettings({ ...endpoint, OTEL_METRIC_EXPORT_INTERVAL: '1' }, undefined, { projectDir: dir, home: '/nonexistent' });
    expect(r.settings?.metricIntervalMs).toBe(60_000);
    expect(r.warnings).toEqual([`telemetry: OTEL_METRIC_EXPORT_INTERVAL comes from ${path.join(dir, '.gemini', '.env')}, a project .env file (Gemini CLI loads it into the hooks' environment); ignored: set it in your own environment or in your user config's telemetry key`]);
  });
});

describe('parseList (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES)', () => {
  it('reads key=value pairs, percent-decoded, and names a bad entry without its text', () => {
    const warnings: string[] = [];
    expect(parseList('a=1, b = x%20y ,c=%E0%A4%A,=lost,novalue', 'X', warnings)).toEqual({ a: '1', b: 'x y', c: '%E0%A4%A' });
    expect(warnings).toEqual(['telemetry: X has an entry that is not key=value; it is left out', 'telemetry: X has an entry that is not key=value; it is left out']);
  });

  it('never throws, and gives back what was encoded (property)', () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9._-]{0,15}$/);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const warnings: string[] = [];
        const out = parseList(text, 'X', warnings);
        for (const k of Object.keys(out)) expect(k.trim() === k && k !== '').toBe(true);
        expect(warnings.every((w) => w === 'telemetry: X has an entry that is not key=value; it is left out')).toBe(true);
      }),
      { numRuns: 300, seed: 26, interruptAfterTimeLimit: 2000 },
    );
    fc.assert(
      fc.property(fc.dictionary(key, fc.string({ maxLength: 30 }), { maxKeys: 6 }), (dict) => {
        const text = Object.entries(dict).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join(',');
        const out = parseList(text, 'X', []);
        expect(out).toEqual(dict);
      }),
      { numRuns: 300, seed: 26, interruptAfterTimeLimit: 2000 },
    );
  });
});
