// The status page served from memory (the answer nearly every visitor gets: a snapshot revalidated
// within the last second, its page rendered and compressed) must be the very answer the render
// gave: same bytes, same headers (security headers, CSP, cache rules, validators) for every
// coding and condition, and each company's own page whatever host came before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DB_KINDS } from '../../support/test-db.ts';
import { rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { seedMonitor, seedScriptedHistory, type SeededMonitor } from './fixtures.ts';

const START = Date.UTC(2026, 10, 22, 14, 37, 12);
/**
 * Headers of the connection and the framing, not of the answer (the render streams its answer
 * in chunks, memory sends a length: checked apart).
 */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

type Answer = { status: number; headers: Record<string, string>; bytes: Buffer };

describe.each(DB_KINDS)('status page served from memory on %s', (kind) => {
  let t: TestApp;
  let clock = START;
  const companies: Array<{ id: string; subdomain: string; name: string; monitor: SeededMonitor }> = [];

  const get = async (sub: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const r = await rawRequest(`${t.baseUrl}/`, 'GET', { host: `${sub}.localhost:${t.port}`, ...headers });
    const h: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      if (!TRANSPORT.has(k)) h[k] = v;
    });
    // a length, when sent, is the body's
    if (r.headers.has('content-length')) expect(Number(r.headers.get('content-length'))).toBe(r.bytes.length);
    return { status: r.status, headers: h, bytes: r.bytes };
  };
  const html = (a: Answer) =>
    (a.headers['content-encoding'] === 'br'
      ? brotliDecompressSync(a.bytes)
      : a.headers['content-encoding'] === 'gzip'
        ? gunzipSync(a.bytes)
        : a.bytes
    ).toString('utf8');
  /** A change the page shows, then past the revalidation interval: the next request renders. */
  const change = async (i: number) => {
    clock += 1500;
    await t.services.db.k
      .updateTable('monitors')
      .set({ last_checked_at: clock, status_since: clock, updated_at: clock })
      .where('id', '=', companies[i].monitor.id)
      .execute();
  };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true });
    for (const name of ['Acme Corp', 'Globex']) {
      const co = await seedCompany(t.services, { name, subdomain: `${name.split(' ')[0].toLowerCase()}mem${kind}` });
      const monitor = await seedMonitor(t.services.db, co.id, clock, { name: `${name} API`, url: 'https://api.example/health' });
      await seedScriptedHistory(t.services.db, monitor, clock);
      companies.push({ ...co, name, monitor });
    }
  });
  afterAll(async () => t?.close());

  it('answers every coding and condition from memory exactly as the render answered it', async () => {
    const sub = companies[0].subdomain;
    const variants: Array<[string, Record<string, string>]> = [
      ['browser', { 'accept-encoding': 'gzip, deflate, br, zstd' }],
      ['gzip only', { 'accept-encoding': 'br;q=0, gzip' }],
      ['identity', { 'accept-encoding': 'identity' }],
      ['no accept-encoding', {}],
      ['nothing acceptable', { 'accept-encoding': 'identity;q=0, *;q=0' }],
    ];
    for (const [name, headers] of variants) {
      await change(0);
      const rendered = await get(sub, headers); // the first request of a snapshot renders it
      const fromMemory = await get(sub, headers);
      const again = await get(sub, headers);
      expect(fromMemory.status, name).toBe(rendered.status);
      expect(fromMemory.bytes.equals(rendered.bytes), name).toBe(true);
      expect(again.headers, name).toEqual(fromMemory.headers);
      expect(again.bytes.equals(fromMemory.bytes), name).toBe(true);
      if (rendered.status !== 200) {
        // The 406 problem of the render says `application/problem+json`; Fastify adds a charset
        // to the same answer from memory (as it did before the page was served without promises).
        expect(fromMemory.status).toBe(406);
        expect({ ...fromMemory.headers, 'content-type': '' }).toEqual({ ...rendered.headers, 'content-type': '' });
        continue;
      }
      expect(fromMemory.headers, name).toEqual(rendered.headers);

      // and the conditional requests on that coding's validators
      const byEtag = await get(sub, { ...headers, 'if-none-match': rendered.headers.etag });
      const byDate = await get(sub, { ...headers, 'if-modified-since': rendered.headers['last-modified'] });
      const otherEtag = await get(sub, { ...headers, 'if-none-match': '"sp-other"' });
      for (const [what, r] of [
        ['If-None-Match', byEtag],
        ['If-Modified-Since', byDate],
      ] as const) {
        expect(r.status, `${name} ${what}`).toBe(304);
        expect(r.bytes.length).toBe(0);
        const { 'content-type': _t, 'content-encoding': _e, ...kept } = rendered.headers;
        expect(r.headers, `${name} ${what}`).toEqual(kept);
      }
      expect(otherEtag.status).toBe(200);
      expect(otherEtag.headers).toEqual(rendered.headers);
    }
  });

  it('sends the whole set of page headers and nothing else', async () => {
    await change(0);
    await get(companies[0].subdomain, { 'accept-encoding': 'br' });
    const r = await get(companies[0].subdomain, { 'accept-encoding': 'br' });
    expect(Object.keys(r.headers).sort()).toEqual([
      'cache-control',
      'content-encoding',
      // the page's language (issue 32): English unless the company offers others
      'content-language',
      'content-security-policy',
      'content-type',
      'cross-origin-opener-policy',
      'etag',
      'last-modified',
      'permissions-policy',
      'referrer-policy',
      'vary',
      'x-content-type-options',
      'x-frame-options',
    ]);
    expect(r.headers).toMatchObject({
      'cache-control': 'public, max-age=0, s-maxage=15, stale-while-revalidate=60, stale-if-error=86400',
      'content-encoding': 'br',
      'content-language': 'en',
      'content-type': 'text/html; charset=utf-8',
      'cross-origin-opener-policy': 'same-origin',
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
      'referrer-policy': 'strict-origin-when-cross-origin',
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
    expect(r.headers.etag).toMatch(/^"sp-[\w-]+-br"$/);
    expect(r.headers['content-security-policy']).toMatch(
      /script-src .*; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'$/,
    );
    // The policy's hashes are exactly those of the page's own inline blocks (Astro's header listed
    // every hash of the build's route: 34 styles and 9 scripts for this page's 2 and 1).
    const html = brotliDecompressSync(r.bytes).toString('utf8');
    const blocks = (tag: string) =>
      [...html.matchAll(new RegExp(`<${tag}(?![^>]*\\bsrc=)[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map(
        (m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`,
      );
    const hashesOf = (directive: string) =>
      r.headers['content-security-policy']
        .split('; ')
        .find((d) => d.startsWith(`${directive} `))!
        .split(' ')
        .filter((x) => x.startsWith("'sha256-"));
    expect(blocks('style').length).toBeGreaterThan(0);
    expect(blocks('script').length).toBeGreaterThan(0);
    expect(hashesOf('style-src').sort()).toEqual([...new Set(blocks('style'))].sort());
    expect(hashesOf('script-src').sort()).toEqual([...new Set(blocks('script'))].sort());
    expect(r.headers['content-security-policy'].length).toBeLessThan(700);
  });

  it("gives each host its own company's page, whichever host and coding came before", async () => {
    const seen: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (const [i, co] of companies.entries()) {
        for (const coding of ['br', 'gzip', 'identity']) {
          const r = await get(co.subdomain, { 'accept-encoding': coding });
          expect(r.status).toBe(200);
          const page = html(r);
          expect(page).toContain(`${co.name} API`);
          expect(page).not.toContain(`${companies[1 - i].name} API`);
          seen.push(r.headers.etag);
        }
      }
    }
    // two companies, three codings: six validators, each the same every round
    expect(new Set(seen).size).toBe(6);
    const unknown = await get(`nobody${kind}`, { 'accept-encoding': 'br' });
    expect(unknown.status).toBe(404);
    expect(html(unknown)).not.toContain('Acme Corp API');
  });

  it('shows a change once the snapshot is revalidated (within a second), not before', async () => {
    const sub = companies[1].subdomain;
    await change(1);
    const before = await get(sub, { 'accept-encoding': 'br' });
    await t.services.db.k
      .updateTable('monitors')
      .set({ name: 'Globex Payments', updated_at: clock })
      .where('id', '=', companies[1].monitor.id)
      .execute();
    clock += 500; // within the revalidation interval: the snapshot stands
    const within = await get(sub, { 'accept-encoding': 'br' });
    expect(within.headers.etag).toBe(before.headers.etag);
    expect(html(within)).not.toContain('Globex Payments');
    clock += 600;
    const after = await get(sub, { 'accept-encoding': 'br' });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(html(after)).toContain('Globex Payments');
    await t.services.db.k
      .updateTable('monitors')
      .set({ name: 'Globex API', updated_at: clock })
      .where('id', '=', companies[1].monitor.id)
      .execute();
  });
});
