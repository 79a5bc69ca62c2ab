// Probe locations for protocol and process tests (issue 27): a public location (`eu-west`) made by
// the super admin, a private `lab` for each of two companies, a token for each, and a probe call
// (its token alone, no cookie, no Origin) whose answer is checked against the contract.
import { assertMatchesContract } from './contract.ts';
import { seedCompany, seedUser, signIn } from './fixtures.ts';
import { type ApiClient, rawRequest, type TestApp } from './test-app.ts';

export const ACME = { host: 'acme.localhost' };
export const GLOBEX = { host: 'globex.localhost' };

export interface ProbeWorld {
  root: ApiClient;
  acmeAdmin: ApiClient;
  globexAdmin: ApiClient;
  acme: { id: string };
  globex: { id: string };
  euWest: { id: string; token: string };
  acmeLab: { id: string; token: string };
  globexLab: { id: string; token: string };
}

async function location(admin: ApiClient, body: { name: string; slug: string; private: boolean }, host?: { host: string }) {
  const loc = await admin.post('/api/v1/probe-locations', body, host);
  if (loc.status !== 201) throw new Error(`location ${body.slug}: ${loc.status} ${loc.text}`);
  const tok = await admin.post(`/api/v1/probe-locations/${loc.body.id}/tokens`, { name: 'rack 1' }, host);
  if (tok.status !== 201) throw new Error(`token ${body.slug}: ${tok.status} ${tok.text}`);
  return { id: loc.body.id as string, token: tok.body.token as string };
}

export async function seedProbeWorld(t: TestApp): Promise<ProbeWorld> {
  const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
  const globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
  const root = t.client();
  await signIn(root, await seedUser(t.services, { userType: 1 }));
  const acmeAdmin = t.client();
  await signIn(acmeAdmin, await seedUser(t.services, { userType: 2, companyId: acme.id }), ACME.host);
  const globexAdmin = t.client();
  await signIn(globexAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }), GLOBEX.host);
  return {
    root,
    acmeAdmin,
    globexAdmin,
    acme,
    globex,
    euWest: await location(root, { name: 'Frankfurt', slug: 'eu-west', private: false }),
    acmeLab: await location(acmeAdmin, { name: 'Acme lab', slug: 'lab', private: true }, ACME),
    globexLab: await location(globexAdmin, { name: 'Globex lab', slug: 'lab', private: true }, GLOBEX),
  };
}

/** A monitor made through the API, then given its locations (the API to choose them is another part of issue 27). */
export async function seedLocatedMonitor(
  t: TestApp,
  admin: ApiClient,
  host: { host: string },
  over: { name: string; url?: string; interval_seconds?: number; timeout_seconds?: number; confirmations?: number },
  locations: string[] | null,
): Promise<string> {
  const m = await admin.post(
    '/api/v1/monitors',
    { type: 'http', url: 'http://example.com/', interval_seconds: 60, is_public: false, ...over },
    host,
  );
  if (m.status !== 201) throw new Error(`monitor ${over.name}: ${m.status} ${m.text}`);
  await setLocations(t, m.body.id, locations);
  return m.body.id as string;
}

export async function setLocations(t: TestApp, monitorId: string, locations: string[] | null): Promise<void> {
  await t.services.db.k
    .updateTable('monitors')
    .set({ locations: locations === null ? null : JSON.stringify(locations), run_local: (locations ?? ['local']).includes('local') })
    .where('id', '=', monitorId)
    .execute();
}

/** A probe's call, checked against the contract; `body` as a string is sent as is. */
export async function probeCall(t: TestApp, token: string | null, method: 'GET' | 'POST', path: string, body?: unknown) {
  const headers: Record<string, string> = { host: `localhost:${t.port}` };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await rawRequest(
    `${t.baseUrl}${path}`,
    method,
    headers,
    body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  );
  const json = r.text ? JSON.parse(r.text) : null;
  await assertMatchesContract(method, path.split('?')[0], r.status, r.headers.get('content-type') ?? '', json);
  return { status: r.status, body: json };
}
