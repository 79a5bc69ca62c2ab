// Browser tracing: a page in Chromium, served from a loopback origin, exports spans with the
// OpenTelemetry web SDK and its OTLP/HTTP web exporter (the packages' browser builds, bundled
// for the page by esbuild) to a company host's /v1/traces. With a key that lists the page's
// origin the preflight and the POST pass and the spans are stored; the same page served from
// an origin the key does not list is refused (the exporter reports failure, nothing stored).
import { build } from 'esbuild';
import { test, expect, adminApi, seedCompany, tenantUrl, loopbackTarget } from './console-fixtures.ts';

// What a web app's tracing setup looks like: the exporter with the key in its headers option.
const ENTRY = `
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { TracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SpanKind } from '@opentelemetry/api';
window.exportSpans = async (url, key, n) => {
  const exporter = new OTLPTraceExporter({ url, headers: { Authorization: 'Bearer ' + key } });
  const results = [];
  const wrapped = {
    export: (spans, done) => exporter.export(spans, (r) => { results.push(r.code); done(r); }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'web-shop' }),
    spanProcessors: [new BatchSpanProcessor({ exporter: wrapped, scheduledDelayMillis: 20 })],
  });
  const tracer = provider.getTracer('e2e');
  for (let i = 0; i < n; i++) tracer.startSpan('GET /product/' + i, { kind: SpanKind.SERVER }).end();
  // A failed export rejects the flush; the result codes say what the exporter saw.
  await provider.forceFlush().catch((e) => console.log('flush failed: ' + (Array.isArray(e) ? e.map(String).join('; ') : String(e)) + ' ' + (e && e.stack)));
  await provider.shutdown().catch(() => {});
  return results;
};
`;

let bundle = '';
const page = loopbackTarget((req, res) => {
  if (req.url === '/otel.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
  res
    .writeHead(200, { 'content-type': 'text/html' })
    .end('<!doctype html><title>shop</title><h1>Shop</h1><script src="/otel.js"></script>');
});

test.beforeAll(async () => {
  const out = await build({
    stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0].text;
  // The browser builds, not the Node ones (which would use node:http).
  expect(bundle).not.toContain('node:http');
});

test('a page on an allowed origin exports spans; the same page on an unlisted origin is refused', async ({ browser }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const allowed = `http://127.0.0.1:${page.port()}`;
  const unlisted = `http://localhost:${page.port()}`;
  const created = await api.post('/api/v1/api-keys', {
    data: { name: 'web', scope: 'ingest', company_id: company.id, allowed_origins: [allowed] },
  });
  expect(created.status()).toBe(201);
  const key = ((await created.json()) as { key: string }).key;
  const url = tenantUrl(company.subdomain, '/v1/traces');
  const requests = async () => {
    const r = await api.get(`/api/v1/api-intelligence/metrics/red?range=1h&tenant=${company.id}`);
    return ((await r.json()) as { totalRequests: number }).totalRequests;
  };

  const ctx = await browser.newContext();
  const tab = await ctx.newPage();
  const consoleLines: string[] = [];
  tab.on('console', (m) => consoleLines.push(m.text()));
  const corsAnswers: Array<{ method: string; status: number; allowOrigin: string | null }> = [];
  tab.on('response', (r) => {
    if (new URL(r.url()).pathname === '/v1/traces')
      corsAnswers.push({
        method: r.request().method(),
        status: r.status(),
        allowOrigin: r.headers()['access-control-allow-origin'] ?? null,
      });
  });

  await tab.goto(`${allowed}/`);
  const ok = await tab.evaluate(
    ([u, k]) => (window as unknown as { exportSpans(u: string, k: string, n: number): Promise<number[]> }).exportSpans(u, k, 25),
    [url, key] as const,
  );
  expect(ok, consoleLines.join('\n')).toEqual([0]); // ExportResultCode.SUCCESS
  expect(corsAnswers, JSON.stringify(corsAnswers)).toContainEqual({ method: 'POST', status: 200, allowOrigin: allowed });
  await expect.poll(requests).toBe(25);

  await tab.goto(`${unlisted}/`);
  const refused = await tab.evaluate(
    ([u, k]) => (window as unknown as { exportSpans(u: string, k: string, n: number): Promise<number[]> }).exportSpans(u, k, 5),
    [url, key] as const,
  );
  expect(refused).not.toContain(0);
  expect(refused.length).toBeGreaterThan(0);
  // The browser could not read the answer (no CORS headers): the page learns nothing from it.
  const probe = await tab.evaluate(async (u) => {
    try {
      await fetch(u, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      return 'read';
    } catch (e) {
      return (e as Error).name;
    }
  }, url);
  expect(probe).toBe('TypeError');
  expect(await requests()).toBe(25);
  await ctx.close();
  await api.dispose();
});
