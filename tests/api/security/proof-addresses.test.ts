// A proof of control binds the addresses the name pointed at (issue 25, item 16), on both
// databases, with a real loopback DNS server and two loopback web servers on the same port, one
// on 127.0.0.1 (the company's server) and one on 127.0.0.2 (a third party's): a host verified by
// its TXT record while it pointed at 127.0.0.1 and then pointed at 127.0.0.2 is neither scanned
// nor TLS-analysed, and no connection reaches 127.0.0.2; the asset reads "proof needs renewing"
// and its admins are told; "Verify now" binds the new address and the scan runs. A file proof
// must come from every address the name points to. The daily re-check notices a re-pointed name
// without renewing its proof, and settles the state when the name points back.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WELL_KNOWN_PATH } from '../../../src/lib/security-assets.ts';
import { runDueScans } from '../../../src/server/domain/security/scan-runner.ts';
import { reverifyDueAssets } from '../../../src/server/domain/security/verification.ts';
import { startDnsServer, type DnsTarget } from '../../fixtures/targets/dns-targets.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';

interface Web {
  port: number;
  /** connections accepted on this address */
  connections: number;
  /** the well-known file's body on this address (undefined: 404) */
  proof?: string;
  close(): Promise<void>;
}

/** A web server on `address` (same port for both) answering every path, counting connections. */
async function startWeb(address: string, port = 0): Promise<Web> {
  const web: Web = { port: 0, connections: 0, close: async () => {} };
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    if (req.url === WELL_KNOWN_PATH) {
      if (web.proof === undefined) return void res.writeHead(404).end('no');
      return void res.end(web.proof);
    }
    res.end('<!doctype html><title>shop</title>');
  });
  server.on('connection', (s) => {
    web.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(port, address, r));
  web.port = (server.address() as AddressInfo).port;
  web.close = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return web;
}

describe.each(DB_KINDS)('proofs of control bind addresses on %s', (kind) => {
  let t: TestApp;
  let dns: DnsTarget;
  let ours: Web;
  let theirs: Web;
  let admin: ApiClient;
  let adminId: string;
  let adminUser: { email: string; password: string };
  let now = Date.UTC(2026, 10, 29, 9, 0, 0);
  const later = () => {
    now += 61_000;
  };

  beforeAll(async () => {
    dns = await startDnsServer({ answer: true });
    ours = await startWeb('127.0.0.1');
    theirs = await startWeb('127.0.0.2', ours.port);
    t = await startTestApp({
      db: kind,
      now: () => now,
      env: { DNS_RESOLVERS: `127.0.0.1:${dns.port}`, ALLOW_PRIVATE_TARGETS: 'true' },
    });
    t.services.securityVerification = { ports: { http: ours.port, https: ours.port } };
    t.services.scanOverrides = {
      origins: [`http://shop.acme-bind.test:${ours.port}`],
      ports: { redis: ours.port },
      ratePerSecond: 20,
    };
    t.services.monitoring = { ...t.services.monitoring, assetTlsPort: () => ours.port };
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    const user = await seedUser(t.services, { userType: 2, companyId: acme.id });
    adminId = user.id;
    adminUser = user;
    admin = new ApiClient(t.baseUrl, 'acme.localhost');
    await signIn(admin, user);
  });
  afterAll(async () => {
    await Promise.all([dns?.close(), ours?.close(), theirs?.close()]);
    await t?.close();
  });

  it('scans only the addresses a TXT proof saw, asks for a new proof when the name points elsewhere, and scans again once renewed', async () => {
    const name = 'shop.acme-bind.test';
    dns.records.set(name, ['127.0.0.1']);
    const { body: asset } = await admin.post('/api/v1/security/assets', { hostname: name, kind: 'host' });
    dns.txt.set(name, [`statuswatch-verification=${asset.proof.file_body}`]);
    const verified = await admin.post(`/api/v1/security/assets/${asset.id}/verify`);
    expect(verified.body).toMatchObject({
      verified: true,
      verification_method: 'dns',
      verification_state: 'verified',
      verified_addresses: ['127.0.0.1'],
      renewal_reason: null,
    });

    // The company points its name at a third party's server.
    dns.records.set(name, ['127.0.0.2']);
    later();
    const queued = await admin.post('/api/v1/security/scans', { asset_id: asset.id });
    expect(queued.status).toBe(202);
    await runDueScans(t.services, now);
    const refused = await admin.get(`/api/v1/security/scans/${queued.body.id}`);
    const reason =
      `${name} now points to 127.0.0.2, but its proof of control vouches for 127.0.0.1. ` +
      'Nothing connects to it until an admin proves control again (Verify now).';
    expect(refused.body.scan).toMatchObject({ state: 'failed', error: `Nothing was scanned. ${reason}` });
    expect(theirs.connections).toBe(0);

    const shown = await admin.get(`/api/v1/security/assets/${asset.id}`);
    expect(shown.body).toMatchObject({
      verified: true,
      verification_state: 'renewal_needed',
      verified_addresses: ['127.0.0.1'],
      renewal_reason: reason,
      renewal_needed_at: new Date(now).toISOString(),
    });
    const again = await admin.post('/api/v1/security/scans', { asset_id: asset.id });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(`The proof of control of this host needs renewing: ${reason}`);
    const tls = await admin.post(`/api/v1/security/ssl/${asset.id}/check`);
    expect(tls.status).toBe(409);
    expect(tls.body.detail).toBe(`The proof of control of this host needs renewing: ${reason}`);
    expect(theirs.connections).toBe(0);
    const notes = await t.services.db.k
      .selectFrom('notifications')
      .select(['title', 'severity', 'action_url'])
      .where('user_id', '=', adminId)
      .where('type', '=', 'security_report')
      .execute();
    expect(notes).toContainEqual({ title: `The proof of control of ${name} needs renewing`, severity: 'medium', action_url: '/security' });

    // The admin proves control again: the new address is bound and the scan runs against it.
    const renewed = await admin.post(`/api/v1/security/assets/${asset.id}/verify`);
    expect(renewed.body).toMatchObject({ verification_state: 'verified', verified_addresses: ['127.0.0.2'], renewal_reason: null });
    later();
    const scan = await admin.post('/api/v1/security/scans', { asset_id: asset.id });
    expect(scan.status).toBe(202);
    await runDueScans(t.services, now);
    expect((await admin.get(`/api/v1/security/scans/${scan.body.id}`)).body.scan).toMatchObject({ state: 'done', error: null });
    expect(theirs.connections).toBeGreaterThan(0);
  });

  it('takes a file proof only when every address the name points to serves it, and binds those addresses', async () => {
    const name = 'two.acme-bind.test';
    dns.records.set(name, ['127.0.0.1', '127.0.0.2']);
    const { body: asset } = await admin.post('/api/v1/security/assets', { hostname: name, kind: 'host' });
    ours.proof = asset.proof.file_body;
    theirs.proof = undefined;
    const partial = await admin.post(`/api/v1/security/assets/${asset.id}/verify`);
    expect(partial.body.verified).toBe(false);
    expect(partial.body.last_verification_error).toContain(
      `${WELL_KNOWN_PATH} did not prove control: every address the name points to must serve it (127.0.0.2: https:`,
    );
    expect(partial.body.last_verification_error).toContain('http: HTTP 404).');

    later();
    theirs.proof = asset.proof.file_body;
    const both = await admin.post(`/api/v1/security/assets/${asset.id}/verify`);
    expect(both.body).toMatchObject({
      verified: true,
      verification_method: 'file',
      verification_state: 'verified',
      verified_addresses: ['127.0.0.1', '127.0.0.2'],
    });
  });

  it('has the daily re-check flag a re-pointed name without renewing its proof, and clear the flag once it points back', async () => {
    const name = 'job.acme-bind.test';
    dns.records.set(name, ['127.0.0.1']);
    const { body: asset } = await admin.post('/api/v1/security/assets', { hostname: name, kind: 'host' });
    dns.txt.set(name, [`statuswatch-verification=${asset.proof.file_body}`]);
    expect((await admin.post(`/api/v1/security/assets/${asset.id}/verify`)).body.verified_addresses).toEqual(['127.0.0.1']);

    dns.records.set(name, ['127.0.0.2']);
    now += 24 * 3_600_000 + 1000;
    await reverifyDueAssets(t.services, now);
    await signIn(admin, adminUser); // a day later: a new session
    const flagged = (await admin.get(`/api/v1/security/assets/${asset.id}`)).body;
    expect(flagged).toMatchObject({ verified: true, verification_state: 'renewal_needed', verified_addresses: ['127.0.0.1'] });
    expect(flagged.renewal_reason).toContain(`${name} now points to 127.0.0.2`);

    dns.records.set(name, ['127.0.0.1']);
    now += 24 * 3_600_000 + 1000;
    await reverifyDueAssets(t.services, now);
    await signIn(admin, adminUser);
    expect((await admin.get(`/api/v1/security/assets/${asset.id}`)).body).toMatchObject({
      verification_state: 'verified',
      verified_addresses: ['127.0.0.1'],
      renewal_reason: null,
      renewal_needed_at: null,
    });
  });
});
