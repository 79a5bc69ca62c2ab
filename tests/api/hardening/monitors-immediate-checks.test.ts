// Saving a monitor checks it at once only within limits (issue 11): one immediate check per
// monitor a minute and ten per company a minute. Otherwise re-saving a tcp monitor with a new
// port each time turned the engine into a port scanner (one connection per PUT).
import net from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { waitFor } from '../../support/wait-for.ts';

interface Listener {
  port: number;
  /** the client port of each connection taken (the test's own are taken out again by `drained`) */
  accepted: number[];
  readonly connections: number;
  close(): Promise<void>;
}

async function listen(): Promise<Listener> {
  const l: Listener = {
    port: 0,
    accepted: [],
    get connections() {
      return this.accepted.length;
    },
    close: async () => {},
  };
  const server = net.createServer((s) => {
    l.accepted.push(s.remotePort!);
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  l.port = (server.address() as net.AddressInfo).port;
  l.close = () => new Promise<void>((r) => server.close(() => r()));
  return l;
}

/**
 * Resolves once `l` has taken every connection made to it so far: a listener accepts in the order
 * connections arrive, so once it has taken one of the test's own, made now, it has counted the
 * checks' before it.
 */
async function drained(l: Listener): Promise<void> {
  const s = net.connect(l.port, '127.0.0.1');
  s.on('error', () => undefined);
  await once(s, 'connect');
  const port = s.localPort!;
  await waitFor(() => l.accepted.includes(port), { what: `the listener on ${l.port} taking the test's connection` });
  l.accepted.splice(l.accepted.indexOf(port), 1);
  s.destroy();
}

describe.each(DB_KINDS)('immediate checks after a save on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let clock = Date.now();
  const listeners: Listener[] = [];
  const connections = () => listeners.reduce((a, l) => a + l.connections, 0);

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '60' } });
    t.services.monitoring = { engine: createEngine(t.services) };
    const acme = await seedCompany(t.services, { plan: 'professional' });
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    for (let i = 0; i < 25; i++) listeners.push(await listen());
  });
  afterAll(async () => {
    await t?.close();
    for (const l of listeners) await l.close();
  });

  const runDue = async () => {
    await t.services.monitoring!.engine!.runDueNow();
    await Promise.all(listeners.map(drained));
  };

  it('re-saving a tcp monitor with a new port reaches the targets once a minute, not once per save', async () => {
    const created = await admin.post('/api/v1/monitors', {
      name: 'db',
      type: 'tcp',
      host: '127.0.0.1',
      port: listeners[0].port,
      interval_seconds: 3600,
      is_public: false,
    });
    expect(created.status).toBe(201);
    await runDue();
    expect(connections()).toBe(1); // a new monitor is checked at once

    for (let i = 1; i <= 20; i++) {
      const r = await admin.put(`/api/v1/monitors/${created.body.id}`, { port: listeners[i].port });
      expect(r.status).toBe(200);
      expect(r.body.port).toBe(listeners[i].port); // the change is saved...
      await runDue();
    }
    expect(connections()).toBe(1); // ...but not checked at once again within the minute

    clock += 61_000;
    await admin.put(`/api/v1/monitors/${created.body.id}`, { port: listeners[21].port });
    await runDue();
    expect(listeners[21].connections).toBe(1); // a minute later one save is checked at once again
    expect(connections()).toBe(2);
  });

  it('caps immediate checks per company at ten a minute across its monitors', async () => {
    clock += 61_000;
    const before = connections();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await admin.post('/api/v1/monitors', {
        name: `svc ${i}`,
        type: 'tcp',
        host: '127.0.0.1',
        port: listeners[22].port,
        interval_seconds: 3600,
        is_public: false,
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
      await runDue();
    }
    expect(connections() - before).toBe(10);
    // each monitor is past its own limit, the company is not: still no more at once
    clock += 1_000;
    for (const id of ids.slice(10)) await admin.put(`/api/v1/monitors/${id}`, { port: listeners[23].port });
    await runDue();
    expect(listeners[23].connections).toBe(0);
    // pausing and resuming is no way around it
    await admin.post(`/api/v1/monitors/${ids[11]}/pause`);
    await admin.post(`/api/v1/monitors/${ids[11]}/resume`);
    await runDue();
    expect(listeners[23].connections).toBe(0);
  });

  it('checks a monitor whose immediate check was refused within the minute instead of at its next hourly slot', async () => {
    // the two refused new monitors were due a minute after their creation
    clock += 61_000;
    await runDue();
    expect(listeners[23].connections).toBe(2);
  });
});
