// The console's import (POST /api/v1/imports) on both databases: a real server, the committed
// export fixtures uploaded as a browser does (multipart/form-data, session cookie, same origin),
// the import made through the platform's own routes with the caller's rights. Also the
// Statuspage source from the CLI (`import statuspage FILE`), which shares the table.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { cli, ROOT } from '../../support/statuswatch-cli.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedUser, signIn } from '../../support/fixtures.ts';

const KUMA_DB = join(ROOT, 'tests/fixtures/uptime-kuma/kuma.db');
const STATUSPAGE = join(ROOT, 'tests/fixtures/statuspage/statuspage-export.json');
const BETTER_STACK = join(ROOT, 'tests/fixtures/better-stack');
const UPTIMEROBOT_CSV = join(ROOT, 'tests/fixtures/uptimerobot/monitors.csv');
const KUMA_SECRETS = ['KumaSlackSecret42', '123456789:AAEkumaTelegramBotTokenValue0123456', 'kuma-basic-pass-7731'];

/** A multipart body as a browser's FormData sends it. */
async function multipart(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set('file', new Blob([Uint8Array.from(file.bytes)]), file.name);
  const req = new Request('http://upload.invalid/', { method: 'POST', body: form });
  return { raw: new Uint8Array(await req.arrayBuffer()), type: req.headers.get('content-type') as string };
}

describe.each(DB_KINDS)('import through the API on %s', (kind) => {
  let t: TestApp;
  let dir: string;
  const clients: Record<string, ApiClient> = {};
  const hosts: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  async function upload(who: string, fields: Record<string, string>, file?: string, name?: string) {
    const company = who.split(':')[0];
    const body = await multipart(fields, file ? { name: name ?? file.split('/').pop()!, bytes: readFileSync(file) } : undefined);
    const token = tokens[who];
    return (token ? t.client() : clients[who]).request('POST', '/api/v1/imports', {
      host: hosts[company],
      raw: body.raw,
      headers: { 'content-type': body.type, ...(token ? { authorization: `Bearer ${token}`, origin: '' } : {}) },
    });
  }
  const monitorsOf = async (c: string) =>
    ((await clients[c].get('/api/v1/monitors?sort=name&order=asc', { host: hosts[c] })).body as any[]) ?? [];

  async function company(root: ApiClient, subdomain: string) {
    const made = await root.post('/api/v1/admin/companies', {
      name: `Company ${subdomain}`,
      email: `hello@${subdomain}.example.com`,
      subdomain,
      plan: 'enterprise',
    });
    expect(made.status, made.text).toBe(201);
    hosts[subdomain] = `${subdomain}.${t.config.productDomain}`;
    for (const [who, type] of [
      [subdomain, '2'],
      [`${subdomain}-viewer`, '3'],
    ]) {
      const email = `${who}@${subdomain}.example.com`;
      const user = await root.post('/api/v1/admin/users', {
        name: who,
        email,
        password: 'Good-password-1',
        user_type: type,
        company_id: made.body.id,
      });
      expect(user.status, user.text).toBe(201);
      clients[who] = new ApiClient(t.baseUrl, hosts[subdomain]);
      await signIn(clients[who], { email, password: 'Good-password-1' });
    }
    hosts[`${subdomain}-viewer`] = hosts[subdomain];
    for (const scope of ['read', 'write']) {
      const r = await clients[subdomain].post('/api/v1/api-tokens', { name: `import ${scope}`, scope });
      expect(r.status, r.text).toBe(201);
      tokens[`${subdomain}:${scope}`] = r.body.token;
      hosts[`${subdomain}:${scope}`] = hosts[subdomain];
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sw-import-api-'));
    t = await startTestApp({ db: kind });
    const rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    const root = t.client();
    await signIn(root, rootUser);
    for (const c of ['acme', 'globex', 'initech']) await company(root, c);
    clients.root = root;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a dry run answers what maps and what is not imported, with no secret, and creates nothing', async () => {
    const r = await upload('acme', { source: 'uptime-kuma', dry_run: 'true' }, KUMA_DB);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ source: 'uptime-kuma', dry_run: true, applied: false, counts: { create: 22, update: 1, unchanged: 0 } });
    expect(r.body.changes.slice(0, 3).map((c: any) => `${c.action} ${c.what} ${c.name}`)).toEqual([
      'create monitor Website',
      'create monitor API health',
      'create monitor Login page',
    ]);
    expect(r.body.changes.find((c: any) => c.name === 'API health').details).toContain('headers: {"Authorization":"(secret)"}');
    expect(r.body.not_imported).toContainEqual({ what: 'monitor', name: 'Containers', why: 'our probes do not reach a Docker daemon' });
    for (const s of KUMA_SECRETS) expect(r.text).not.toContain(s);
    expect(await monitorsOf('acme')).toEqual([]);
  }, 120_000);

  it('the screen reads an UptimeRobot CSV export too: what maps, and nothing created by a dry run', async () => {
    const r = await upload('acme', { source: 'uptimerobot', dry_run: 'true' }, UPTIMEROBOT_CSV);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ source: 'uptimerobot', dry_run: true, applied: false });
    expect(r.body.counts.create).toBeGreaterThan(0);
    expect(r.body.changes.every((c: any) => c.action === 'create')).toBe(true);
    expect(await monitorsOf('acme')).toEqual([]);
  }, 120_000);

  it('reads Better Stack as one file of its API answers back to back (the upload cannot be a folder)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bs-bundle-'));
    const bundle = join(dir, 'better-stack.json');
    const parts = readdirSync(BETTER_STACK)
      .sort()
      .map((f) => readFileSync(join(BETTER_STACK, f), 'utf8'));
    writeFileSync(bundle, parts.join('\n'));
    const r = await upload('acme', { source: 'better-stack', dry_run: 'true' }, bundle);
    expect(r.status, r.text).toBe(200);
    const names = r.body.changes.filter((c: any) => c.what === 'monitor').map((c: any) => c.name);
    // monitors of both pages, a heartbeat and a group: every list of the folder reached the plan
    expect(names.length).toBeGreaterThanOrEqual(14);
    expect(r.body.changes.some((c: any) => c.what === 'status page')).toBe(true);
    expect(await monitorsOf('acme')).toEqual([]);
  }, 120_000);

  it('only company admins import; a read token may run a dry run only', async () => {
    const viewer = await upload('acme-viewer', { source: 'uptime-kuma', dry_run: 'true' }, KUMA_DB);
    expect(viewer.status).toBe(403);
    expect(viewer.body.detail).toBe('You do not have permission to import monitors.');
    const dry = await upload('acme:read', { source: 'statuspage', dry_run: 'true' }, STATUSPAGE);
    expect(dry.status, dry.text).toBe(200);
    const refused = await upload('acme:read', { source: 'statuspage', dry_run: 'false' }, STATUSPAGE);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('This API token is read-only: it may run a dry run; importing needs write scope.');
    const anonymous = await t
      .client()
      .request('POST', '/api/v1/imports', { host: hosts.acme, raw: 'x', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(anonymous.status).toBe(401);
    expect(await monitorsOf('acme')).toEqual([]);
  }, 120_000);

  it('imports a Statuspage export: components as paused push monitors on the page, by group; a second import changes nothing', async () => {
    const r = await upload('acme', { source: 'statuspage', dry_run: 'false' }, STATUSPAGE);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ applied: true, counts: { create: 9, update: 1 } });
    expect(r.body.changes.filter((c: any) => c.what === 'incident').map((c: any) => `${c.action} ${c.name}`)).toEqual([
      'create Webhook deliveries delayed (2026-10-14)',
      'create Login errors (2026-09-02)',
    ]);
    expect(r.body.notes.filter((n: string) => n.startsWith('push URL of monitor'))).toHaveLength(5);
    expect(r.body.not_imported).toContainEqual({
      what: 'subscriber',
      name: 'cara@customer.example',
      why: 'never confirmed the subscription on Statuspage (no consent to import)',
    });
    const monitors = await monitorsOf('acme');
    expect(monitors.map((m) => [m.name, m.type, m.is_paused, m.is_public])).toEqual([
      ['Dashboard', 'push', true, true],
      ['E-mail delivery', 'push', true, true],
      ['Login', 'push', true, true],
      ['REST API', 'push', true, true],
      ['Webhooks', 'push', true, true],
    ]);
    const page = (await clients.acme.get('/api/v1/status-page/settings')).body;
    const group = (id: string | null) => page.groups.find((g: any) => g.id === id)?.name ?? null;
    expect(page.groups.map((g: any) => g.name)).toEqual(['API', 'Web']);
    expect(Object.fromEntries(page.monitors.map((m: any) => [m.name, group(m.group_id)]))).toEqual({
      'REST API': 'API',
      Webhooks: 'API',
      Dashboard: 'Web',
      Login: 'Web',
      'E-mail delivery': null,
    });
    // Past incidents as they happened: resolved, their updates at their own times, on their monitors; nobody notified.
    const incidents = (await clients.acme.get('/api/v1/incidents')).body as any[];
    expect(incidents.map((i) => [i.title, i.status, i.started_at, i.resolved_at])).toEqual([
      ['Webhook deliveries delayed', 'resolved', '2026-10-14T09:05:00.000Z', '2026-10-14T11:40:00.000Z'],
      ['Login errors', 'resolved', '2026-09-02T17:55:00.000Z', '2026-09-02T18:45:00.000Z'],
    ]);
    const webhooks = (await clients.acme.get(`/api/v1/incidents/${incidents[0].id}`)).body;
    expect(webhooks.updates.map((u: any) => [u.status, u.created_at, u.message])).toEqual([
      ['investigating', '2026-10-14T09:12:00.000Z', 'Webhook deliveries are delayed by up to 20 minutes.'],
      ['monitoring', '2026-10-14T10:30:00.000Z', 'A fix is deployed; we are watching the queue.'],
      ['resolved', '2026-10-14T11:40:00.000Z', 'Deliveries are back to normal.'],
    ]);
    expect(webhooks.monitors.map((m: any) => m.name)).toEqual(['Webhooks']);
    // Subscribers: only those who confirmed on Statuspage, stored confirmed at their own time.
    const subs = (await clients.acme.get('/api/v1/subscribers')).body.subscribers as any[];
    expect(subs.map((x) => [x.email, x.state, x.confirmed_at]).sort()).toEqual([
      ['ana@customer.example', 'confirmed', '2025-03-01T12:00:00.000Z'],
      ['ben@customer.example', 'confirmed', '2025-04-11T08:30:00.000Z'],
    ]);
    const audit = await clients.root.get('/api/v1/admin/audit?event=data_import');
    expect(audit.body.items.map((a: any) => a.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'statuspage', file: 'statuspage-export.json', applied: true, create: 9 }),
        { what: 'confirmed subscribers', created: 2 },
        { what: 'past incidents', created: 2 },
      ]),
    );

    const again = await upload('acme', { source: 'statuspage', dry_run: 'false' }, STATUSPAGE);
    expect(again.status, again.text).toBe(200);
    expect(again.body.applied).toBe(false);
    expect(again.body.changes.filter((c: any) => c.action !== 'unchanged')).toEqual([]);
    expect((await monitorsOf('acme')).length).toBe(5);
    expect(((await clients.acme.get('/api/v1/incidents')).body as any[]).length).toBe(2);
    expect((await clients.acme.get('/api/v1/subscribers')).body.subscribers.length).toBe(2);
  }, 180_000);

  it('a past incident the server refuses stops the import before any write', async () => {
    // Planted: an incident "resolved" in the future, which only the server refuses (history only);
    // its check runs with the plan, so nothing at all is written.
    const planted = JSON.parse(readFileSync(STATUSPAGE, 'utf8'));
    planted.incidents[1].resolved_at = '2099-09-02T18:45:00.000Z';
    const file = join(dir, 'planted.json');
    writeFileSync(file, JSON.stringify(planted));
    const r = await upload('initech', { source: 'statuspage', dry_run: 'false' }, file);
    expect(r.status).toBe(409);
    expect(r.body.detail).toBe(
      'Nothing was imported: POST /api/v1/imports/incidents answered 400: incidents[1]: a past incident starts before it is resolved, and both are in the past. {"incidents[1]":"Not a past incident."}',
    );
    expect(await monitorsOf('initech')).toEqual([]);
    expect((await clients.initech.get('/api/v1/incidents')).body).toEqual([]);
  }, 180_000);

  it('a refusal midway leaves nothing half-imported: what was created is archived, the answer says so', async () => {
    // Planted: "Database" checks a private address, refused by the platform only when created.
    const planted = join(dir, 'planted.db');
    copyFileSync(KUMA_DB, planted);
    const db = new DatabaseSync(planted);
    db.prepare("UPDATE monitor SET hostname = '10.1.2.3' WHERE name = 'Database'").run();
    db.close();
    const r = await upload('globex', { source: 'uptime-kuma', dry_run: 'false' }, planted, 'kuma.db');
    expect(r.status).toBe(409);
    expect(r.body.detail).toContain(
      'The import stopped: POST /api/v1/monitors answered 400: Target refused: 10.1.2.3 is a private address',
    );
    expect(r.body.detail).toContain(
      'Undone (monitors archived, channels disabled, windows cancelled): monitor "Login page", monitor "API health", monitor "Website".',
    );
    for (const s of KUMA_SECRETS) expect(r.text).not.toContain(s);
    expect(await monitorsOf('globex')).toEqual([]);
    expect((await clients.globex.get('/api/v1/alert-channels')).body).toEqual([]);
    const archived = (await clients.globex.get('/api/v1/monitors?archived=true')).body as any[];
    expect(archived.map((m) => m.name).sort()).toEqual(['API health', 'Login page', 'Website']);
    const audit = await clients.root.get('/api/v1/admin/audit?event=data_import');
    expect(audit.body.items[0].details).toMatchObject({ source: 'uptime-kuma', applied: false });
  }, 180_000);

  it('a wrong, empty, oversized or non-multipart upload gets a clear problem and changes nothing', async () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'these are not the monitors you are looking for\n');
    const wrong = await upload('initech', { source: 'statuspage' }, text);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.file).toBe('notes.txt is not a Statuspage export: it is not JSON.');
    const kumaAsStatuspage = await upload('initech', { source: 'uptime-kuma' }, STATUSPAGE);
    expect(kumaAsStatuspage.status).toBe(400);
    expect(kumaAsStatuspage.body.errors.file).toBe(
      'statuspage-export.json is JSON but not an Uptime Kuma backup: a backup (Settings, Backup, Export in Uptime Kuma 1.x) has "version", "notificationList" and "monitorList".',
    );
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '');
    expect((await upload('initech', { source: 'statuspage' }, empty)).body.errors).toEqual({ file: 'The file is empty.' });
    expect((await upload('initech', { source: 'nagios' }, STATUSPAGE)).body.errors).toEqual({ source: 'Unknown tool.' });
    expect((await upload('initech', { source: 'statuspage' })).body.errors).toEqual({ file: 'Choose the export file to upload.' });
    const big = join(dir, 'big.json');
    writeFileSync(big, Buffer.alloc(21 * 1024 * 1024, 32));
    const tooBig = await upload('initech', { source: 'statuspage' }, big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.detail).toContain('The file is larger than 20 MB.');
    const json = await clients.initech.post('/api/v1/imports', { source: 'statuspage' });
    expect(json.status).toBe(415);
    expect(json.body.detail).toBe("Unsupported content type 'application/json'; send the file as multipart/form-data.");
    expect(await monitorsOf('initech')).toEqual([]);
    // Every upload's private copy is gone (the server's temporary directories are sw-import-<random>).
    expect(readdirSync(tmpdir()).filter((n) => /^sw-import-(?!api-)/.test(n))).toEqual([]);
  }, 120_000);

  it('the CLI imports a Statuspage export through the same table', async () => {
    const env = { STATUSWATCH_URL: `http://${hosts.initech}:${t.port}`, STATUSWATCH_TOKEN: tokens['initech:write'] };
    const dry = await cli(['import', 'statuspage', STATUSPAGE, '--dry-run'], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+ create monitor "REST API"');
    expect(dry.stdout).toContain('  - subscriber "dan@bounced.example": quarantined on Statuspage (it could not be reached)\n');
    expect(dry.stdout).toContain('Dry run: nothing was changed.');
    const r = await cli(['import', 'statuspage', STATUSPAGE], env);
    expect(r.code, r.stderr).toBe(0);
    expect((await monitorsOf('initech')).map((m) => m.name)).toEqual(['Dashboard', 'E-mail delivery', 'Login', 'REST API', 'Webhooks']);
    const bad = await cli(['import', 'statuspage', KUMA_DB], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a Statuspage export: it is not JSON.');
  }, 180_000);
});
