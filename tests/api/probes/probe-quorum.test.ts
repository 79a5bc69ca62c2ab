// Quorum with real probes (issue 27, "Done when"): three public locations, each a probe process
// with a resolver of its own, so the monitor's one host name leads each location to its own
// loopback address (127.0.0.1, .2, .3) and a fault can hit one location alone. One location
// failing leaves the monitor degraded, with no incident; two of three failing take it down, open
// an incident, and the webhook names where it is down and where it is up. On both databases.
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeliveryWaker } from '../../../src/server/jobs/alert-delivery.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import { type DnsTarget, startDnsServer } from '../../fixtures/targets/dns-targets.ts';
import {
  ACME,
  type ProbeProcess,
  type ProbeWorld,
  seedLocatedMonitor,
  seedProbeWorld,
  startProbeProcess,
} from '../../support/probe-fixtures.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS, tempDir } from '../../support/test-db.ts';
import { waitFor } from '../../support/wait-for.ts';

const LONG = { timeoutMs: 60_000 };
const HOST = 'svc.quorum.test';

describe.each(DB_KINDS)('quorum with three probe processes on %s', (kind) => {
  let t: TestApp;
  let w: ProbeWorld;
  let hook: WebhookReceiver;
  let stopWaker: () => Promise<void>;
  const targets: http.Server[] = [];
  const resolvers: DnsTarget[] = [];
  const probes: ProbeProcess[] = [];
  /** Which target addresses answer 503 */
  const failing = new Set<string>();
  let monitorId: string;
  const locations: Array<{ slug: string; name: string; address: string; token: string; num: number }> = [];

  beforeAll(async () => {
    // one target per location address, on one port
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      res.statusCode = failing.has(req.socket.localAddress ?? '') ? 503 : 200;
      res.end();
    };
    for (const address of ['127.0.0.1', '127.0.0.2', '127.0.0.3']) {
      const s = http.createServer(handler);
      const port = targets.length ? (targets[0].address() as net.AddressInfo).port : 0;
      await new Promise<void>((r) => s.listen(port, address, r));
      targets.push(s);
    }
    const port = (targets[0].address() as net.AddressInfo).port;
    hook = await startWebhookReceiver();
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1' } });
    stopWaker = startDeliveryWaker(t.services);
    w = await seedProbeWorld(t);
    const more = [
      { slug: 'us-east', name: 'Virginia' },
      { slug: 'ap-south', name: 'Singapore' },
    ];
    const made = [{ slug: 'eu-west', name: 'Frankfurt', ...w.euWest }];
    for (const l of more) {
      const loc = await w.root.post('/api/v1/probe-locations', { ...l, private: false });
      const tok = await w.root.post(`/api/v1/probe-locations/${loc.body.id}/tokens`, { name: 'rack 1' });
      made.push({ ...l, id: loc.body.id, token: tok.body.token });
    }
    for (const [i, l] of made.entries()) {
      const num = (await t.services.db.k.selectFrom('probe_locations').select('num').where('id', '=', l.id).executeTakeFirstOrThrow()).num;
      locations.push({ slug: l.slug, name: l.name, token: l.token, address: `127.0.0.${i + 1}`, num });
    }
    const channel = await w.acmeAdmin.post(
      '/api/v1/alert-channels',
      { name: 'Ops hook', type: 'webhook', config: { url: hook.url('/ops') } },
      ACME,
    );
    expect(channel.status, channel.text).toBe(201);
    monitorId = await seedLocatedMonitor(
      t,
      w.acmeAdmin,
      ACME,
      { name: 'Shop', url: `http://${HOST}:${port}/`, interval_seconds: 1, timeout_seconds: 5, confirmations: 1 },
      locations.map((l) => l.slug),
    );
    for (const l of locations) {
      const dns = await startDnsServer({ answer: true, fallback: [l.address] });
      resolvers.push(dns);
      probes.push(
        startProbeProcess({
          PROBE_URL: `http://localhost:${t.port}`,
          PROBE_TOKEN: l.token,
          PROBE_INSTANCE: `probe-${l.slug}`,
          PROBE_BUFFER_DIR: tempDir('probe-buffer-'),
          DNS_RESOLVERS: `127.0.0.1:${dns.port}`,
        }),
      );
    }
  }, 120_000);
  afterAll(async () => {
    for (const p of probes) {
      p.child.kill('SIGTERM');
      await p.exited;
    }
    await stopWaker?.();
    await t?.close();
    await hook?.close();
    for (const d of resolvers) await d.close();
    for (const s of targets) await new Promise((r) => s.close(r));
  });

  const monitor = () => t.services.db.k.selectFrom('monitors').select(['status']).where('id', '=', monitorId).executeTakeFirstOrThrow();
  const states = async () =>
    new Map(
      (await t.services.db.k.selectFrom('monitor_location_states').selectAll().where('monitor_id', '=', monitorId).execute()).map((s) => [
        s.location,
        s,
      ]),
    );
  const incidents = () => t.services.db.k.selectFrom('incidents').select(['id', 'status']).where('company_id', '=', w.acme.id).execute();
  const byName = (name: string) => locations.find((l) => l.name === name)!;

  it('is up while every location sees it up', async () => {
    await waitFor(
      async () => {
        const s = await states();
        return locations.every((l) => s.get(l.num)?.status === 'operational') && (await monitor()).status === 'operational';
      },
      { ...LONG, what: 'three locations seeing it up' },
    );
  }, 90_000);

  it('one location failing alone: degraded, no incident', async () => {
    failing.add(byName('Virginia').address);
    const since = Date.now();
    await waitFor(async () => (await states()).get(byName('Virginia').num)?.status === 'down', { ...LONG, what: 'Virginia down' });
    // the other two have reported since, so the verdict was taken with all three
    await waitFor(
      async () => {
        const s = await states();
        return ['Frankfurt', 'Singapore'].every((n) => Number(s.get(byName(n).num)?.last_checked_at ?? 0) > since + 1000);
      },
      { ...LONG, what: 'two more rounds from Frankfurt and Singapore' },
    );
    expect((await monitor()).status).toBe('degraded');
    expect(await incidents()).toEqual([]);
    expect(hook.received).toEqual([]);
  }, 90_000);

  it('two of three failing: down, an incident, and the webhook names where', async () => {
    failing.add(byName('Singapore').address);
    await waitFor(async () => (await monitor()).status === 'down', { ...LONG, what: 'the monitor down' });
    const [incident] = await waitFor(async () => {
      const open = await incidents();
      return open.length > 0 && open;
    }, LONG);
    expect(incident).toBeDefined();
    const sent = await waitFor(() => hook.received.find((r) => r.path === '/ops'), { ...LONG, what: 'the webhook' });
    expect(sent.body).toContain('Virginia');
    expect(sent.body).toContain('Singapore');
    expect(sent.body).toContain('2 of 3 locations');
    expect(sent.body).toContain('Frankfurt sees it up');
  }, 90_000);
});
