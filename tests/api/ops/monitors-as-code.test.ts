// Monitors as code on both databases, as an operator runs it: the CLI a real child process
// (`node src/server/cli/statuswatch.ts`) talking to a real server over HTTP with an API token,
// the company host given as http://NAME.localhost:PORT. Export writes the state; apply shows
// the diff, changes only what differs, and is a no-op the second time and after an export.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import jsYaml from 'js-yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { DB_KINDS } from '../../support/test-db.ts';
import { cli, ROOT } from '../../support/statuswatch-cli.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedUser, signIn } from '../../support/fixtures.ts';
import { parseCodeFile } from '../../../src/server/cli/monitors-as-code/file.ts';
import { alertChannelsRepo } from '../../../src/server/db/repositories/alert-channels-repo.ts';
import { monitorsRepo } from '../../../src/server/db/repositories/monitors-repo.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI as a child process, with the worktree's Node (PATH) and only the variables given. */
const SLACK_URL_VALUE = 'http://127.0.0.1:9/slack/T000/B000/XXXX';
const PAGE_PASSWORD = 'page-password-42';

const APPLY_FILE = `# yaml-language-server: $schema=../../schemas/statuswatch.schema.json
version: 1
monitors:
  - name: Website
    type: http
    url: http://127.0.0.1:9/health
    method: GET
    accepted_status_codes: ["200-299"]
    keyword: ok
    keyword_mode: present
    headers:
      Authorization: Bearer \${ORIGIN_TOKEN}
    interval_seconds: 60
    timeout_seconds: 5
    is_public: true
  - name: Database
    type: tcp
    host: 127.0.0.1
    port: 5432
    interval_seconds: 30
  - name: Resolver
    type: dns
    host: example.test
    record_type: A
    resolver: 127.0.0.1:5353
    expected_values: [192.0.2.1]
  - name: Certificate
    type: ssl
    host: 127.0.0.1
    port: 8443
    ssl_warning_days: [30, 7]
    is_public: true
    is_critical: true
  - name: Nightly job
    type: push
    interval_seconds: 86400
    timeout_seconds: 60
maintenance:
  - title: Database upgrade
    description: Version 17
    starts_at: "2027-01-10T02:00:00.000Z"
    ends_at: "2027-01-10T03:00:00.000Z"
    monitors: [Database]
alert_channels:
  - name: Ops hook
    type: webhook
    config:
      url: WEBHOOK_URL
    events: [incident.opened, incident.resolved]
    min_severity: high
  - name: Team chat
    type: slack
    config:
      url: \${SLACK_URL}
    monitors: [Website, Database]
status_page:
  access:
    mode: password
    password: \${PAGE_PASSWORD}
  ungrouped:
    - monitor: Website
      public_name: Web site
  groups:
    - name: Infrastructure
      monitors:
        - monitor: Certificate
          public_name: TLS
`;

describe('the example of docs/features/monitors-as-code.md', () => {
  it('is a valid file', () => {
    const section = readFileSync(join(ROOT, 'docs/features/monitors-as-code.md'), 'utf8');
    const example = section.slice(section.indexOf('```yaml\n') + 8, section.indexOf('\n```', section.indexOf('```yaml')));
    const { file } = parseCodeFile(example, 'monitors-as-code.md', { ORIGIN_TOKEN: 'x' });
    expect(file.monitors?.map((m) => m.type)).toEqual(['http', 'tcp', 'push']);
    expect(file.status_page?.access?.password).toBe('${STATUS_PAGE_PASSWORD}');
  });
});

describe.each(DB_KINDS)('monitors as code on %s', (kind) => {
  let t: TestApp;
  let receiver: Server;
  let receiverUrl: string;
  let dir: string;
  const tokens: Record<string, string> = {};
  const hosts: Record<string, string> = {};
  const clients: Record<string, ApiClient> = {};
  const urlOf = (company: string) => `http://${hosts[company]}:${t.port}`;
  const env = (company: string, token = tokens[`${company}:write`], more: Record<string, string> = {}) => ({
    STATUSWATCH_URL: urlOf(company),
    STATUSWATCH_TOKEN: token,
    ORIGIN_TOKEN: 'origin-secret',
    ...more,
  });
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  /** A company, its admin and its two API tokens, all made through the API. */
  async function company(root: ApiClient, subdomain: string) {
    const made = await root.post('/api/v1/admin/companies', {
      name: `Company ${subdomain}`,
      email: `hello@${subdomain}.example.com`,
      subdomain,
    });
    expect(made.status, made.text).toBe(201);
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

  beforeAll(async () => {
    receiver = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    dir = mkdtempSync(join(tmpdir(), 'sw-code-'));
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    const rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    const root = t.client();
    await signIn(root, rootUser);
    await company(root, 'acme');
    await company(root, 'globex');
    await company(root, 'initech');
    await company(root, 'hooli');
  });
  afterAll(async () => {
    await t?.close();
    receiver?.close();
  });

  it('exports a seeded state as the expected YAML, secrets as ${...} references', async () => {
    const admin = clients.acme;
    const web = await admin.post('/api/v1/monitors', {
      name: 'Website',
      type: 'http',
      url: 'http://127.0.0.1:9/health',
      interval_seconds: 60,
      timeout_seconds: 5,
      is_public: true,
    });
    expect(web.status, web.text).toBe(201);
    const db = await admin.post('/api/v1/monitors', {
      name: 'Database',
      type: 'tcp',
      host: '127.0.0.1',
      port: 5432,
      interval_seconds: 30,
      is_public: false,
    });
    expect(db.status, db.text).toBe(201);
    const layout = await admin.put('/api/v1/status-page/settings', {
      ungrouped: [{ monitor_id: db.body.id, is_public: false, public_name: null }],
      groups: [{ name: 'Core', monitors: [{ monitor_id: web.body.id, is_public: true, public_name: 'Web site' }] }],
    });
    expect(layout.status, layout.text).toBe(200);
    const w = await admin.post('/api/v1/maintenance-windows', {
      title: 'Upgrade',
      starts_at: '2027-01-10T02:00:00.000Z',
      ends_at: '2027-01-10T03:00:00.000Z',
      monitor_ids: [db.body.id],
    });
    expect(w.status, w.text).toBe(201);
    const hook = await admin.post('/api/v1/alert-channels', { name: 'Ops hook', type: 'webhook', config: { url: receiverUrl } });
    expect(hook.status, hook.text).toBe(201);
    const chat = await admin.post('/api/v1/alert-channels', {
      name: 'Team chat',
      type: 'slack',
      config: { url: SLACK_URL_VALUE },
      min_severity: 'high',
    });
    expect(chat.status, chat.text).toBe(201);

    const out = join(dir, 'acme.yaml');
    const r = await cli(['export', '--out', out], env('acme', tokens['acme:read']));
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(SLACK_URL_VALUE);
    expect(text).toBe(
      EXPECTED_EXPORT.replace('RECEIVER', receiverUrl).replace('SCHEMA', relative(dir, join(ROOT, 'schemas/statuswatch.schema.json'))),
    );
    // The same on stdout without --out, the schema named from the working directory.
    const printed = await cli(['export'], env('acme', tokens['acme:read']));
    expect(printed.stdout).toBe(EXPECTED_EXPORT.replace('RECEIVER', receiverUrl).replace('SCHEMA', 'schemas/statuswatch.schema.json'));
  });

  it('the exported file validates against the JSON Schema in YAML 1.1 and 1.2 readers', async () => {
    const out = join(dir, 'acme-readers.yaml');
    const r = await cli(['export', '--out', out], env('acme', tokens['acme:read']));
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const check = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas/statuswatch.schema.json'), 'utf8')));
    // js-yaml's default schema reads YAML 1.1 timestamps as dates, as ajv-cli and PyYAML do.
    const readers = { 'js-yaml (1.1 timestamps)': jsYaml.load(text), 'yaml 1.1': parse(text, { version: '1.1' }), 'yaml 1.2': parse(text) };
    for (const [reader, doc] of Object.entries(readers)) {
      expect(check(doc), `${reader}: ${JSON.stringify(check.errors)}`).toBe(true);
      expect((doc as { maintenance: { starts_at: unknown }[] }).maintenance[0].starts_at, reader).toBe('2027-01-10T02:00:00.000Z');
    }
  });

  it('the dry run lists exactly the changes and changes nothing', async () => {
    const p = file('globex.yaml', APPLY_FILE.replace('WEBHOOK_URL', receiverUrl));
    const r = await cli(['apply', p, '--dry-run'], env('globex', tokens['globex:read']));
    expect(r.code, r.stderr).toBe(0);
    const headlines = r.stdout.split('\n').filter((l) => /^[+~=!-] /.test(l));
    expect(headlines).toEqual([
      '+ create monitor "Website"',
      '+ create monitor "Database"',
      '+ create monitor "Resolver"',
      '+ create monitor "Certificate"',
      '+ create monitor "Nightly job"',
      '+ create maintenance window "Database upgrade"',
      '+ create alert channel "Ops hook"',
      '+ create alert channel "Team chat"',
      '~ update status page "access"',
      '~ update status page "layout"',
    ]);
    expect(r.stdout).toContain('access.mode: public → password');
    expect(r.stdout).toContain('    headers: {"Authorization":"Bearer ${ORIGIN_TOKEN}"}\n');
    expect(r.stdout).toContain(
      'Applying needs these secrets:\n  alert channel "Team chat" config.url needs environment variable SLACK_URL\n',
    );
    expect(r.stdout).toContain('Dry run: nothing was changed.');
    expect(r.stdout).not.toContain('origin-secret');
    expect(r.stdout).not.toContain(SLACK_URL_VALUE);
    expect(r.stdout).not.toContain(PAGE_PASSWORD);
    expect((await clients.globex.get('/api/v1/monitors')).body).toEqual([]);
    expect((await clients.globex.get('/api/v1/alert-channels')).body).toEqual([]);
  });

  it('apply creates every kind of monitor, the window, the channels and the page settings; a second apply changes nothing', async () => {
    const p = file('globex.yaml', APPLY_FILE.replace('WEBHOOK_URL', receiverUrl));
    const first = await cli(['apply', p], env('globex', undefined, { SLACK_URL: SLACK_URL_VALUE, PAGE_PASSWORD }));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/push URL of monitor "Nightly job" \(shown once\): http:\/\/\S+\/api\/v1\/push\/\S+\n/);
    expect(first.stdout).toContain('Applied 10 changes');

    const admin = clients.globex;
    const monitors = (await admin.get('/api/v1/monitors?sort=name&order=asc')).body as any[];
    const byName = Object.fromEntries(monitors.map((m) => [m.name, m]));
    expect(Object.keys(byName).sort()).toEqual(['Certificate', 'Database', 'Nightly job', 'Resolver', 'Website']);
    expect(byName.Website).toMatchObject({
      type: 'http',
      url: 'http://127.0.0.1:9/health',
      keyword: 'ok',
      headers: { Authorization: 'Bearer origin-secret' },
      timeout_seconds: 5,
      is_public: true,
    });
    expect(byName.Database).toMatchObject({ type: 'tcp', host: '127.0.0.1', port: 5432, interval_seconds: 30 });
    expect(byName.Resolver).toMatchObject({ type: 'dns', host: 'example.test', record_type: 'A', expected_values: ['192.0.2.1'] });
    expect(byName.Certificate).toMatchObject({ type: 'ssl', port: 8443, ssl_warning_days: [30, 7], is_critical: true });
    expect(byName.Website.is_critical).toBe(false);
    expect(byName['Nightly job']).toMatchObject({ type: 'push', interval_seconds: 86400 });
    const windows = (await admin.get('/api/v1/maintenance-windows')).body as any[];
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject({
      title: 'Database upgrade',
      description: 'Version 17',
      monitor_ids: [byName.Database.id],
      starts_at: '2027-01-10T02:00:00.000Z',
    });
    const channels = (await admin.get('/api/v1/alert-channels')).body as any[];
    expect(channels.map((c) => [c.name, c.type, c.min_severity])).toEqual(
      expect.arrayContaining([
        ['Ops hook', 'webhook', 'high'],
        ['Team chat', 'slack', 'info'],
      ]),
    );
    expect(channels.find((c) => c.name === 'Ops hook').config).toEqual({ url: receiverUrl });
    expect(channels.find((c) => c.name === 'Team chat').monitor_ids.sort()).toEqual([byName.Website.id, byName.Database.id].sort());
    const page = (await admin.get('/api/v1/status-page/settings')).body;
    expect(page.access).toMatchObject({ mode: 'password', has_password: true });
    expect(page.groups.map((g: any) => g.name)).toEqual(['Infrastructure']);
    const cert = page.monitors.find((m: any) => m.name === 'Certificate');
    expect(cert).toMatchObject({ public_name: 'TLS', group_id: page.groups[0].id, is_public: true });
    expect(page.monitors.find((m: any) => m.name === 'Website')).toMatchObject({ public_name: 'Web site', group_id: null });
    // The page password is the one from the environment: it opens the page, another does not.
    const tryPassword = (password: string) =>
      new ApiClient(t.baseUrl, hosts.globex).request('POST', '/access', {
        raw: `password=${encodeURIComponent(password)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect((await tryPassword('${PAGE_PASSWORD}')).status).toBe(401);
    const unlock = await tryPassword(PAGE_PASSWORD);
    expect(unlock.status).toBe(303);
    expect(unlock.headers.getSetCookie()).toHaveLength(1);

    // Again: nothing to do, and secrets need no variables when nothing sends them.
    const second = await cli(['apply', p], env('globex'));
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).not.toMatch(/^[+~-] /m);
    expect(second.stdout).toContain('0 to create, 0 to update, 0 to archive, cancel or disable, 10 unchanged.');
    expect(second.stdout).toContain('No changes.');
  });

  it('names linked monitors by name: a group before its children in the file, parents in any order; export writes names; re-applied, nothing changes', async () => {
    const links = `version: 1
monitors:
  - name: Checkout
    type: group
    children: [Web A, Web B]
    group_rule: all
  - name: Web A
    type: tcp
    host: 127.0.0.1
    port: 9
    parents: [Database]
  - name: Web B
    type: tcp
    host: 127.0.0.1
    port: 9
  - name: Database
    type: tcp
    host: 127.0.0.1
    port: 9
`;
    const p = file('links.yaml', links);
    const first = await cli(['apply', p], env('hooli'));
    expect(first.code, first.stderr + first.stdout).toBe(0);
    const list = (await clients.hooli.get('/api/v1/monitors')).body as Array<{
      id: string;
      name: string;
      children: unknown;
      parents: unknown;
    }>;
    const idOf = (n: string) => list.find((m) => m.name === n)!.id;
    expect(list.find((m) => m.name === 'Checkout')).toMatchObject({ children: [idOf('Web A'), idOf('Web B')], group_rule: 'all' });
    expect(list.find((m) => m.name === 'Web A')!.parents).toEqual([idOf('Database')]);
    const exported = await cli(['export'], env('hooli', tokens['hooli:read']));
    const spec = parse(exported.stdout) as { monitors: Array<Record<string, unknown>> };
    expect(spec.monitors.find((m) => m.name === 'Checkout')).toMatchObject({ children: ['Web A', 'Web B'] });
    expect(spec.monitors.find((m) => m.name === 'Web A')).toMatchObject({ parents: ['Database'] });
    expect(spec.monitors.find((m) => m.name === 'Web B')).not.toHaveProperty('parents');
    const again = await cli(['apply', p], env('hooli'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('apply → export → apply is a no-op', async () => {
    const out = join(dir, 'globex-export.yaml');
    const exported = await cli(['export', '--out', out], env('globex', tokens['globex:read']));
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(SLACK_URL_VALUE);
    expect(text).not.toContain(PAGE_PASSWORD);
    expect(exported.stderr).toContain('monitor "Website" header Authorization');
    expect(parse(text).alert_channels.find((c: any) => c.name === 'Team chat').config.url).toBe('${STATUSWATCH_TEAM_CHAT_URL}');
    const before = (await clients.globex.get('/api/v1/monitors')).body.map((m: any) => m.updated_at);
    const again = await cli(['apply', out], env('globex'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
    expect((await clients.globex.get('/api/v1/monitors')).body.map((m: any) => m.updated_at)).toEqual(before);
  });

  it('shows a change as field: old → new and applies only it', async () => {
    const p = file(
      'globex-2.yaml',
      APPLY_FILE.replace('WEBHOOK_URL', receiverUrl).replace('interval_seconds: 30', 'interval_seconds: 120'),
    );
    const r = await cli(['apply', p], env('globex'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('~ update monitor "Database"\n    interval_seconds: 30 → 120\n');
    expect(r.stdout).toContain('Applied 1 change to');
    const db = ((await clients.globex.get('/api/v1/monitors')).body as any[]).find((m) => m.name === 'Database');
    expect(db.interval_seconds).toBe(120);
  });

  it('keeps what the file leaves out unless --prune, which archives, cancels and disables (never deletes)', async () => {
    const minimal = `version: 1\nmonitors:\n  - name: Website\n    type: http\n    url: http://127.0.0.1:9/health\nmaintenance: []\nalert_channels: []\n`;
    const p = file('globex-min.yaml', minimal);
    const kept = await cli(['apply', p, '--dry-run'], env('globex'));
    expect(kept.stdout).toContain('! kept monitor "Database"\n    not in the file (--prune archives it)');
    expect(kept.stdout).toContain('No changes.');
    // A section the file leaves out is not managed, --prune or not.
    const channelsOnly = await cli(
      ['apply', file('globex-channels.yaml', 'version: 1\nalert_channels: []\n'), '--prune', '--dry-run'],
      env('globex'),
    );
    expect(channelsOnly.stdout).not.toContain('monitor');
    expect(channelsOnly.stdout).toContain('- disable alert channel "Ops hook"');
    const pruned = await cli(['apply', p, '--prune'], env('globex'));
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('- archive monitor "Database"');
    expect(pruned.stdout).toContain('- cancel maintenance window "Database upgrade"');
    expect(pruned.stdout).toContain('- disable alert channel "Team chat"');
    const active = ((await clients.globex.get('/api/v1/monitors')).body as any[]).map((m) => m.name);
    expect(active).toEqual(['Website']);
    const archived = ((await clients.globex.get('/api/v1/monitors?archived=true')).body as any[]).map((m) => m.name).sort();
    expect(archived).toEqual(['Certificate', 'Database', 'Nightly job', 'Resolver']);
    expect(((await clients.globex.get('/api/v1/alert-channels')).body as any[]).every((c) => c.enabled === false)).toBe(true);
    // The full file again restores the archived monitors by name.
    const back = await cli(
      ['apply', file('globex-3.yaml', APPLY_FILE.replace('WEBHOOK_URL', receiverUrl))],
      env('globex', undefined, { SLACK_URL: SLACK_URL_VALUE, PAGE_PASSWORD }),
    );
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain('~ restore monitor "Database"');
    expect(((await clients.globex.get('/api/v1/monitors')).body as any[]).length).toBe(5);
  });

  it('refuses an invalid file with the schema error and its line, before any call', async () => {
    const calls: string[] = [];
    const spy = createServer((req, res) => {
      calls.push(`${req.method} ${req.url}`);
      res.statusCode = 500;
      res.end();
    });
    await new Promise<void>((r) => spy.listen(0, '127.0.0.1', r));
    const spyUrl = `http://127.0.0.1:${(spy.address() as { port: number }).port}`;
    try {
      const bad = `version: 1\nmonitors:\n  - name: Website\n    type: http\n    interval_seconds: "often"\n  - name: Website\n    type: smoke\n`;
      const r = await cli(['apply', file('bad.yaml', bad)], { STATUSWATCH_URL: spyUrl, STATUSWATCH_TOKEN: tokens['initech:write'] });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('line 5: /monitors/0/interval_seconds: must be integer');
      // The allowed values are the kinds of the OpenAPI document (editor-schema.test.ts holds the file to them).
      const kinds = JSON.parse(readFileSync(join(ROOT, 'schemas/statuswatch.schema.json'), 'utf8')).$defs.monitor.properties.type.enum;
      expect(r.stderr).toContain(
        `line 7: /monitors/1/type: must be equal to one of the allowed values (${kinds.map((k: string) => JSON.stringify(k)).join(', ')})`,
      );
      const dup = `version: 1\nmonitors:\n  - name: A\n    type: push\n  - name: A\n    type: push\n`;
      const d = await cli(['apply', file('dup.yaml', dup)], { STATUSWATCH_URL: spyUrl, STATUSWATCH_TOKEN: tokens['initech:write'] });
      expect(d.code).toBe(2);
      expect(d.stderr).toContain('monitor "A" appears more than once (monitors are matched by name)');
      const noEnv = `version: 1\nmonitors:\n  - name: A\n    type: http\n    url: \${UNSET_VARIABLE_X}\n`;
      const e = await cli(['apply', file('env.yaml', noEnv)], { STATUSWATCH_URL: spyUrl, STATUSWATCH_TOKEN: tokens['initech:write'] });
      expect(e.code).toBe(2);
      expect(e.stderr).toContain('environment variable UNSET_VARIABLE_X is not set');
      expect(calls).toEqual([]);
    } finally {
      spy.close();
    }
  });

  it('stops before any write when a secret to send has no variable, and sends secrets again only with --resend-secrets', async () => {
    const text =
      'version: 1\nmonitors:\n  - name: Heartbeat\n    type: push\nalert_channels:\n  - name: Pager\n    type: slack\n    config:\n      url: ${PAGER_URL}\n';
    const p = file('initech-secret.yaml', text);
    const r = await cli(['apply', p], env('initech'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'Nothing was changed: secrets to send are not set:\n  alert channel "Pager" config.url needs environment variable PAGER_URL',
    );
    expect((await clients.initech.get('/api/v1/monitors')).body).toEqual([]);

    const made = await cli(['apply', p], env('initech', undefined, { PAGER_URL: 'http://127.0.0.1:9/one' }));
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).not.toContain('127.0.0.1:9/one');
    // Unchanged without the variable; --resend-secrets sends the new value.
    expect((await cli(['apply', p], env('initech'))).stdout).toContain('No changes.');
    const resent = await cli(['apply', p, '--resend-secrets'], env('initech', undefined, { PAGER_URL: 'http://127.0.0.1:9/two' }));
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.stdout).toContain('~ update alert channel "Pager"\n    config.url: (secret, sent again)\n');
    const stored = (await alertChannelsRepo(t.services.db).list(null)).find((c) => c.name === 'Pager');
    expect(JSON.parse(stored!.config).url).toBe('http://127.0.0.1:9/two');
    // Leave initech without monitors for the next test.
    const id = ((await clients.initech.get('/api/v1/monitors')).body as { id: string }[])[0].id;
    expect((await clients.initech.post(`/api/v1/monitors/${id}/archive`)).status).toBe(200);
  });

  it('a read-scope token can dry-run but not apply: the API 403 is shown and nothing changes', async () => {
    const p = file('initech.yaml', 'version: 1\nmonitors:\n  - name: Beacon\n    type: push\n');
    const dry = await cli(['apply', p, '--dry-run'], env('initech', tokens['initech:read']));
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+ create monitor "Beacon"');
    const r = await cli(['apply', p], env('initech', tokens['initech:read']));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^POST \/api\/v1\/monitors answered 403: .+/m);
    expect(r.stderr).toContain('Applying needs an API token with write scope');
    expect((await clients.initech.get('/api/v1/monitors')).body).toEqual([]);
  });

  it('round-trips locations and quorum, validated by the server as in the console (issue 27)', async () => {
    const loc = await clients.initech.post('/api/v1/probe-locations', { name: 'Vault', slug: 'vault', private: true });
    expect(loc.status, loc.text).toBe(201);
    expect((await clients.globex.post('/api/v1/probe-locations', { name: 'Office', slug: 'office', private: true })).status).toBe(201);
    const text = 'version: 1\nmonitors:\n  - name: Vault door\n    type: tcp\n    host: 127.0.0.1\n    port: 22\n';
    const p = file('initech-locations.yaml', `${text}    locations: [local, vault]\n    quorum: 2\n`);
    const made = await cli(['apply', p], env('initech'));
    expect(made.code, made.stderr).toBe(0);
    const [m] = (await clients.initech.get('/api/v1/monitors')).body;
    expect(m).toMatchObject({ name: 'Vault door', locations: ['local', 'vault'], quorum: 2 });
    const out = join(dir, 'initech-export.yaml');
    const exported = await cli(['export', '--out', out], env('initech', tokens['initech:read']));
    expect(exported.code, exported.stderr).toBe(0);
    expect(parse(readFileSync(out, 'utf8')).monitors[0]).toMatchObject({ locations: ['local', 'vault'], quorum: 2 });
    const again = await cli(['apply', out], env('initech'));
    expect(again.stdout).toContain('No changes.');
    // Another company's private slug is unknown here: the server's field error is shown and nothing changes.
    const bad = await cli(['apply', file('initech-bad-location.yaml', `${text}    locations: [office]\n`)], env('initech'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"office" is not a location of yours.');
    expect((await clients.initech.get('/api/v1/monitors')).body[0].locations).toEqual(['local', 'vault']);
  });

  it('sends a database password from its variable, stores it sealed, never exports it, and keeps it when unset (issue 28)', async () => {
    const text =
      'version: 1\nmonitors:\n  - name: Orders DB\n    type: postgres\n    url: postgres://monitor@127.0.0.1:5432/orders\n    password: ${ORDERS_DB_PASSWORD}\n';
    const p = file('hooli.yaml', text);
    const made = await cli(['apply', p], env('hooli', undefined, { ORDERS_DB_PASSWORD: 'orders-db-Secret-9' }));
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('password: (secret)');
    expect(made.stdout).not.toContain('orders-db-Secret-9');
    // The company holds the linked monitors of the test before as well: this one is found by name.
    const m = (await clients.hooli.get('/api/v1/monitors')).body.find((x: { name: string }) => x.name === 'Orders DB');
    expect(m).toMatchObject({ url: 'postgres://monitor@127.0.0.1:5432/orders', password: '(hidden)' });
    const row = (await monitorsRepo(t.services.db).findById(m.id, null))!;
    expect(row.config).not.toContain('orders-db-Secret-9');

    const out = join(dir, 'hooli-export.yaml');
    const exported = await cli(['export', '--out', out], env('hooli', tokens['hooli:read']));
    expect(exported.code, exported.stderr).toBe(0);
    const written = readFileSync(out, 'utf8');
    expect(written).not.toContain('orders-db-Secret-9');
    expect(parse(written).monitors.find((x: { name: string }) => x.name === 'Orders DB')).toMatchObject({
      type: 'postgres',
      password: '${STATUSWATCH_ORDERS_DB_PASSWORD}',
    });
    // Applying the export without the variable changes nothing and keeps the stored password.
    const again = await cli(['apply', out], env('hooli'));
    expect(again.stdout).toContain('No changes.');
    const kept = (await monitorsRepo(t.services.db).findById(m.id, null))!;
    expect(JSON.parse(kept.config).password).toBe(JSON.parse(row.config).password);
  });
});

// Defaults the server chose are written out (method, status codes, confirmations, ...): the
// file says everything a fresh company needs to end up the same.
const EXPECTED_EXPORT = `# yaml-language-server: $schema=SCHEMA
version: 1
monitors:
  - name: Website
    type: http
    url: http://127.0.0.1:9/health
    method: GET
    accepted_status_codes:
      - 200-299
    keyword_mode: present
    follow_redirects: true
    interval_seconds: 60
    timeout_seconds: 5
    confirmations: 2
    is_public: true
    is_critical: false
  - name: Database
    type: tcp
    host: 127.0.0.1
    port: 5432
    interval_seconds: 30
    timeout_seconds: 10
    confirmations: 2
    is_public: false
    is_critical: false
maintenance:
  - title: Upgrade
    starts_at: "2027-01-10T02:00:00.000Z"
    ends_at: "2027-01-10T03:00:00.000Z"
    monitors:
      - Database
alert_channels:
  - name: Ops hook
    type: webhook
    config:
      url: RECEIVER
    events:
      - incident.opened
      - incident.resolved
    min_severity: info
    enabled: true
  - name: Team chat
    type: slack
    config:
      url: \${STATUSWATCH_TEAM_CHAT_URL}
    events:
      - incident.opened
      - incident.resolved
    min_severity: high
    enabled: true
status_page:
  access:
    mode: public
  ungrouped:
    - monitor: Database
  groups:
    - name: Core
      monitors:
        - monitor: Website
          public_name: Web site
`;
