// Monitors as code with an api_flow monitor, on both databases, the CLI a real child process
// against a real server: apply creates it with steps naming a company secret as
// {{secrets.NAME}}; export writes the steps back with the reference (never the value), in a file
// the editor schema accepts; apply of the export is a no-op. Through the same API, step problems
// come back on their field (the schema's for a bad method, the kind's sentences otherwise).
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

const TOKEN_VALUE = 'tok-Value-Never-Exported-123';

const FLOW_FILE = `version: 1
monitors:
  - name: Shop API
    type: api_flow
    interval_seconds: 300
    timeout_seconds: 10
    steps:
      - name: Sign in
        method: POST
        url: http://127.0.0.1:9/api/login
        headers:
          authorization: Bearer {{secrets.SHOP_TOKEN}}
        assertions:
          - source: status
            comparison: equals
            target: "200"
        extract:
          - variable: token
            source: json
            property: $.token
      - name: Cart
        url: http://127.0.0.1:9/api/cart?token={{token}}
`;

describe.each(DB_KINDS)('api_flow monitors as code on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sw-flow-code-'));
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme', plan: 'enterprise' });
    const user = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const host = `acme.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    await signIn(admin, user);
    expect((await admin.put('/api/v1/secrets/SHOP_TOKEN', { value: TOKEN_VALUE })).status).toBe(200);
    const token = await admin.post('/api/v1/api-tokens', { name: 'cli', scope: 'write' });
    expect(token.status, token.text).toBe(201);
    env = { STATUSWATCH_URL: `http://${host}:${t.port}`, STATUSWATCH_TOKEN: token.body.token };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('applies, exports with the secret as a reference, and re-applies as a no-op', async () => {
    const p = join(dir, 'flow.yaml');
    writeFileSync(p, FLOW_FILE);
    const first = await cli(['apply', p], env);
    expect(first.code, first.stderr + first.stdout).toBe(0);
    const [m] = (await admin.get('/api/v1/monitors')).body as Array<Record<string, any>>;
    expect(m).toMatchObject({ type: 'api_flow', steps: [{ name: 'Sign in' }, { name: 'Cart' }], last_run: null });
    const out = join(dir, 'export.yaml');
    const exported = await cli(['export', '--out', out], env);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('{{secrets.SHOP_TOKEN}}');
    expect(text).not.toContain(TOKEN_VALUE);
    const spec = parse(text) as { monitors: Array<Record<string, any>> };
    expect(spec.monitors[0].steps).toEqual(parse(FLOW_FILE).monitors[0].steps);
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const check = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas/statuswatch.schema.json'), 'utf8')));
    expect(check(spec), JSON.stringify(check.errors)).toBe(true);
    const again = await cli(['apply', out], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('answers step problems on their field', async () => {
    const post = (steps: unknown[]) => admin.post('/api/v1/monitors', { name: 'Bad', type: 'api_flow', interval_seconds: 300, steps });
    const url = 'http://127.0.0.1:9/api';
    expect((await post([{ name: 'A', url, method: 'FETCH' }])).body.errors).toEqual({
      'steps.0.method': 'steps.0.method must be equal to one of the allowed values',
    });
    expect(
      (await post([{ name: 'A', url, assertions: [{ source: 'json', property: '$.a[?(@.b)]', comparison: 'exists' }] }])).body.errors,
    ).toEqual({
      steps:
        'Step 1 "A": assertion 1: the JSON path $.a[?(@.b)] only [number] and [\'name\'] may follow "[" (character 4); filters and scripts are not supported',
    });
    expect((await post([{ name: 'A', url: `${url}/{{cart_id}}` }])).body.errors).toEqual({
      steps: 'Step 1 "A": {{cart_id}} is used before a step extracts it',
    });
    expect((await post(Array.from({ length: 21 }, (_, i) => ({ name: `S${i}`, url })))).body.errors).toEqual({
      steps: 'At most 20 steps (this flow has 21)',
    });
  });
});
