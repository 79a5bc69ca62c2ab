// OTLP ingest benchmark (DESIGN.md section 5): spans per second per core, protobuf and JSON,
// including the span store and the RED rollups. Payloads are made by the real OpenTelemetry
// SDK and its OTLP/HTTP exporters (captured once, then replayed with unique ids); the server
// runs in its own process on SQLite, and "per core" divides by that process's CPU seconds.
// Usage: npm run bench:otlp [-- --batches 200 --concurrency 4]
import http from 'node:http';
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { TracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { openDb } from '../../src/server/db/connect.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const BATCHES = arg('batches', 200);
const CONCURRENCY = arg('concurrency', 4);
const SPANS_PER_BATCH = 512; // the SDK BatchSpanProcessor's default export size
const TARGET = { protobuf: 20_000, json: 5_000 };

type Payload = { body: Buffer; headers: Record<string, string> };

/** Captures what the real exporter sends: BATCHES requests of 512 spans (4-span traces). */
async function capture(format: 'protobuf' | 'json'): Promise<Payload[]> {
  const out: Payload[] = [];
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const h of ['content-type', 'content-encoding']) if (req.headers[h]) headers[h] = String(req.headers[h]);
      out.push({ body: Buffer.concat(chunks), headers });
      res.writeHead(200, { 'content-type': String(req.headers['content-type']) }).end();
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(srv.address() as { port: number }).port}/v1/traces`;
  const opts = { url, compression: 'none' as never };
  const exporter = format === 'protobuf' ? new ProtoExporter(opts) : new JsonExporter(opts);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': `shop-${format}`,
      'service.version': '1.4.2',
      'deployment.environment': 'prod',
      'host.name': 'web-1',
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        maxQueueSize: SPANS_PER_BATCH * 2,
        maxExportBatchSize: SPANS_PER_BATCH,
        scheduledDelayMillis: 10,
      }),
    ],
  });
  const tracer = provider.getTracer('bench');
  const start = Date.now() - 30 * 60_000;
  // One export of 512 spans (128 traces of 4 spans) per flush, as a busy service would send.
  for (let i = 0; i < (BATCHES * SPANS_PER_BATCH) / 4; i++) {
    const t0 = start + i;
    const failed = i % 10 === 0;
    const root = tracer.startSpan(i % 2 ? 'GET /api/products/:id' : 'POST /api/orders', {
      kind: SpanKind.SERVER,
      startTime: t0,
      attributes: {
        'http.request.method': i % 2 ? 'GET' : 'POST',
        'http.route': i % 2 ? '/api/products/:id' : '/api/orders',
        'url.path': `/api/orders/${i}`,
        'http.response.status_code': failed ? 500 : 200,
        'user_agent.original': 'Mozilla/5.0',
      },
    });
    const ctx = trace.setSpan(context.active(), root);
    const db = tracer.startSpan(
      'SELECT products',
      {
        kind: SpanKind.CLIENT,
        startTime: t0 + 1,
        attributes: { 'db.system': 'postgresql', 'db.statement': 'SELECT * FROM products WHERE id = $1' },
      },
      ctx,
    );
    db.end(t0 + 4);
    const http2 = tracer.startSpan(
      'GET',
      { kind: SpanKind.CLIENT, startTime: t0 + 5, attributes: { 'server.address': 'payments.internal', 'http.response.status_code': 200 } },
      ctx,
    );
    http2.end(t0 + 15);
    const render = tracer.startSpan('render', { kind: SpanKind.INTERNAL, startTime: t0 + 16 }, ctx);
    render.end(t0 + 18);
    if (failed) {
      root.recordException(new Error('payment gateway timeout'));
      root.setStatus({ code: SpanStatusCode.ERROR, message: 'payment gateway timeout' });
    }
    root.end(t0 + 20 + (i % 300));
    if ((i + 1) % (SPANS_PER_BATCH / 4) === 0) await provider.forceFlush();
  }
  await provider.forceFlush();
  await provider.shutdown();
  srv.close();
  return out;
}

function post(port: number, key: string, p: Payload): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/traces',
        method: 'POST',
        headers: { ...p.headers, authorization: `Bearer ${key}`, 'content-length': String(p.body.length) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(p.body);
  });
}

/** utime + stime of a process in seconds (Linux). */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

async function runOne(format: 'protobuf' | 'json') {
  const payloads = await capture(format);
  const spans = payloads.length * SPANS_PER_BATCH;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-otlp-'));
  const here = path.dirname(fileURLToPath(import.meta.url));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [path.join(here, 'server.ts')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<{ port: number; key: string; pid: number }>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString())));
    child.once('exit', (c) => reject(new Error(`bench server exited ${c}`)));
  });
  // Warm up on the first few payloads (JIT, prepared statements), then measure the rest.
  const warm = payloads.splice(0, Math.min(10, Math.floor(payloads.length / 10)));
  for (const p of warm) if ((await post(info.port, info.key, p)) !== 200) throw new Error('warm-up export refused');
  const cpu0 = cpuSeconds(info.pid);
  const t0 = performance.now();
  let next = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < payloads.length) {
        const status = await post(info.port, info.key, payloads[next++]);
        if (status !== 200) refused++;
      }
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(info.pid) - cpu0;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  const db = openDb({ kind: 'sqlite', file: path.join(dataDir, 'statuswatch.sqlite') });
  const stored = Number(
    (
      await db.k
        .selectFrom('spans')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const requests = Number(
    (
      await db.k
        .selectFrom('red_rollups')
        .select((eb) => eb.fn.sum<number>('requests').as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  await db.close();
  const measured = payloads.length * SPANS_PER_BATCH;
  const bytes = payloads.reduce((a, p) => a + p.body.length, 0) / payloads.length;
  if (refused || stored !== spans || requests !== spans / 4)
    throw new Error(`${format}: refused ${refused}, stored ${stored}/${spans}, rollup requests ${requests}/${spans / 4}`);
  return { format, measured, wall, cpu, perSecond: measured / wall, perCore: measured / cpu, bytes };
}

for (const format of ['protobuf', 'json'] as const) {
  const r = await runOne(format);
  const ok = r.perCore >= TARGET[format] ? 'meets' : 'BELOW';
  console.log(
    `${format.padEnd(8)} ${r.measured} spans (${Math.round(r.bytes / 1024)} KiB/request of 512) in ${r.wall.toFixed(2)} s wall, ${r.cpu.toFixed(2)} s server CPU: ` +
      `${Math.round(r.perSecond)} spans/s, ${Math.round(r.perCore)} spans/s per core (target >= ${TARGET[format]}: ${ok})`,
  );
}
