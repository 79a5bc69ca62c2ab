// The probe ingest port (PROBE_INGEST_PORT, http/probe-ingest.ts): a real probe process pointed at
// the port of the ingest thread has its results taken there and stored by the main thread (the
// monitor's state and check rows are the main writer's), the port answers the probes' calls and
// the health checks only, and the platform stops cleanly with the thread. On both databases (the
// thread opens its own connection to the same SQLite file or PostgreSQL database).
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxDrained } from '../../../src/server/domain/probes/inbox.ts';
import { platformRegistry } from '../../../src/server/metrics/platform.ts';
import { startProbeIngest, type ProbeIngest } from '../../../src/server/http/probe-ingest.ts';
import { ACME, type ProbeProcess, said, seedLocatedMonitor, seedProbeWorld, startProbeProcess } from '../../support/probe-fixtures.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS, tempDir } from '../../support/test-db.ts';
import { waitFor } from '../../support/wait-for.ts';

const LONG = { timeoutMs: 60_000 };

/** This thread's checks_total of eu-west's operational results (the other database's block counted here too). */
async function countedHere(): Promise<number> {
  const text = await platformRegistry.getSingleMetricAsString('statuswatch_checks_total');
  const line = text.split('\n').find((l) => l.includes('location="eu-west"') && l.includes('status="operational"'));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe.each(DB_KINDS)('the probe ingest port on %s', (kind) => {
  let t: TestApp;
  let ingest: ProbeIngest;
  let target: http.Server;
  let probe: ProbeProcess | undefined;
  const logged: string[] = [];

  beforeAll(async () => {
    target = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    // the thread opens the database the configuration names: the test's SQLite file is that one
    const dataDir = tempDir();
    t = await startTestApp({
      db: kind,
      env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1' },
      ...(kind === 'sqlite' ? { location: { file: path.join(dataDir, 'statuswatch.sqlite') } } : {}),
    });
    ingest = await startProbeIngest(t.services, { port: 0, host: '127.0.0.1', log: (m) => logged.push(m) });
  }, 60_000);
  afterAll(async () => {
    probe?.child.kill('SIGKILL');
    await t?.close();
    await new Promise((r) => target?.close(r));
  });

  it('takes a real probe’s results on its own port; the main thread stores them and the monitor turns operational', async () => {
    const w = await seedProbeWorld(t);
    const countedBefore = await countedHere();
    const url = `http://127.0.0.1:${(target.address() as net.AddressInfo).port}/health`;
    const monitorId = await seedLocatedMonitor(
      t,
      w.acmeAdmin,
      ACME,
      { name: 'checked through the ingest port', url, interval_seconds: 1, timeout_seconds: 5 },
      ['eu-west'],
    );
    probe = startProbeProcess({
      PROBE_URL: `http://localhost:${ingest.port}`,
      PROBE_TOKEN: w.euWest.token,
      PROBE_INSTANCE: 'ingest-port',
      PROBE_BUFFER_DIR: tempDir('probe-buffer-'),
      ALLOW_PRIVATE_TARGETS: 'true',
    });
    await waitFor(() => said(probe!, 'assignments: 1 monitors'), { ...LONG, what: 'the probe to connect through the ingest port' });
    const rows = async () => {
      await inboxDrained(t.services);
      return t.services.db.k.selectFrom('check_results').select(['status']).where('monitor_id', '=', monitorId).execute();
    };
    await waitFor(async () => (await rows()).length >= 3, { ...LONG, what: 'results stored by the main thread' });
    expect((await rows()).every((r) => r.status === 'operational')).toBe(true);
    // counted where /metrics is scraped
    await waitFor(async () => (await countedHere()) - countedBefore >= 3, { ...LONG, what: 'checks_total to count them' });
    await waitFor(
      async () =>
        (await t.services.db.k.selectFrom('monitors').select('status').where('id', '=', monitorId).executeTakeFirstOrThrow()).status ===
        'operational',
      { ...LONG, what: 'the monitor to turn operational' },
    );
    // nothing waits in the inbox once drained: the thread told the main thread each time
    await inboxDrained(t.services);
    await waitFor(async () => (await t.services.db.k.selectFrom('probe_result_inbox').select('seq').execute()).length === 0, {
      ...LONG,
      what: 'the inbox to empty',
    });
    expect(logged).toEqual([]);
  }, 120_000);

  it('answers the probes’ calls and health checks only; everything else is the main port’s', async () => {
    // fetch sends the URL's host: the platform answers on its product domain (localhost)
    const get = (p: string) => fetch(`http://localhost:${ingest.port}${p}`);
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    const other = await get('/api/v1/monitors');
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await other.json()).detail).toMatch(/probes' calls only/);
    // the probes' calls are there: without a token, the problem the main port gives too
    const unauth = await get('/api/v1/probe/assignments');
    const main = await fetch(`http://localhost:${t.port}/api/v1/probe/assignments`);
    expect(unauth.status).toBe(main.status);
    expect((await unauth.json()).title).toBe((await main.json()).title);
    // a delivery with a token nobody issued: refused alike (on SQLite by the main thread, handed the batch)
    const deliver = (base: string) =>
      fetch(`${base}/api/v1/probe/results`, {
        method: 'POST',
        headers: { authorization: 'Bearer swp_nobody', 'content-type': 'application/json' },
        body: JSON.stringify({ stats: { instance: 'x', checks_per_second: 0, lag_ms_p99: 0 }, results: [] }),
      });
    const [viaIngest, viaMain] = await Promise.all([deliver(`http://localhost:${ingest.port}`), deliver(`http://localhost:${t.port}`)]);
    expect(viaIngest.status).toBe(401);
    expect(await viaIngest.json()).toEqual(await viaMain.json());
  });
});
