// At-least-once across a crash, with the real server process on both databases: 30 monitors go
// down, the server writes 30 deliveries and starts sending them to a slow loopback receiver that
// dedupes by `webhook-id`; the server is killed with SIGKILL while sends are in flight, restarted
// on the same database, and every delivery arrives — each exactly once after dedupe, the repeats
// of those in flight at the kill carrying the same webhook-id (and the same signed body).
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import type { DbKind } from '../../../src/server/db/connect.ts';
import { createChannel } from '../../../src/server/domain/alerts/channels.ts';
import { listDeliveries } from '../../../src/server/domain/alerts/deliveries.ts';
import { createMonitor } from '../../../src/server/domain/monitors/service.ts';
import { startServer, type RunningServer } from '../../e2e/support/server.ts';
import { servicesOn } from '../../support/alert-services.ts';
import { createDatabase, freePort } from '../../support/pg-cluster.ts';
import { tempDir } from '../../support/test-db.ts';
import { seedTenant } from '../engine/support.ts';

const root = path.resolve(import.meta.dirname, '../../..');
if (!existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  throw new Error('this test starts the real server, which needs the built pages: run `npm run build` (npm test does it)');
}

const MONITORS = 30;
const ANSWER_AFTER_MS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A receiver that answers each request after a while and keeps every one by its webhook-id. */
async function slowDedupingReceiver() {
  const byId = new Map<string, string[]>();
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const body = Buffer.concat(chunks).toString('utf8');
      byId.set(id, [
        ...(byId.get(id) ?? []),
        JSON.stringify({ body, sig: req.headers['webhook-signature'], ts: req.headers['webhook-timestamp'] }),
      ]);
      inFlight++;
      setTimeout(() => {
        inFlight--;
        if (!res.destroyed) res.writeHead(200).end('ok');
      }, ANSWER_AFTER_MS);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    byId,
    inFlight: () => inFlight,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe.each<DbKind>(['sqlite', 'postgres'])('kill -9 while alerts are in flight on %s', (kind) => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) if (s.proc.exitCode === null && s.proc.signalCode === null) await s.stop('SIGTERM');
  });

  it('every delivery arrives after a restart, exactly once after dedupe by webhook-id', async () => {
    const receiver = await slowDedupingReceiver();
    const dataDir = tempDir();
    const location =
      kind === 'sqlite'
        ? { file: path.join(dataDir, 'statuswatch.sqlite') }
        : { url: await createDatabase(process.env.TEST_PG_URL!, `kill9_${Date.now()}`) };
    // PUBLIC_PORT: the restarted server listens on another port, but links in a repeat must read
    // as in the first send (a deployment's public port does not move with a restart).
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      ALLOW_PRIVATE_TARGETS: 'true',
      MIN_CHECK_INTERVAL_SECONDS: '1',
      PUBLIC_PORT: '4321',
    };
    if (location.url) env.DATABASE_URL = location.url;

    // The company, its webhook and monitors whose target refuses connections: down at first check.
    const seed = await servicesOn(location, undefined, {});
    const t = await seedTenant(seed);
    const channel = await createChannel(t.adminCtx, {
      name: 'Hook',
      type: 'webhook',
      config: { url: receiver.url },
      events: ['incident.opened'],
    });
    const closedPort = await freePort();
    for (let i = 0; i < MONITORS; i++)
      await createMonitor(t.adminCtx, {
        name: `Service ${i + 1}`,
        type: 'http',
        url: `http://127.0.0.1:${closedPort}/m${i}`,
        interval_seconds: 60,
        confirmations: 1,
      } as never);
    await seed.db.close();

    try {
      const first = await startServer(env);
      servers.push(first);
      const until = Date.now() + 30_000;
      while (receiver.inFlight() < 5 && Date.now() < until) await sleep(20);
      expect(receiver.inFlight()).toBeGreaterThanOrEqual(5);
      const inFlightAtKill = [...receiver.byId.keys()];
      first.proc.kill('SIGKILL');
      await new Promise((r) => first.proc.once('exit', r));

      const second = await startServer(env);
      servers.push(second);
      // Deliveries leased by the killed process wait out their lease (60 s), then go again.
      const check = await servicesOn(location, undefined, {});
      try {
        const deadline = Date.now() + 100_000;
        const ctx = { ...t.adminCtx, services: check };
        let receipts = await listDeliveries(ctx, { channel_id: channel.id, limit: 200 });
        while (receipts.some((d) => d.state !== 'delivered') || receipts.length < MONITORS) {
          if (Date.now() > deadline) throw new Error(`not all delivered: ${receipts.map((d) => d.state).join(',')}`);
          await sleep(500);
          receipts = await listDeliveries(ctx, { channel_id: channel.id, limit: 200 });
        }
        expect(receipts).toHaveLength(MONITORS);
        // Each delivery reached the receiver; after dedupe by webhook-id, once each.
        expect(new Set(receiver.byId.keys())).toEqual(new Set(receipts.map((d) => d.id)));
        // Those in flight at the kill were sent again with the same webhook-id and the same body.
        const repeated = inFlightAtKill.filter((id) => receiver.byId.get(id)!.length > 1);
        expect(repeated.length).toBeGreaterThan(0);
        const secret = channel.secret!;
        for (const id of repeated) {
          const sends = receiver.byId.get(id)!.map((s) => JSON.parse(s) as { body: string; sig: string; ts: string });
          expect(new Set(sends.map((s) => s.body)).size).toBe(1);
          for (const s of sends)
            expect(
              new Webhook(secret).verify(s.body, { 'webhook-id': id, 'webhook-timestamp': s.ts, 'webhook-signature': s.sig }),
            ).toBeTruthy();
        }
      } finally {
        await check.db.close();
      }
    } finally {
      await receiver.close();
    }
  }, 180_000);
});
