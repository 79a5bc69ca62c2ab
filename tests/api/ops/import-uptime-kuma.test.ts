// Importing from Uptime Kuma on both databases, as an operator runs it: the CLI a real child
// process (`node src/server/cli/statuswatch.ts import uptime-kuma FILE`) talking to a real server
// over HTTP with an API token. The files are the committed fixtures: a kuma.db laid out by
// Uptime Kuma 2.x's own migrations (tests/fixtures/uptime-kuma/build-fixture.ts) and a 1.x JSON
// backup of the same monitors.
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { cli, ROOT } from '../../support/statuswatch-cli.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedUser, signIn } from '../../support/fixtures.ts';

const KUMA_DB = join(ROOT, 'tests/fixtures/uptime-kuma/kuma.db');
const KUMA_BACKUP = join(ROOT, 'tests/fixtures/uptime-kuma/kuma-backup-1.x.json');

/** Secrets of the fixture that no output may show. */
const SECRETS = [
  'KumaSlackSecret42',
  '123456789:AAEkumaTelegramBotTokenValue0123456',
  'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6',
  'akumaPushoverAppToken012345678',
  'ukumaPushoverUserKey0123456789',
  'kuma-basic-pass-7731',
  Buffer.from('monitor:kuma-basic-pass-7731').toString('base64'),
  'kuma-smtp-pass-9921',
];

const MONITORS_IMPORTED = [
  'API health',
  'Backend',
  'Chat socket',
  'Database',
  'EU',
  'Gateway',
  'Login page',
  'Mail DNS',
  'Nightly backup',
  'Old blog',
  'Production',
  'Website',
];

describe.each(DB_KINDS)('import from Uptime Kuma on %s', (kind) => {
  let t: TestApp;
  let dir: string;
  const tokens: Record<string, string> = {};
  const hosts: Record<string, string> = {};
  const clients: Record<string, ApiClient> = {};
  const env = (company: string, scope: 'read' | 'write' = 'write') => ({
    STATUSWATCH_URL: `http://${hosts[company]}:${t.port}`,
    STATUSWATCH_TOKEN: tokens[`${company}:${scope}`],
  });

  /** A company (on the given plan), its admin and its two API tokens, all made through the API. */
  async function company(root: ApiClient, subdomain: string, plan: 'starter' | 'enterprise') {
    const made = await root.post('/api/v1/admin/companies', {
      name: `Company ${subdomain}`,
      email: `hello@${subdomain}.example.com`,
      subdomain,
      plan,
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.plan).toBe(plan);
    const email = `admin@${subdomain}.example.com`;
    const user = await root.post('/api/v1/admin/users', {
      name: 'Admin',
      email,
      password: 'Good-password-1',
      user_type: '2',
      company_id: made.body.id,
    });
    expect(user.status, user.text).toBe(201);
    hosts[subdomain] = `${subdomain}.${t.config.productDomain}`;
    const admin = new ApiClient(t.baseUrl, hosts[subdomain]);
    await signIn(admin, { email, password: 'Good-password-1' });
    clients[subdomain] = admin;
    for (const scope of ['read', 'write']) {
      const r = await admin.post('/api/v1/api-tokens', { name: `cli ${scope}`, scope });
      expect(r.status, r.text).toBe(201);
      tokens[`${subdomain}:${scope}`] = r.body.token;
    }
  }

  const monitorsOf = async (c: string) => ((await clients[c].get('/api/v1/monitors?sort=name&order=asc')).body as any[]) ?? [];
  const expectNoSecrets = (text: string) => {
    for (const s of SECRETS) expect(text).not.toContain(s);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sw-kuma-'));
    // Private targets refused (the platform's default): the planted failure below relies on it.
    t = await startTestApp({ db: kind });
    const rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    const root = t.client();
    await signIn(root, rootUser);
    for (const c of ['acme', 'globex', 'initech']) await company(root, c, 'enterprise');
    // The Starter plan's 10 monitors are fewer than the fixture's 12.
    await company(root, 'hooli', 'starter');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a dry run (read token) lists what maps and what does not, and creates nothing', async () => {
    const r = await cli(['import', 'uptime-kuma', KUMA_DB, '--dry-run'], env('acme', 'read'));
    expect(r.code, r.stderr).toBe(0);
    const headlines = r.stdout.split('\n').filter((l) => /^[+~=-] /.test(l));
    expect(headlines).toEqual([
      '+ create monitor "Website"',
      '+ create monitor "API health"',
      '+ create monitor "Login page"',
      '+ create monitor "Database"',
      '+ create monitor "Gateway"',
      '+ create monitor "Mail DNS"',
      '+ create monitor "Nightly backup"',
      '+ create monitor "Backend"',
      '+ create monitor "Old blog"',
      '+ create monitor "Chat socket"',
      '+ create monitor "Production"',
      '+ create monitor "EU"',
      '+ create maintenance window "Database upgrade"',
      '+ create maintenance window "Weekly patching"',
      '+ create maintenance window "Monthly reboot (day 1)"',
      '+ create maintenance window "Monthly reboot (day 15)"',
      '+ create alert channel "Ops Slack"',
      '+ create alert channel "On-call mail"',
      '+ create alert channel "Telegram ops"',
      '+ create alert channel "PagerDuty"',
      '+ create alert channel "Pushover phone"',
      '+ create alert channel "Deploy hook"',
      '~ update status page "layout"',
    ]);
    expect(r.stdout).toContain('    headers: {"Authorization":"(secret)"}');
    expect(r.stdout).toContain('Not imported (17):');
    expect(r.stdout).toContain('  - monitor "Containers": our probes do not reach a Docker daemon\n');
    expect(r.stdout).toContain('  - monitor "Maintenance page": "upside down mode" (up when the check fails) is not available here\n');
    expect(r.stdout).toContain('  - monitor "Broker": no MQTT monitor kind\n');
    expect(r.stdout).toContain('  - alert channel "Apprise": no "apprise" channel type here\n');
    expect(r.stdout).toContain('  - alert channel "Old PagerDuty": routing_key: Integration key must be');
    expect(r.stdout).toContain('  - maintenance "Nightly cron": cron schedule "0 2 * * *": windows here repeat weekly or monthly\n');
    expect(r.stdout).toContain('  - monitor setting "API health": "ignore TLS/SSL errors": not available here');
    expect(r.stdout).toContain('Dry run: nothing was changed.');
    expectNoSecrets(r.stdout + r.stderr);
    expect(await monitorsOf('acme')).toEqual([]);
    expect((await clients.acme.get('/api/v1/alert-channels')).body).toEqual([]);
    expect((await clients.acme.get('/api/v1/maintenance-windows')).body).toEqual([]);
  }, 120_000);

  it('a read token is refused for the import itself, and nothing is created', async () => {
    const r = await cli(['import', 'uptime-kuma', KUMA_DB], env('acme', 'read'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The import stopped: POST /api/v1/monitors answered 403');
    expect(r.stderr).toContain('Nothing had been created.');
    expect(r.stderr).toContain('write scope');
    expect(await monitorsOf('acme')).toEqual([]);
  }, 120_000);

  it('the import creates the monitors, channels, windows and page; a second import changes nothing', async () => {
    const first = await cli(['import', 'uptime-kuma', KUMA_DB], env('acme'));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/push URL of monitor "Nightly backup" \(shown once\): http:\/\/\S+\/api\/v1\/push\/\S+\n/);
    expect(first.stdout).toContain('Imported: applied 23 changes');
    expectNoSecrets(first.stdout + first.stderr);

    const monitors = await monitorsOf('acme');
    const byName = Object.fromEntries(monitors.map((m) => [m.name, m]));
    const idOf = (n: string) => byName[n].id;
    expect(Object.keys(byName).sort()).toEqual(MONITORS_IMPORTED);
    expect(byName.Website).toMatchObject({
      type: 'http',
      url: 'https://www.example.com/',
      method: 'GET',
      headers: { 'X-Check': 'uptime-kuma' },
      accepted_status_codes: ['200-299'],
      follow_redirects: true,
      interval_seconds: 60,
      timeout_seconds: 48,
      confirmations: 3,
      is_public: true,
      is_paused: false,
    });
    expect(byName['API health']).toMatchObject({
      type: 'http',
      url: 'https://api.example.com/health',
      headers: { Authorization: `Basic ${Buffer.from('monitor:kuma-basic-pass-7731').toString('base64')}` },
      json_path: 'status',
      json_expected: 'ok',
      interval_seconds: 30,
      confirmations: 2,
    });
    expect(byName['Login page']).toMatchObject({
      type: 'http',
      method: 'POST',
      body: '{"probe": true}',
      keyword: 'Sign in',
      keyword_mode: 'present',
      follow_redirects: false,
      accepted_status_codes: ['200-299', '301'],
      confirmations: 1,
    });
    expect(byName.Database).toMatchObject({ type: 'tcp', host: 'db.example.com', port: 5432, interval_seconds: 30 });
    expect(byName.Gateway).toMatchObject({
      type: 'ping',
      host: 'gateway.example.com',
      interval_seconds: 120,
      confirmations: 4,
      is_public: false,
    });
    expect(byName['Mail DNS']).toMatchObject({ type: 'dns', host: 'example.com', record_type: 'MX', resolver: '1.1.1.1' });
    expect(byName['Nightly backup']).toMatchObject({ type: 'push', interval_seconds: 86400 });
    expect(byName['Old blog']).toMatchObject({ type: 'http', is_paused: true, interval_seconds: 300 });
    expect(byName['Chat socket']).toMatchObject({ type: 'websocket', url: 'wss://ws.example.com/socket' });
    expect(byName.Backend).toMatchObject({ type: 'group', group_rule: 'any' });
    expect([...byName.Backend.children].sort()).toEqual([idOf('API health'), idOf('Login page')].sort());
    expect([...byName.Production.children].sort()).toEqual([idOf('Website'), idOf('API health'), idOf('Database')].sort());
    expect(byName.EU.children).toEqual([idOf('Database')]);

    const channels = (await clients.acme.get('/api/v1/alert-channels')).body as any[];
    const ch = Object.fromEntries(channels.map((c) => [c.name, c]));
    expect(Object.keys(ch).sort()).toEqual(['Deploy hook', 'On-call mail', 'Ops Slack', 'PagerDuty', 'Pushover phone', 'Telegram ops']);
    expect(ch['Ops Slack']).toMatchObject({ type: 'slack', enabled: true });
    expect([...ch['Ops Slack'].monitor_ids].sort()).toEqual([idOf('Website'), idOf('API health'), idOf('Database')].sort());
    expect(ch['On-call mail']).toMatchObject({
      type: 'email',
      config: { to: ['oncall@example.com', 'ops@example.com'] },
      monitor_ids: [idOf('Website')],
    });
    expect(ch['Telegram ops']).toMatchObject({ type: 'telegram', config: { chat_id: '-1001234567890' }, monitor_ids: [idOf('Database')] });
    expect(ch['Pushover phone']).toMatchObject({ type: 'pushover', monitor_ids: [idOf('Nightly backup')] });
    expect(ch['Deploy hook']).toMatchObject({ type: 'webhook', config: { url: 'https://hooks.example.com/kuma' } });
    expect(JSON.stringify(channels)).not.toContain('KumaSlackSecret42');

    const windows = (await clients.acme.get('/api/v1/maintenance-windows')).body as any[];
    const w = Object.fromEntries(windows.map((x) => [x.title, x]));
    // 02:00-03:30 in Berlin (summer time) is 00:00-01:30 UTC.
    expect(w['Database upgrade']).toMatchObject({
      description: 'PostgreSQL 17',
      starts_at: '2030-06-10T00:00:00.000Z',
      ends_at: '2030-06-10T01:30:00.000Z',
      recurrence: null,
      monitor_ids: [idOf('Database')],
    });
    // Sundays 03:00-04:00 UTC, from the Kuma window's start date (2030-01-01, a Tuesday).
    expect(w['Weekly patching']).toMatchObject({
      starts_at: '2030-01-06T03:00:00.000Z',
      ends_at: '2030-01-06T04:00:00.000Z',
      recurrence: 'weekly',
    });
    expect([...w['Weekly patching'].monitor_ids].sort()).toEqual([idOf('Website'), idOf('Login page')].sort());
    expect(w['Monthly reboot (day 15)']).toMatchObject({
      starts_at: '2030-01-15T23:30:00.000Z',
      ends_at: '2030-01-16T00:30:00.000Z',
      recurrence: 'monthly',
    });

    const page = (await clients.acme.get('/api/v1/status-page/settings')).body;
    const groupName = (id: string | null) => page.groups.find((g: any) => g.id === id)?.name ?? null;
    const placed = Object.fromEntries(page.monitors.map((m: any) => [m.name, { group: groupName(m.group_id), is_public: m.is_public }]));
    expect(page.groups.map((g: any) => g.name)).toEqual(['Services', 'Infrastructure']);
    expect(placed.Website).toEqual({ group: 'Services', is_public: true });
    expect(placed['Login page']).toEqual({ group: 'Services', is_public: true });
    expect(placed['Mail DNS']).toEqual({ group: 'Infrastructure', is_public: true });
    expect(placed.Gateway).toEqual({ group: null, is_public: false });

    const again = await cli(['import', 'uptime-kuma', KUMA_DB], env('acme'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.split('\n').filter((l) => /^[+~-] /.test(l))).toEqual([]);
    expect(again.stdout).toContain('No changes.');
    expect((await monitorsOf('acme')).length).toBe(MONITORS_IMPORTED.length);
  }, 180_000);

  it('a refusal midway leaves nothing half-imported: what was created is archived, and a later import restores it', async () => {
    // Planted: "Database" (the fourth monitor) checks a private address, which this platform
    // refuses (ALLOW_PRIVATE_TARGETS unset) only when the monitor is created: the CLI cannot know.
    const planted = join(dir, 'planted.db');
    copyFileSync(KUMA_DB, planted);
    const db = new DatabaseSync(planted);
    db.prepare("UPDATE monitor SET hostname = '10.1.2.3' WHERE name = 'Database'").run();
    db.close();
    const r = await cli(['import', 'uptime-kuma', planted], env('globex'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The import stopped: POST /api/v1/monitors answered 400: Target refused: 10.1.2.3 is a private address');
    expect(r.stderr).toContain(
      'Undone (monitors archived, channels disabled, windows cancelled): monitor "Login page", monitor "API health", monitor "Website".',
    );
    expect(await monitorsOf('globex')).toEqual([]);
    expect((await clients.globex.get('/api/v1/alert-channels')).body).toEqual([]);
    expect((await clients.globex.get('/api/v1/maintenance-windows')).body).toEqual([]);
    const archived = (await clients.globex.get('/api/v1/monitors?archived=true')).body as any[];
    expect(archived.map((m) => m.name).sort()).toEqual(['API health', 'Login page', 'Website']);

    const fixed = await cli(['import', 'uptime-kuma', KUMA_DB], env('globex'));
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('~ restore monitor "Website"');
    expect((await monitorsOf('globex')).map((m) => m.name).sort()).toEqual(MONITORS_IMPORTED);
  }, 180_000);

  it('imports a 1.x JSON backup: monitors, notifications and their links, tags as groups', async () => {
    const dry = await cli(['import', 'uptime-kuma', KUMA_BACKUP, '--dry-run'], env('initech', 'read'));
    expect(dry.code, dry.stderr).toBe(0);
    expectNoSecrets(dry.stdout);
    const r = await cli(['import', 'uptime-kuma', KUMA_BACKUP], env('initech'));
    expect(r.code, r.stderr).toBe(0);
    expectNoSecrets(r.stdout + r.stderr);
    const monitors = await monitorsOf('initech');
    const byName = Object.fromEntries(monitors.map((m) => [m.name, m]));
    // 1.x backups hold no groups of monitors nor websocket monitors.
    expect(Object.keys(byName).sort()).toEqual(MONITORS_IMPORTED.filter((n) => n !== 'Backend' && n !== 'Chat socket'));
    expect(byName['Login page']).toMatchObject({ type: 'http', method: 'POST', keyword: 'Sign in', follow_redirects: false });
    expect(byName['API health']).toMatchObject({ json_path: 'status', json_expected: 'ok', confirmations: 2 });
    const channels = (await clients.initech.get('/api/v1/alert-channels')).body as any[];
    const slack = channels.find((c) => c.name === 'Ops Slack');
    expect([...slack.monitor_ids].sort()).toEqual([byName.Website.id, byName['API health'].id, byName.Database.id].sort());
    expect((await clients.initech.get('/api/v1/maintenance-windows')).body).toEqual([]);
    const again = await cli(['import', 'uptime-kuma', KUMA_BACKUP], env('initech'));
    expect(again.stdout).toContain('No changes.');
  }, 180_000);

  it('an import the plan has no room for is refused before anything is written', async () => {
    const r = await cli(['import', 'uptime-kuma', KUMA_DB], env('hooli'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Nothing was imported: the import adds 12 monitors and 0 are in use, but the starter plan allows 10.');
    expect(await monitorsOf('hooli')).toEqual([]);
    expect((await clients.hooli.get('/api/v1/alert-channels')).body).toEqual([]);
  }, 120_000);

  it('bad files get a clear message and exit code 2, and change nothing', async () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'these are not the monitors you are looking for\n');
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ monitors: [{ name: 'x' }] }));
    const future = join(dir, 'future.json');
    writeFileSync(future, JSON.stringify({ version: '2.1.0', notificationList: [], monitorList: [] }));
    const otherDb = join(dir, 'other.db');
    const o = new DatabaseSync(otherDb);
    o.exec('CREATE TABLE things (id INTEGER PRIMARY KEY)');
    o.close();
    const cases: [string, string][] = [
      [text, 'is neither an Uptime Kuma database (SQLite, data/kuma.db) nor its JSON backup'],
      [other, 'is JSON but not an Uptime Kuma backup'],
      [future, 'is a backup of Uptime Kuma version "2.1.0"; this importer reads backups of 1.6.0 to 1.23.x'],
      [otherDb, 'is an SQLite database but not Uptime Kuma\'s (it has no "monitor" table)'],
      [join(dir, 'missing.db'), 'Cannot read'],
    ];
    const runs = await Promise.all(cases.map(([path]) => cli(['import', 'uptime-kuma', path], env('hooli'))));
    cases.forEach(([path, message], i) => {
      expect(runs[i].code, path).toBe(2);
      expect(runs[i].stderr, path).toContain(message);
    });
    const usage = await cli(['import', 'nagios', KUMA_DB], env('hooli'));
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('import needs a source (uptime-kuma, statuspage) and a FILE.');
    expect(await monitorsOf('hooli')).toEqual([]);
  }, 120_000);
});
