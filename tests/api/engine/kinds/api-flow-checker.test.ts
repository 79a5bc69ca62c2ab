// api_flow checks against the loopback shop (tests/support/kind-servers/shop.ts), the way the
// engine runs them (its deadline and abort signal), without a database: a 5-step journey passes
// with each step timed, each broken step fails naming itself and its assertion with the later
// steps skipped, variables carry, a step naming a secret the company lacks fails, the address guard
// holds on the first hop and on redirects, and hanging, huge, endless and garbage answers end as
// clear failures within the time-out. The database half is api-flow.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startShop, type Shop } from '../../../support/kind-servers/shop.ts';
import { shopFlow } from '../../../support/kind-servers/shop-flows.ts';
import { checkKind } from './support.ts';
import { KINDS } from '../../../../src/server/engine/kinds/index.ts';
import { makeCerts } from '../../../fixtures/targets/tls-targets.ts';

let shop: Shop;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  await shop?.close();
});
beforeEach(() => shop.set({ broken: null, delayMs: 0, redirectTo: null }));

const flow = (steps: unknown[], extra: Record<string, unknown> = {}, opts: Parameters<typeof checkKind>[2] = {}) =>
  checkKind('api_flow', { steps, ...extra }, opts);

describe('api_flow checks against the shop', () => {
  it('walks the 5-step journey: each step timed, variables carried, the last status kept', async () => {
    const o = await flow(shopFlow(shop.url));
    expect({ status: o.status, error: o.error, code: o.httpCode }).toEqual({ status: 'operational', error: null, code: 200 });
    expect(Object.keys(o.timings ?? {}).sort()).toEqual(['step_1', 'step_2', 'step_3', 'step_4', 'step_5', 'total']);
    expect(o.responseTimeMs).toBe(o.timings?.total);
    expect(o.detail?.run?.steps.map((s) => [s.index, s.name, s.status, s.error])).toEqual([
      [1, 'Sign in', 'passed', null],
      [2, 'List products', 'passed', null],
      [3, 'Add to cart', 'passed', null],
      [4, 'Pay', 'passed', null],
      [5, 'Read the order', 'passed', null],
    ]);
    // The token the login answered is what the cart call sent.
    const login = shop.requests.findLast((r) => r.path === '/api/login');
    const cart = shop.requests.findLast((r) => r.path === '/api/cart');
    expect(login && cart?.headers.authorization).toMatch(/^Bearer [0-9a-f]{16}$/);
  });

  it.each([
    ['login', 'Step 1 "Sign in": status equals 200, got 401', 1],
    ['cart', 'Step 3 "Add to cart": json $.total equals 42, got 41', 3],
    ['checkout', 'Step 4 "Pay": status equals 201, got 500', 4],
  ] as const)('a broken %s fails at its step, naming the assertion; later steps are skipped', async (broken, error, at) => {
    shop.set({ broken });
    const o = await flow(shopFlow(shop.url));
    expect({ status: o.status, error: o.error }).toEqual({ status: 'down', error });
    const steps = o.detail?.run?.steps ?? [];
    expect(steps.map((s) => s.status)).toEqual(steps.map((s) => (s.index < at ? 'passed' : s.index === at ? 'failed' : 'skipped')));
    expect(steps[at - 1].error).toBe(error.replace(/^Step \d+ "[^"]+": /, ''));
    // It got its answer: the flow's time is its response time.
    expect(o.responseTimeMs).toEqual(expect.any(Number));
  });

  it('is degraded when the flow is slower than degraded_threshold_ms', async () => {
    shop.set({ delayMs: 30 });
    const o = await flow(shopFlow(shop.url).slice(0, 2), { degraded_threshold_ms: 50 });
    expect(o.status).toBe('degraded');
    expect(o.error).toMatch(/^The flow took \d+ ms \(threshold 50 ms\)$/);
  });

  it('fails a step naming a secret the company does not have', async () => {
    const steps = shopFlow(shop.url, { password: '{{secrets.SHOP_PASSWORD}}' });
    const o = await flow(steps);
    expect(o.error).toBe('Step 1 "Sign in": secret SHOP_PASSWORD is not defined');
    expect(shop.requests.some((r) => r.body.includes('{{'))).toBe(false);
  });

  it('cuts a hanging step at the time-out, with no response time', async () => {
    const steps = [shopFlow(shop.url)[1], { name: 'Hang', url: shop.url('/api/hang') }, { ...shopFlow(shop.url)[1], name: 'After' }];
    const o = await flow(steps, {}, { timeoutMs: 1000 });
    expect({ status: o.status, error: o.error, rt: o.responseTimeMs }).toEqual({
      status: 'down',
      error: 'Step 2 "Hang": Timed out after 1 s',
      rt: null,
    });
    expect(o.detail?.run?.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
  });

  it('is down when the server of a step is gone, with no response time', async () => {
    const gone = await startShop();
    const url = gone.url('/api/products');
    await gone.close();
    const o = await flow([shopFlow(shop.url)[1], { name: 'Gone', url }]);
    expect({ error: o.error, rt: o.responseTimeMs }).toEqual({ error: 'Step 2 "Gone": Connection refused', rt: null });
  });

  it('ends huge, endless and garbage answers as clear failures', async () => {
    const one = (path: string, assertions: unknown[] = []) => flow([{ name: 'Hostile', url: shop.url(path), assertions }]);
    expect((await one('/api/huge')).error).toBe('Step 1 "Hostile": Response body larger than 1024 KiB (after decompression)');
    expect((await one('/api/endless')).error).toBe('Step 1 "Hostile": Response body larger than 1024 KiB (after decompression)');
    const garbage = await one('/api/garbage', [{ source: 'json', property: '$.a', comparison: 'exists' }]);
    expect(garbage.error).toBe('Step 1 "Hostile": the answer is not JSON');
  });

  it('refuses a loopback step when private targets are closed, naming the address', async () => {
    const o = await flow(shopFlow(shop.url).slice(0, 2), {}, { allowPrivate: false });
    expect(o.error).toBe('Step 1 "Sign in": Target refused: 127.0.0.1 is a loopback address');
    expect(o.detail?.run?.steps.map((s) => s.status)).toEqual(['failed', 'skipped']);
  });

  it('refuses a redirect to a refused address, naming it', async () => {
    shop.set({ redirectTo: 'http://169.254.169.254/latest/meta-data/' });
    const o = await flow([{ name: 'Follow', url: shop.url('/api/go') }], {}, { allowPrivate: ['127.0.0.0/8'] });
    expect(o.error).toBe('Step 1 "Follow": Target refused: 169.254.169.254 is a cloud metadata address');
  });
});

describe('api_flow with a value the target chose', () => {
  it('keeps an extracted value one value: escaped inside a JSON string, percent-encoded in the URL', async () => {
    // A hostile answer: a name built to close the JSON string and add a field, and to add a query parameter.
    const NAME = 'Eve","role":"admin&admin=1/..';
    const seen: Array<{ url: string; body: string }> = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', body });
        res.setHeader('content-type', 'application/json');
        res.end(req.url === '/profile' ? JSON.stringify({ name: NAME }) : '{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const o = await flow([
        { name: 'Profile', url: `${base}/profile`, extract: [{ variable: 'name', source: 'json', property: '$.name' }] },
        {
          name: 'Save',
          method: 'POST',
          url: `${base}/users/{{name}}?q={{name}}`,
          headers: { 'content-type': 'application/json' },
          body: '{"name":"{{name}}","n":1}',
        },
      ]);
      expect({ status: o.status, error: o.error }).toEqual({ status: 'operational', error: null });
      const save = seen[1];
      expect(JSON.parse(save.body)).toEqual({ name: NAME, n: 1 });
      const url = new URL(save.url, base);
      expect(decodeURIComponent(url.pathname)).toBe(`/users/${NAME}`);
      expect([...url.searchParams.entries()]).toEqual([['q', NAME]]);
    } finally {
      server.close();
    }
  });
});

describe('api_flow validation', () => {
  const problems = (steps: unknown) =>
    KINDS.api_flow.validate((k) => ({ steps })[k as 'steps'] as never, { allowPrivate: true }).problems as Record<string, string>;
  const ok = { name: 'A', url: 'https://shop.example/api' };

  it('names the step and the field at fault', () => {
    expect(problems([])).toEqual({ steps: 'Add at least one step' });
    expect(problems([{ ...ok, method: 'FETCH' }]).steps).toBe(
      'Step 1 "A": method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
    );
    expect(problems([ok, { name: 'B', url: 'ftp://x.example/' }]).steps).toBe('Step 2 "B": URL must start with http:// or https://');
    expect(problems([{ ...ok, assertions: [{ source: 'json', property: '$..price[?(@.x)]', comparison: 'exists' }] }]).steps).toBe(
      'Step 1 "A": assertion 1: the JSON path $..price[?(@.x)] expected a name after "." at character 3',
    );
    expect(problems([{ ...ok, url: 'https://shop.example/cart/{{cart_id}}' }]).steps).toBe(
      'Step 1 "A": {{cart_id}} is used before a step extracts it',
    );
    expect(problems(Array.from({ length: 21 }, (_, i) => ({ name: `S${i}`, url: ok.url }))).steps).toBe(
      'At most 20 steps (this flow has 21)',
    );
    expect(problems([{ ...ok, url: 'https://{{host}}/x' }]).steps).toMatch(/^Step 1 "A": the URL's host may not be a template/);
    expect(problems([{ ...ok, assertions: [{ source: 'body', comparison: 'matches', target: '(?=x)' }] }]).steps).toMatch(
      /^Step 1 "A": assertion 1: the target is not a valid regular expression/,
    );
    expect(problems([{ action: 'goto', url: ok.url }]).steps).toMatch(/^Step 1: is a browser step/);
    expect(problems([ok, ok]).steps).toBe('Step 2 "A": another step has the same name');
    expect(problems(shopFlow((p) => `https://shop.example${p}`))).toEqual({});
  });
});

describe('api_flow over https', () => {
  it('keeps the certificate that expires first, for the expiry warning and the TLS analysis', async () => {
    const { ca, certs } = makeCerts();
    const secure = await startShop({ tls: certs.expiring });
    try {
      const o = await flow(shopFlow(secure.url).slice(0, 2), {}, { extraCa: [ca] });
      expect({ status: o.status, subject: o.certSubject }).toEqual({ status: 'operational', subject: 'localhost' });
      const daysLeft = ((o.certExpiresAt ?? 0) - Date.now()) / 86_400_000;
      expect(daysLeft > 9 && daysLeft < 11).toBe(true);
      expect(KINDS.api_flow.tlsEndpoint?.({ steps: shopFlow(secure.url) })).toEqual({ host: '127.0.0.1', port: secure.port });
      // The status page names the first step's host as the target.
      expect(KINDS.api_flow.publicTarget({ steps: shopFlow(secure.url) })).toBe('127.0.0.1');
    } finally {
      await secure.close();
    }
  });
});
