// Monitors as code with a browser monitor, on both databases, the CLI a real child process
// against a real server: apply creates the journey with a fill naming a company secret as
// {{secrets.NAME}}; export writes the steps back with the reference (never the value), in a file
// the editor schema accepts; apply of the export is a no-op; a journey naming a probe location is
// refused with the kind's sentence.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { DB_KINDS } from '../../support/test-db.ts';
import { cli, ROOT } from '../../support/statuswatch-cli.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';

const PASSWORD_VALUE = 'pw-Value-Never-Exported-456';

const JOURNEY_FILE = `version: 1
monitors:
  - name: Shop journey
    type: browser
    interval_seconds: 600
    timeout_seconds: 30
    steps:
      - action: goto
        name: Open sign-in
        url: http://127.0.0.1:9/login
      - action: fill
        selector: "#password"
        value: "{{secrets.SHOP_PASSWORD}}"
      - action: click
        selector: role=button[name="Sign in"]
      - action: assert_title
        value: /Shop|Home/
      - action: assert_count
        selector: li.product
        count: 3
      - action: screenshot
        name: Signed in
`;

describe.each(DB_KINDS)('browser monitors as code on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sw-browser-code-'));
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme', plan: 'professional' });
    const user = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const host = `acme.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    await signIn(admin, user);
    expect((await admin.put('/api/v1/secrets/SHOP_PASSWORD', { value: PASSWORD_VALUE })).status).toBe(200);
    const token = await admin.post('/api/v1/api-tokens', { name: 'cli', scope: 'write' });
    expect(token.status, token.text).toBe(201);
    env = { STATUSWATCH_URL: `http://${host}:${t.port}`, STATUSWATCH_TOKEN: token.body.token };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('applies, exports with the secret as a reference, and re-applies as a no-op', async () => {
    const p = join(dir, 'journey.yaml');
    writeFileSync(p, JOURNEY_FILE);
    const first = await cli(['apply', p], env);
    expect(first.code, first.stderr + first.stdout).toBe(0);
    const [m] = (await admin.get('/api/v1/monitors')).body as Array<Record<string, any>>;
    expect(m).toMatchObject({ type: 'browser', locations: null, last_run: null });
    expect(m.steps.map((s: { action: string }) => s.action)).toEqual([
      'goto',
      'fill',
      'click',
      'assert_title',
      'assert_count',
      'screenshot',
    ]);
    const out = join(dir, 'export.yaml');
    const exported = await cli(['export', '--out', out], env);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('{{secrets.SHOP_PASSWORD}}');
    expect(text).not.toContain(PASSWORD_VALUE);
    const spec = parse(text) as { monitors: Array<Record<string, any>> };
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const check = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas/statuswatch.schema.json'), 'utf8')));
    expect(check(spec), JSON.stringify(check.errors)).toBe(true);
    const again = await cli(['apply', out], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('refuses a journey naming a secret the company lacks, or checked from a location without a browser', async () => {
    const post = (over: Record<string, unknown>) =>
      admin.post('/api/v1/monitors', {
        name: 'Bad',
        type: 'browser',
        interval_seconds: 600,
        steps: [{ action: 'goto', url: 'http://127.0.0.1:9/' }],
        ...over,
      });
    const unknown = await post({
      steps: [
        { action: 'goto', url: 'http://127.0.0.1:9/' },
        { action: 'fill', selector: '#p', value: '{{secrets.NOPE}}' },
      ],
    });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('NOPE');
    // A location whose probes have no Chromium (here: none yet) cannot run a journey.
    expect((await admin.post('/api/v1/probe-locations', { name: 'Frankfurt rack', slug: 'fra', private: true })).status).toBe(201);
    const remote = await post({ locations: ['local', 'fra'] });
    expect(remote.status).toBe(400);
    expect(remote.body.errors.locations).toBe(
      'Location "fra" has no probe that runs browser checks: start its probe on a machine with Chromium (CHROMIUM_PATH), or choose another location',
    );
  });
});
