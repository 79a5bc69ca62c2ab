// A remote probe checks a database or mail monitor with its password (issue 28): the platform
// stores it sealed and hands it to the probe opened, in the assignments answer of the probe's
// authenticated channel (its token, HTTPS in production); nobody else gets it from the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorsRepo } from '../../../src/server/db/repositories/monitors-repo.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { ACME, probeCall, type ProbeWorld, seedLocatedMonitor, seedProbeWorld } from '../../support/probe-fixtures.ts';

const PASSWORD = 'probe-db-Secret-7';

describe.each(DB_KINDS)('credentials for probes on %s', (kind) => {
  let t: TestApp;
  let w: ProbeWorld;

  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    w = await seedProbeWorld(t);
  });
  afterAll(async () => t?.close());

  it("sends the opened password to the location's probe only, and stores it sealed", async () => {
    const over = { name: 'orders db', type: 'postgres', url: `postgres://monitor:${PASSWORD}@127.0.0.1:5432/orders` };
    const id = await seedLocatedMonitor(t, w.acmeAdmin, ACME, over as never, ['lab']);
    const row = (await monitorsRepo(t.services.db).findById(id, null))!;
    expect(row.config).not.toContain(PASSWORD);

    const lab = await probeCall(t, w.acmeLab.token, 'GET', '/api/v1/probe/assignments');
    expect(lab.status).toBe(200);
    const assigned = lab.body.monitors.find((m: { id: string }) => m.id === id);
    expect(assigned.config).toMatchObject({ url: 'postgres://monitor@127.0.0.1:5432/orders', password: PASSWORD });

    // Another location's probe is not assigned the monitor; the console's view masks it.
    const pub = await probeCall(t, w.euWest.token, 'GET', '/api/v1/probe/assignments');
    expect(JSON.stringify(pub.body)).not.toContain(PASSWORD);
    const view = await w.acmeAdmin.get(`/api/v1/monitors/${id}`, ACME);
    expect(view.body.password).toBe('(hidden)');
    expect(view.text).not.toContain(PASSWORD);
  });

  it('sends a synthetic monitor the company secrets its steps name, opened, and nothing more', async () => {
    const SECRET = 'flow-Secret-For-The-Probe-9';
    expect((await w.acmeAdmin.put('/api/v1/secrets/SHOP_TOKEN', { value: SECRET }, ACME)).status).toBe(200);
    expect((await w.acmeAdmin.put('/api/v1/secrets/UNUSED_TOKEN', { value: 'not-sent-anywhere' }, ACME)).status).toBe(200);
    const steps = [{ name: 'Sign in', url: 'http://127.0.0.1:9/api', headers: { authorization: 'Bearer {{secrets.SHOP_TOKEN}}' } }];
    const id = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'shop flow', type: 'api_flow', steps } as never, ['lab']);
    const lab = await probeCall(t, w.acmeLab.token, 'GET', '/api/v1/probe/assignments');
    const assigned = lab.body.monitors.find((m: { id: string }) => m.id === id);
    expect(assigned.secrets).toEqual({ SHOP_TOKEN: SECRET });
    expect(assigned.config.steps[0].headers.authorization).toBe('Bearer {{secrets.SHOP_TOKEN}}');
    expect(JSON.stringify(lab.body)).not.toContain('not-sent-anywhere');
    const pub = await probeCall(t, w.euWest.token, 'GET', '/api/v1/probe/assignments');
    expect(JSON.stringify(pub.body)).not.toContain(SECRET);
    // A replaced value reaches the probe with its next poll, as a change of the monitor would.
    expect((await w.acmeAdmin.put('/api/v1/secrets/SHOP_TOKEN', { value: `${SECRET}-new` }, ACME)).status).toBe(200);
    const next = await probeCall(t, w.acmeLab.token, 'GET', `/api/v1/probe/assignments?version=${lab.body.version}&wait=0`);
    expect(next.body.changed).toBe(true);
    expect(next.body.monitors.find((m: { id: string }) => m.id === id).secrets).toEqual({ SHOP_TOKEN: `${SECRET}-new` });
  });
});
