// Importing from Better Stack Uptime on both databases, as an operator runs it: the CLI a real
// child process (`node src/server/cli/statuswatch.ts import better-stack FOLDER`) talking to a
// real server over HTTP with an API token. The folder is the committed fixture: Better Stack's
// API answers (JSON:API) as the curl commands of docs/features/importers.md save them, built
// from Better Stack's documented attributes (monitors, heartbeats, monitor groups, status pages,
// sections, resources); the monitors come in two pages (monitors.json, monitors-2.json).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUser, signIn } from '../../support/fixtures.ts';
import { importCompanies } from '../../support/import-test-companies.ts';
import { cli, ROOT } from '../../support/statuswatch-cli.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { type ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

const FOLDER = join(ROOT, 'tests/fixtures/better-stack');

/** Secrets of the fixture that no output may show. */
const SECRETS = [
  'bs-basic-pass-5521',
  Buffer.from('monitor:bs-basic-pass-5521').toString('base64'),
  'bsHeartbeatSecretTokenA1b2C3',
  'bsHeartbeatSecretTokenD4e5F6',
];

const MONITORS_IMPORTED = [
  'API health',
  'Backend',
  'Database',
  'Frontend',
  'Game server',
  'Gateway',
  'Login page',
  'Mail relay',
  'Mailbox',
  'Nightly backup',
  'Old blog',
  'POP mailbox',
  'Queue worker',
  'Resolver',
  'Status banner',
  'Website',
];

describe.each(DB_KINDS)('import from Better Stack on %s', (kind) => {
  let t: TestApp;
  let root: ApiClient;
  let dir: string;
  const co = importCompanies(
    () => t,
    () => root,
  );
  const monitorsOf = async (c: string) => ((await co.clients[c].get('/api/v1/monitors?sort=name&order=asc')).body as any[]) ?? [];
  const expectNoSecrets = (text: string) => {
    for (const s of SECRETS) expect(text).not.toContain(s);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sw-bstack-'));
    // Private targets refused (the platform's default): the planted failure below relies on it.
    t = await startTestApp({ db: kind });
    const rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    root = t.client();
    await signIn(root, rootUser);
    for (const c of ['acme', 'globex', 'wrong']) await co.add(c, 'enterprise');
    // acme has a location named like Better Stack's "eu" region (and none named "us").
    const eu = await co.clients.acme.post('/api/v1/probe-locations', { name: 'Europe', slug: 'eu', private: true });
    expect(eu.status, eu.text).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a dry run (read token) lists what maps and what does not, and creates nothing', async () => {
    const r = await cli(['import', 'better-stack', FOLDER, '--dry-run'], co.env('acme', 'read'));
    expect(r.code, r.stderr).toBe(0);
    const headlines = r.stdout.split('\n').filter((l) => /^[+~=-] /.test(l));
    expect(headlines).toEqual([
      '+ create monitor "Website"',
      '+ create monitor "API health"',
      '+ create monitor "Login page"',
      '+ create monitor "Status banner"',
      '+ create monitor "Gateway"',
      '+ create monitor "Database"',
      '+ create monitor "Game server"',
      '+ create monitor "Mail relay"',
      '+ create monitor "Mailbox"',
      '+ create monitor "POP mailbox"',
      '+ create monitor "Resolver"',
      '+ create monitor "Old blog"',
      '+ create monitor "Nightly backup"',
      '+ create monitor "Queue worker"',
      '+ create monitor "Frontend"',
      '+ create monitor "Backend"',
      '~ update status page "layout"',
    ]);
    expect(r.stdout).toContain('    headers: {"Authorization":"(secret)"}');
    expect(r.stdout).toContain('    locations: ["eu"]');
    expect(r.stdout).toContain('Services: Website, Login page (as "Sign-in") | Infrastructure: Database, Nightly backup (as "Backups")');
    expect(r.stdout).toContain('Not imported (16):');
    for (const line of [
      '  - monitor "Checkout journey": a Playwright script is not run here: write the journey as a browser monitor (steps)\n',
      '  - monitor "Website": another monitor has the same name (monitors are matched by name; rename one in Better Stack)\n',
      '  - monitor setting "Website": region us: no probe location of that name here (checks run from eu)\n',
      '  - monitor setting "Mail relay": ports 587: a monitor here checks one port (25); add a monitor per other port\n',
      '  - monitor setting "Login page": "verify SSL" off: not available here, a certificate error fails the check\n',
      '  - monitor setting "Nightly backup": grace period 300 s: at most 120 s here\n',
      '  - monitor group "Staging": none of its monitors is imported (a group here needs one)\n',
      '  - status page "Acme internal": a company has one status page here: "Acme" (the first) is imported\n',
      '  - status page item "Deploys": a "IncomingWebhook" item has no equivalent here (the page lists monitors)\n',
      '  - status page item "Checkout": its monitor is not imported\n',
    ])
      expect(r.stdout).toContain(line);
    expect(r.stdout).toContain('Dry run: nothing was changed.');
    expectNoSecrets(r.stdout + r.stderr);
    expect(await monitorsOf('acme')).toEqual([]);
  }, 120_000);

  it('the import creates what the dry run listed; a second import changes nothing', async () => {
    const first = await cli(['import', 'better-stack', FOLDER], co.env('acme'));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/push URL of monitor "Nightly backup" \(shown once\): http:\/\/\S+\/api\/v1\/push\/\S+\n/);
    expect(first.stdout).toMatch(/push URL of monitor "Queue worker" \(shown once\): http:\/\/\S+\/api\/v1\/push\/\S+\n/);
    expect(first.stdout).toContain('Imported: applied 17 changes');
    expectNoSecrets(first.stdout + first.stderr);

    const monitors = await monitorsOf('acme');
    const byName = Object.fromEntries(monitors.map((m) => [m.name, m]));
    const idOf = (n: string) => byName[n].id;
    expect(Object.keys(byName).sort()).toEqual(MONITORS_IMPORTED);
    expect(byName.Website).toMatchObject({
      type: 'http',
      url: 'https://www.example.com/',
      method: 'GET',
      headers: { 'X-Check': 'better-stack' },
      accepted_status_codes: ['200-299'],
      follow_redirects: true,
      interval_seconds: 60,
      timeout_seconds: 30,
      // 120 s of confirmation at one check a minute: two more failed checks after the first.
      confirmations: 3,
      locations: ['eu'],
      is_public: true,
    });
    expect(byName['API health']).toMatchObject({
      type: 'http',
      accepted_status_codes: ['200', '204'],
      headers: { Authorization: `Basic ${Buffer.from('monitor:bs-basic-pass-5521').toString('base64')}` },
      interval_seconds: 30,
      locations: ['eu'],
    });
    expect(byName['Login page']).toMatchObject({
      method: 'POST',
      body: '{"probe":true}',
      keyword: 'Sign in',
      keyword_mode: 'present',
      follow_redirects: false,
      confirmations: 2,
    });
    expect(byName['Status banner']).toMatchObject({ keyword: 'Maintenance', keyword_mode: 'absent' });
    // Server monitors' time-outs are milliseconds in Better Stack.
    expect(byName.Gateway).toMatchObject({ type: 'ping', host: 'gateway.example.com', interval_seconds: 120, timeout_seconds: 2 });
    expect(byName.Database).toMatchObject({ type: 'tcp', host: 'db.example.com', port: 5432, timeout_seconds: 5, is_public: true });
    expect(byName['Game server']).toMatchObject({ type: 'udp', port: 27015, udp_payload: 'ping', udp_expect: 'pong' });
    expect(byName['Mail relay']).toMatchObject({ type: 'smtp', host: 'smtp.example.com', port: 25, mail_tls: 'none' });
    expect(byName.Mailbox).toMatchObject({ type: 'imap', port: 993, mail_tls: 'implicit' });
    expect(byName['POP mailbox']).toMatchObject({ type: 'pop3', port: 995, mail_tls: 'implicit' });
    expect(byName.Resolver).toMatchObject({ type: 'dns', host: 'example.com', record_type: 'A', resolver: 'ns1.example.com' });
    expect(byName['Old blog']).toMatchObject({ type: 'http', is_paused: true, interval_seconds: 300 });
    expect(byName['Nightly backup']).toMatchObject({ type: 'push', interval_seconds: 86400, timeout_seconds: 120 });
    expect(byName['Queue worker']).toMatchObject({ type: 'push', interval_seconds: 300, timeout_seconds: 60 });
    expect([...byName.Frontend.children].sort()).toEqual([idOf('Website'), idOf('API health')].sort());
    expect(byName.Backend.children).toEqual([idOf('Database')]);

    const page = (await co.clients.acme.get('/api/v1/status-page/settings')).body;
    const groupName = (id: string | null) => page.groups.find((g: any) => g.id === id)?.name ?? null;
    const placed = Object.fromEntries(
      page.monitors.map((m: any) => [m.name, { group: groupName(m.group_id), is_public: m.is_public, public_name: m.public_name }]),
    );
    expect(page.groups.map((g: any) => g.name)).toEqual(['Services', 'Infrastructure']);
    expect(placed.Website).toEqual({ group: 'Services', is_public: true, public_name: null });
    expect(placed['Login page']).toEqual({ group: 'Services', is_public: true, public_name: 'Sign-in' });
    expect(placed['Nightly backup']).toEqual({ group: 'Infrastructure', is_public: true, public_name: 'Backups' });
    expect(placed.Gateway).toMatchObject({ group: null, is_public: false });

    const again = await cli(['import', 'better-stack', FOLDER], co.env('acme'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.split('\n').filter((l) => /^[+~-] /.test(l))).toEqual([]);
    expect(again.stdout).toContain('No changes.');
    expect((await monitorsOf('acme')).length).toBe(MONITORS_IMPORTED.length);
  }, 180_000);

  it('a refusal midway leaves nothing half-imported: what was created is archived, and a later import restores it', async () => {
    // Planted: "Database" (the sixth monitor) checks a private address, which this platform
    // refuses (ALLOW_PRIVATE_TARGETS unset) only when the monitor is created: the CLI cannot know.
    const planted = join(dir, 'planted');
    cpSync(FOLDER, planted, { recursive: true });
    const file = join(planted, 'monitors.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"url": "db.example.com"', '"url": "10.1.2.3"'));
    const r = await cli(['import', 'better-stack', planted], co.env('globex'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The import stopped: POST /api/v1/monitors answered 400: Target refused: 10.1.2.3 is a private address');
    expect(r.stderr).toContain(
      'Undone (monitors archived, channels disabled, windows cancelled): monitor "Gateway", monitor "Status banner", monitor "Login page", monitor "API health", monitor "Website".',
    );
    expect(await monitorsOf('globex')).toEqual([]);
    const archived = (await co.clients.globex.get('/api/v1/monitors?archived=true')).body as any[];
    expect(archived.map((m) => m.name).sort()).toEqual(['API health', 'Gateway', 'Login page', 'Status banner', 'Website']);

    const fixed = await cli(['import', 'better-stack', FOLDER], co.env('globex'));
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('~ restore monitor "Website"');
    expect((await monitorsOf('globex')).map((m) => m.name).sort()).toEqual(MONITORS_IMPORTED);
  }, 180_000);

  it('a wrong folder or file gets a clear message and exit code 2, and changes nothing', async () => {
    const folder = (name: string, files: Record<string, string>) => {
      const d = join(dir, name);
      mkdirSync(d, { recursive: true });
      for (const [f, text] of Object.entries(files)) writeFileSync(join(d, f), text);
      return d;
    };
    const heartbeats = readFileSync(join(FOLDER, 'heartbeats.json'), 'utf8');
    const cases: [string, string][] = [
      [folder('empty', { 'notes.txt': 'hello' }), 'holds no monitors.json: save GET /api/v2/monitors there'],
      [folder('not-json', { 'monitors.json': '<html>Sign in</html>' }), 'monitors.json is not JSON'],
      [folder('other-json', { 'monitors.json': '{"monitors": []}' }), 'monitors.json is JSON but not a Better Stack API list'],
      [
        folder('swapped', { 'monitors.json': heartbeats }),
        'monitors.json holds "heartbeat" items where "monitor" items belong: was another list saved under this name?',
      ],
      [
        folder('refused', { 'monitors.json': '{"errors": "Invalid Team API token"}' }),
        'monitors.json holds an error answer (page 1: "Invalid Team API token"): check the token and save it again.',
      ],
      // a single file is read as every answer back to back: heartbeats alone hold no monitor
      [join(FOLDER, 'heartbeats.json'), 'heartbeats.json holds no monitors: put the answers of GET /api/v2/monitors in it'],
      [
        join(folder('foreign', { 'all.json': '{"data": [{"id": "1", "type": "incident", "attributes": {}}]}' }), 'all.json'),
        'all.json holds "incident" items, which are not Better Stack Uptime monitors, heartbeats, groups or status pages.',
      ],
      [join(dir, 'missing'), 'Cannot read'],
    ];
    const runs = await Promise.all(cases.map(([path]) => cli(['import', 'better-stack', path], co.env('wrong'))));
    cases.forEach(([path, message], i) => {
      expect(runs[i].code, path).toBe(2);
      expect(runs[i].stderr, path).toContain(message);
    });
    expect(await monitorsOf('wrong')).toEqual([]);
  }, 120_000);
});
