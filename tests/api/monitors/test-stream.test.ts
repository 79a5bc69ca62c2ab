// Test now streamed (POST /api/v1/monitors/test?stream=true, issue 29's "Run now shows each step
// live"), through HTTP on both databases: an api_flow's first step arrives as its own line while
// its second step is still waiting on the loopback shop (the shop holds that request open), then
// the failing step and the result; refusals stay problem answers before any line; a kind without
// steps answers just its result line.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShop, type Shop } from '../../support/kind-servers/shop.ts';
import { shopFlow } from '../../support/kind-servers/shop-flows.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { waitFor } from '../../support/wait-for.ts';

interface Line {
  type: 'step' | 'result' | 'error';
  step?: { index: number; name: string; status: string; error: string | null };
  result?: { status: string; error: string | null; run?: { steps: Array<{ status: string }> } };
}

describe.each(DB_KINDS)('Test now streamed on %s', (kind) => {
  let t: TestApp;
  let shop: Shop;
  let admin: ApiClient;
  let host: string;

  beforeAll(async () => {
    shop = await startShop();
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    const company = await seedCompany(t.services, { plan: 'professional' });
    host = `${company.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: company.id }));
  });
  afterAll(async () => {
    await t?.close();
    await shop?.close();
  });

  /** POSTs the test; `progress` holds the lines so far and whether the answer ended, as they come. */
  const streamed = (body: unknown, progress: { lines: Line[]; ended: boolean } = { lines: [], ended: false }) =>
    new Promise<{ status: number; type: string; lines: Line[] }>((resolve, reject) => {
      const port = new URL(t.baseUrl).port;
      const req = http.request(
        `${t.baseUrl}/api/v1/monitors/test?stream=true`,
        {
          method: 'POST',
          headers: {
            host: `${host}:${port}`,
            cookie: admin.cookieHeader(host),
            origin: `http://${host}:${port}`,
            'content-type': 'application/json',
          },
        },
        (res) => {
          let buffered = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffered += chunk;
            for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
              const text = buffered.slice(0, nl);
              buffered = buffered.slice(nl + 1);
              if (text.trim()) progress.lines.push(JSON.parse(text) as Line);
            }
          });
          res.on('end', () => {
            if (buffered.trim()) progress.lines.push(JSON.parse(buffered) as Line);
            progress.ended = true;
            resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), lines: progress.lines });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });

  it('sends the first step while the second still waits on the shop, then the failing step and the result', async () => {
    const [signIn_] = shopFlow(shop.url);
    const steps = [signIn_, { name: 'Hangs', url: shop.url('/api/hang') }, { name: 'Never reached', url: shop.url('/api/products') }];
    const progress = { lines: [] as Line[], ended: false };
    const answer = streamed({ name: 'streamed', type: 'api_flow', steps, timeout_seconds: 5 }, progress);
    // The shop holds the second step's request open until the time-out; meanwhile the first
    // step's line has arrived and the answer goes on.
    await waitFor(() => progress.lines.length >= 1 && shop.requests.some((r) => r.path === '/api/hang'), {
      what: "the first step's line while the second waits on the shop",
    });
    expect(progress.ended).toBe(false);
    expect(progress.lines).toEqual([{ type: 'step', step: expect.objectContaining({ index: 1, name: 'Sign in', status: 'passed' }) }]);
    const { status, type, lines } = await answer;
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/x-ndjson/);
    expect(lines.map((l) => (l.type === 'step' ? `${l.step?.index} ${l.step?.status}` : l.type))).toEqual([
      '1 passed',
      '2 failed',
      'result',
    ]);
    expect(lines[1].step?.error).toMatch(/Timed out|time-out|timed out/i);
    expect(lines[2].result).toMatchObject({ status: 'down' });
    expect(lines[2].result?.run?.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
  });

  it('refuses bad input with a problem before any line, as an unstreamed test does', async () => {
    const { status, type, lines } = await streamed({ name: 'bad', type: 'api_flow', steps: [] });
    expect(status).toBe(400);
    expect(type).toMatch(/^application\/problem\+json/);
    expect(lines).toHaveLength(1); // the problem document, one JSON line
    expect(lines[0]).toMatchObject({ status: 400, detail: expect.stringMatching(/steps/) });
  });

  it('answers a kind without steps with its result line only', async () => {
    const { status, lines } = await streamed({ name: 'plain', type: 'http', url: shop.url('/api/products') });
    expect(status).toBe(200);
    expect(lines).toEqual([{ type: 'result', result: expect.objectContaining({ status: 'operational', status_code: 200 }) }]);
  });
});
