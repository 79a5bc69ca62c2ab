// The security suite's assets and findings over HTTP on both databases: a company registers a
// domain, proves control with a TXT record served by a loopback DNS server (a wrong token is
// refused by name) or with the well-known file on a loopback web server; a host under a verified
// domain is covered by it; the daily re-verification takes the verification away when the proof
// is gone and tells the admins; unverified assets get no traffic but the proof lookup and never
// reach the jobs; companies never see or change each other's assets or findings; viewers only
// read; accepting a finding's risk needs a reason; viewing findings is audited.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WELL_KNOWN_PATH } from '../../../src/lib/security-assets.ts';
import { securityAssetsRepo } from '../../../src/server/db/repositories/security-assets-repo.ts';
import { securityFindingsRepo } from '../../../src/server/db/repositories/security-findings-repo.ts';
import { companiesRepo } from '../../../src/server/db/repositories/companies-repo.ts';
import { flagsRepo } from '../../../src/server/db/repositories/flags-repo.ts';
import { reverifyDueAssets } from '../../../src/server/domain/security/verification.ts';
import { startDnsServer, type DnsTarget } from '../../fixtures/targets/dns-targets.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startTestApp, type ApiResponse, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';

type Answer = Promise<ApiResponse<any>>;
interface As {
  get(p: string): Answer;
  post(p: string, b?: unknown): Answer;
  patch(p: string, b?: unknown): Answer;
  del(p: string): Answer;
}

async function as(t: TestApp, user: { email: string; password: string }, host?: string): Promise<As> {
  const c = t.client();
  await signIn(c, user, host);
  const o = host ? { host } : {};
  return {
    get: (p) => c.get(p, o),
    post: (p, b) => c.post(p, b ?? {}, o),
    patch: (p, b) => c.patch(p, b, o),
    del: (p) => c.delete(p, o),
  };
}

/** A web server on loopback that serves the well-known file (body per host) and notes every request. */
async function startProofServer() {
  const files = new Map<string, string>();
  /** host → where its file redirects */
  const redirects = new Map<string, string>();
  const requests: Array<{ host: string; path: string }> = [];
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    requests.push({ host, path: req.url ?? '' });
    const body = files.get(host);
    const to = redirects.get(host);
    if (to) return void res.writeHead(302, { location: to }).end();
    if (req.url === WELL_KNOWN_PATH && body !== undefined) return void res.end(body);
    res.statusCode = 404;
    res.end('not here');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    files,
    redirects,
    requests,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** A port nothing listens on (https proofs fail fast with "Connection refused"). */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe.each(DB_KINDS)('security assets and findings on %s', (kind) => {
  let t: TestApp;
  let dns: DnsTarget;
  let web: Awaited<ReturnType<typeof startProofServer>>;
  let now = Date.UTC(2026, 10, 24, 12, 0, 0);
  let acmeId: string;
  let globexId: string;
  let acmeAdminId: string;
  let acmeAdmin: As;
  let acmeViewer: As;
  let globexAdmin: As;
  let root: As;

  beforeAll(async () => {
    [dns, web] = await Promise.all([startDnsServer({ answer: true }), startProofServer()]);
    t = await startTestApp({
      db: kind,
      now: () => now,
      env: { DNS_RESOLVERS: `127.0.0.1:${dns.port}`, ALLOW_PRIVATE_TARGETS: 'true' },
    });
    t.services.securityVerification = { ports: { http: web.port, https: await closedPort() } };
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    const globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    acmeId = acme.id;
    globexId = globex.id;
    const admin = await seedUser(t.services, { userType: 2, companyId: acme.id });
    acmeAdminId = admin.id;
    acmeAdmin = await as(t, admin, 'acme.localhost');
    acmeViewer = await as(t, await seedUser(t.services, { userType: 3, companyId: acme.id }), 'acme.localhost');
    globexAdmin = await as(t, await seedUser(t.services, { userType: 2, companyId: globex.id }), 'globex.localhost');
    root = await as(t, await seedUser(t.services, { userType: 1 }));
  });
  afterAll(async () => {
    await Promise.all([dns?.close(), web?.close()]);
    await t?.close();
  });

  /** The next "Verify now" is allowed (one lookup per asset every 10 s). */
  const later = () => {
    now += 11_000;
  };

  it('verifies a domain by its TXT record, refusing a wrong token by name, and covers the hosts under it', async () => {
    const created = await acmeAdmin.post('/api/v1/security/assets', { hostname: 'Acme-Shop.TEST.', kind: 'domain' });
    expect(created.status).toBe(201);
    const asset = created.body;
    expect(asset).toMatchObject({
      hostname: 'acme-shop.test',
      kind: 'domain',
      verified: false,
      verified_at: null,
      verification_method: null,
    });
    const token = asset.proof.file_body as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(asset.proof).toEqual({
      txt_name: 'acme-shop.test',
      txt_alt_name: '_statuswatch.acme-shop.test',
      txt_value: `statuswatch-verification=${token}`,
      file_url: `https://acme-shop.test${WELL_KNOWN_PATH}`,
      file_body: token,
    });

    const none = await acmeAdmin.post(`/api/v1/security/assets/${asset.id}/verify`);
    expect(none.status).toBe(200);
    expect(none.body.verified).toBe(false);
    expect(none.body.last_verification_error).toContain(`DNS: no TXT record statuswatch-verification=${token}`);
    expect(none.body.last_verification_error).toContain('http: HTTP 404');
    expect((await acmeAdmin.post(`/api/v1/security/assets/${asset.id}/verify`)).status).toBe(429);

    later();
    dns.txt.set('acme-shop.test', ['v=spf1 -all', 'statuswatch-verification=someone-elses-token']);
    const wrong = await acmeAdmin.post(`/api/v1/security/assets/${asset.id}/verify`);
    expect(wrong.body.verified).toBe(false);
    expect(wrong.body.last_verification_error).toContain(
      `DNS: a statuswatch-verification= TXT record was found, but its token is not this asset's (publish statuswatch-verification=${token}).`,
    );

    later();
    dns.txt.set('_statuswatch.acme-shop.test', [`statuswatch-verification=${token}`]);
    const ok = await acmeAdmin.post(`/api/v1/security/assets/${asset.id}/verify`);
    expect(ok.body).toMatchObject({
      verified: true,
      verification_method: 'dns',
      verified_at: new Date(now).toISOString(),
      last_verification_error: null,
    });

    const host = await acmeAdmin.post('/api/v1/security/assets', { hostname: 'www.acme-shop.test', kind: 'host' });
    expect(host.body).toMatchObject({ verified: true, verification_method: 'domain' });
    const elsewhere = await acmeAdmin.post('/api/v1/security/assets', { hostname: 'www.acme-shop.example', kind: 'host' });
    expect(elsewhere.body).toMatchObject({ verified: false, verification_method: null });

    expect((await acmeAdmin.post('/api/v1/security/assets', { hostname: 'acme-shop.test', kind: 'domain' })).status).toBe(409);
    for (const bad of ['https://acme.test/x', '10.0.0.1', 'localhost', 'a b.test', ''])
      expect((await acmeAdmin.post('/api/v1/security/assets', { hostname: bad, kind: 'host' })).status, bad).toBe(400);
  });

  it('verifies a host by the well-known file, and says so when the file lacks the token', async () => {
    const { body: asset } = await acmeAdmin.post('/api/v1/security/assets', { hostname: 'files.acme-elsewhere.test', kind: 'host' });
    web.files.set('files.acme-elsewhere.test', 'nothing to see');
    const wrong = await acmeAdmin.post(`/api/v1/security/assets/${asset.id}/verify`);
    expect(wrong.body.verified).toBe(false);
    expect(wrong.body.last_verification_error).toContain("http: the file was found, but it does not contain this asset's token");
    expect(wrong.body.last_verification_error).toContain('https: Connection refused');

    later();
    web.files.set('files.acme-elsewhere.test', `${asset.proof.file_body}\n`);
    const ok = await acmeAdmin.post(`/api/v1/security/assets/${asset.id}/verify`);
    expect(ok.body).toMatchObject({ verified: true, verification_method: 'file' });
    // The only requests the host got: the proof's one path.
    const seen = web.requests.filter((r) => r.host === 'files.acme-elsewhere.test');
    expect(seen.map((r) => r.path)).toEqual([WELL_KNOWN_PATH, WELL_KNOWN_PATH]);
  });

  it('follows no redirect to another host and reads no more than 4 KiB of the file', async () => {
    const { body: moved } = await acmeAdmin.post('/api/v1/security/assets', { hostname: 'moved.acme-hostile.test', kind: 'host' });
    web.files.set('proof.attacker.test', moved.proof.file_body);
    web.redirects.set('moved.acme-hostile.test', `http://proof.attacker.test:${web.port}${WELL_KNOWN_PATH}`);
    const redirected = await acmeAdmin.post(`/api/v1/security/assets/${moved.id}/verify`);
    expect(redirected.body.verified).toBe(false);
    expect(redirected.body.last_verification_error).toContain(
      'http: redirected to another host (only redirects on the same host are followed)',
    );
    expect(web.requests.filter((r) => r.host === 'proof.attacker.test')).toEqual([]);

    const { body: big } = await acmeAdmin.post('/api/v1/security/assets', { hostname: 'big.acme-hostile.test', kind: 'host' });
    web.files.set('big.acme-hostile.test', `${'x'.repeat(5000)}${big.proof.file_body}`);
    const tooBig = await acmeAdmin.post(`/api/v1/security/assets/${big.id}/verify`);
    expect(tooBig.body.verified).toBe(false);
    expect(tooBig.body.last_verification_error).toContain('http: the file is larger than 4096 bytes');
  });

  it('does nothing to an unverified asset but look for its proof, and keeps it from the jobs', async () => {
    const { body: asset } = await acmeAdmin.post('/api/v1/security/assets', { hostname: 'quiet.acme-other.test', kind: 'host' });
    const asked = dns.asked.length;
    const requests = web.requests.length;
    await acmeAdmin.post(`/api/v1/security/assets/${asset.id}/verify`);
    // TXT questions for the name and _statuswatch.<name>, the address to fetch the file from: nothing else.
    expect(new Set(dns.asked.slice(asked))).toEqual(new Set(['quiet.acme-other.test', '_statuswatch.quiet.acme-other.test']));
    expect(web.requests.slice(requests)).toEqual([{ host: 'quiet.acme-other.test', path: WELL_KNOWN_PATH }]);
    const verified = (await securityAssetsRepo(t.services.db).listVerified()).map((a) => a.hostname);
    expect(verified).not.toContain('quiet.acme-other.test');
    expect(verified).not.toContain('www.acme-shop.example');
    expect(verified).toEqual(expect.arrayContaining(['acme-shop.test', 'www.acme-shop.test', 'files.acme-elsewhere.test']));
  });

  it('takes the verification away when the proof is gone on the daily re-check, and tells the admins', async () => {
    const assets = securityAssetsRepo(t.services.db);
    dns.txt.delete('_statuswatch.acme-shop.test');
    web.files.delete('files.acme-elsewhere.test');
    const day = now + 24 * 3_600_000 + 1000;
    const counts = await reverifyDueAssets(t.services, day);
    expect(counts.lost).toBe(2); // the domain and the file-verified host; the covered host rides along
    const byName = new Map((await assets.list(acmeId)).map((a) => [a.hostname, a]));
    for (const name of ['acme-shop.test', 'www.acme-shop.test', 'files.acme-elsewhere.test']) {
      expect(byName.get(name)?.verified_at, name).toBeNull();
      expect(byName.get(name)?.last_verification_at, name).toBe(day);
    }
    expect((await assets.listVerified(acmeId)).map((a) => a.hostname)).toEqual([]);
    const notes = await t.services.db.k
      .selectFrom('notifications')
      .select(['title', 'type', 'severity', 'action_url'])
      .where('user_id', '=', acmeAdminId)
      .orderBy('title')
      .execute();
    expect(notes).toEqual([
      { title: 'acme-shop.test is no longer verified', type: 'security_report', severity: 'high', action_url: '/security' },
      { title: 'files.acme-elsewhere.test is no longer verified', type: 'security_report', severity: 'high', action_url: '/security' },
      { title: 'www.acme-shop.test is no longer verified', type: 'security_report', severity: 'high', action_url: '/security' },
    ]);
    // Nothing is due again until a day later.
    expect(await reverifyDueAssets(t.services, day + 60_000)).toEqual({ verified: 0, confirmed: 0, lost: 0, unverified: 0 });
  });

  it('keeps companies apart: another company never sees or changes these assets or findings, and proves control for itself', async () => {
    const [mine] = (await acmeAdmin.get('/api/v1/security/assets')).body.assets;
    await securityAssetsRepo(t.services.db).markVerified(mine.id, 'dns', now);
    await securityFindingsRepo(t.services.db).record(
      { id: mine.id, company_id: acmeId },
      'scan',
      [
        { key: 'path./.env', severity: 'critical', title: 'Exposed .env file', evidence: 'GET /.env answered 200 with DB_PASSWORD=' },
        { key: 'header.csp', severity: 'medium', title: 'No Content-Security-Policy', evidence: 'no header' },
      ],
      now,
    );
    const [finding] = (await acmeAdmin.get('/api/v1/security/findings')).body.findings;

    expect((await globexAdmin.get('/api/v1/security/assets')).body.assets).toEqual([]);
    expect((await globexAdmin.get(`/api/v1/security/assets/${mine.id}`)).status).toBe(404);
    expect((await globexAdmin.post(`/api/v1/security/assets/${mine.id}/verify`)).status).toBe(404);
    expect((await globexAdmin.get('/api/v1/security/findings')).body).toEqual({ findings: [], total: 0 });
    expect((await globexAdmin.get(`/api/v1/security/findings?tenant=${acmeId}`)).body.total).toBe(0);
    expect((await globexAdmin.patch(`/api/v1/security/findings/${finding.id}`, { status: 'accepted', reason: 'mine now' })).status).toBe(
      404,
    );

    const same = await globexAdmin.post('/api/v1/security/assets', { hostname: mine.hostname, kind: mine.kind, company_id: acmeId });
    expect(same.status).toBe(201);
    expect(same.body).toMatchObject({ company_id: globexId, verified: false });
    expect(same.body.proof.file_body).not.toBe(mine.proof.file_body);
  });

  it('lets viewers read only, and an admin accept a risk only with a reason, then reopen it', async () => {
    const list = await acmeViewer.get('/api/v1/security/findings?severity=critical');
    expect(list.body.findings.map((f: any) => [f.title, f.severity, f.status, f.hostname])).toEqual([
      ['Exposed .env file', 'critical', 'open', 'acme-shop.test'],
    ]);
    const id = list.body.findings[0].id;
    const assetId = list.body.findings[0].asset_id;
    expect((await acmeViewer.get(`/api/v1/security/findings?asset=${assetId}&source=scan`)).body.total).toBe(2);
    expect((await acmeViewer.get(`/api/v1/security/findings?asset=${assetId}&source=ssl`)).body.total).toBe(0);
    const assets = (await acmeViewer.get('/api/v1/security/assets')).body.assets;
    expect(assets.find((a: any) => a.hostname === 'acme-shop.test').summary.open_findings).toEqual({
      critical: 1,
      high: 0,
      medium: 1,
      low: 0,
      info: 0,
    });
    expect((await acmeViewer.post('/api/v1/security/assets', { hostname: 'x.acme.test', kind: 'host' })).status).toBe(403);
    expect((await acmeViewer.post(`/api/v1/security/assets/${assets[0].id}/verify`)).status).toBe(403);
    expect((await acmeViewer.patch(`/api/v1/security/findings/${id}`, { status: 'accepted', reason: 'fine' })).status).toBe(403);

    const noReason = await acmeAdmin.patch(`/api/v1/security/findings/${id}`, { status: 'accepted', reason: '   ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.detail).toBe('Say why the risk is accepted: a reason is required.');
    const accepted = await acmeAdmin.patch(`/api/v1/security/findings/${id}`, {
      status: 'accepted',
      reason: 'Dummy values on a test host',
    });
    expect(accepted.body).toMatchObject({ status: 'accepted', status_reason: 'Dummy values on a test host' });
    expect((await acmeAdmin.get('/api/v1/security/findings?status=open')).body.findings.map((f: any) => f.title)).toEqual([
      'No Content-Security-Policy',
    ]);
    const reopened = await acmeAdmin.patch(`/api/v1/security/findings/${id}`, { status: 'open' });
    expect(reopened.body).toMatchObject({ status: 'open', status_reason: null });

    const views = await t.services.db.k
      .selectFrom('audit_events')
      .select(['tenant_id', 'source'])
      .where('event', '=', 'vulnerability_view')
      .execute();
    expect(views.length).toBeGreaterThanOrEqual(4);
    expect(views.every((v) => v.source === 'server')).toBe(true);
  });

  it('gives super admins every company or the chosen one, and the removal of assets', async () => {
    const all = (await root.get('/api/v1/security/assets')).body.assets;
    expect(new Set(all.map((a: any) => a.company_id))).toEqual(new Set([acmeId, globexId]));
    const globexOnly = (await root.get(`/api/v1/security/assets?tenant=${globexId}`)).body.assets;
    expect(globexOnly.map((a: any) => a.hostname)).toEqual(['acme-shop.test']);
    expect((await root.post('/api/v1/security/assets', { hostname: 'root.acme.test', kind: 'host' })).status).toBe(400);
    const made = await root.post('/api/v1/security/assets', { hostname: 'root.acme.test', kind: 'host', company_id: acmeId });
    expect(made.body.company_id).toBe(acmeId);

    expect((await acmeAdmin.del(`/api/v1/security/assets/${made.body.id}`)).status).toBe(403);
    expect((await root.del(`/api/v1/security/assets/${made.body.id}`)).status).toBe(204);
    expect((await acmeAdmin.get(`/api/v1/security/assets/${made.body.id}`)).status).toBe(404);
  });

  it('shows each analysis only while its flag is on, answers 404 with every one off, and 403 to a company without the security service', async () => {
    const flags = flagsRepo(t.services.db);
    const set = async (name: string, on: boolean) => flags.upsert(name, on, now, 'test');
    await set('ENABLE_VULNERABILITY_SCANS', false);
    const partial = (await acmeAdmin.get('/api/v1/security/assets')).body;
    expect(partial.sections).toEqual({ ssl: true, dns: true, scan: false, threat: true });
    expect(partial.assets.find((a: any) => a.hostname === 'acme-shop.test').summary.open_findings.critical).toBe(0);
    expect((await acmeAdmin.get('/api/v1/security/findings')).body.total).toBe(0);
    for (const f of ['ENABLE_SSL_MONITORING', 'ENABLE_DOMAIN_CHECKS', 'ENABLE_THREAT_INTELLIGENCE']) await set(f, false);
    const off = await acmeAdmin.get('/api/v1/security/assets');
    expect(off.status).toBe(404);
    expect(off.body.detail).toBe('The security suite is switched off on this platform.');
    for (const f of ['ENABLE_VULNERABILITY_SCANS', 'ENABLE_SSL_MONITORING', 'ENABLE_DOMAIN_CHECKS', 'ENABLE_THREAT_INTELLIGENCE'])
      await set(f, true);

    await companiesRepo(t.services.db).update(acmeId, { services: JSON.stringify({ monitor: true, security: false, data_breach: false }) });
    const refused = await acmeAdmin.get('/api/v1/security/assets');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("The security suite is not part of your company's services. Ask your platform administrator.");
    expect((await acmeViewer.get('/api/v1/security/findings')).status).toBe(403);
    expect((await root.get(`/api/v1/security/assets?tenant=${acmeId}`)).status).toBe(200);
    await companiesRepo(t.services.db).update(acmeId, { services: JSON.stringify({ monitor: true, security: true, data_breach: false }) });
  });
});
