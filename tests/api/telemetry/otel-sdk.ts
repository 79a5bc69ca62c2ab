// Sends spans to a running server with the real OpenTelemetry JS SDK and its OTLP/HTTP
// exporters (protobuf and JSON), with explicit start/end times so a test can compute an
// oracle from exactly what it sent.
import { context, trace, type SpanKind, SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
import { TracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';

export interface PlannedSpan {
  name: string;
  kind: SpanKind;
  startMs: number;
  durationMs: number;
  error?: boolean;
  errorMessage?: string;
  httpStatus?: number;
  /** Further span attributes (e.g. http.request.method, http.route, url.path) */
  attributes?: Attributes;
  children?: PlannedSpan[];
}

export interface SentSpan extends PlannedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  service: string;
}

export async function sendWithSdk(opts: {
  url: string;
  key: string;
  format: 'protobuf' | 'json';
  gzip?: boolean;
  resource: Attributes;
  roots: PlannedSpan[];
}): Promise<SentSpan[]> {
  const exporterOpts = {
    url: opts.url,
    headers: { authorization: `Bearer ${opts.key}` },
    compression: (opts.gzip ? 'gzip' : 'none') as never,
    timeoutMillis: 20_000,
  };
  const exporter = opts.format === 'protobuf' ? new ProtoExporter(exporterOpts) : new JsonExporter(exporterOpts);
  const failures: string[] = [];
  const wrapped = {
    export: (spans: never, done: (r: { code: number; error?: Error }) => void) =>
      exporter.export(spans, (r) => {
        if (r.code !== 0) failures.push(String(r.error?.message ?? r.code));
        done(r);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  const provider = new TracerProvider({
    resource: resourceFromAttributes(opts.resource),
    spanProcessors: [
      new BatchSpanProcessor({ exporter: wrapped as never, maxQueueSize: 100_000, maxExportBatchSize: 512, scheduledDelayMillis: 50 }),
    ],
  });
  const tracer = provider.getTracer('statuswatch-tests');
  const sent: SentSpan[] = [];
  const service = String(opts.resource['service.name'] ?? 'unknown_service');
  const start = (p: PlannedSpan, parent: Span | null) => {
    const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
    const attributes: Attributes = {
      ...p.attributes,
      ...(p.httpStatus !== undefined ? { 'http.response.status_code': p.httpStatus } : {}),
    };
    const span = tracer.startSpan(p.name, { kind: p.kind, startTime: p.startMs, attributes, root: !parent }, ctx);
    if (p.error) span.setStatus({ code: SpanStatusCode.ERROR, message: p.errorMessage });
    const sc = span.spanContext();
    sent.push({ ...p, traceId: sc.traceId, spanId: sc.spanId, parentSpanId: parent ? parent.spanContext().spanId : null, service });
    for (const c of p.children ?? []) start(c, span);
    span.end(p.startMs + p.durationMs);
  };
  for (const r of opts.roots) start(r, null);
  await provider.forceFlush();
  await provider.shutdown();
  if (failures.length) throw new Error(`export failed: ${failures.join('; ')}`);
  return sent;
}
