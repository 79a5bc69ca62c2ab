// Compression of what the product sends besides the public documents: the console's hashed
// assets come from their .br/.gz copies made at build (by Accept-Encoding, with Vary), JSON
// answers over 1 KB go out compressed by the client's q-values, smaller ones and the live event
// stream as they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DB_KINDS } from '../../support/test-db.ts';
import { rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { seedMonitor } from '../public/fixtures.ts';

describe.each(DB_KINDS)('compression on %s', (kind) => {
  let t: TestApp;
  let cookie = '';
  let tenant = '';
  const main = () => `${t.config.productDomain}:${t.port}`;
  const get = (p: string, headers: Record<string, string> = {}) => rawRequest(`${t.baseUrl}${p}`, 'GET', { host: main(), ...headers });
  /** as the company's admin, on the company's address */
  const getAsAdmin = (p: string, headers: Record<string, string> = {}) =>
    rawRequest(`${t.baseUrl}${p}`, 'GET', { host: `${tenant}:${t.port}`, cookie, ...headers });

  beforeAll(async () => {
    t = await startTestApp({ db: kind, withPages: true });
    const acme = await seedCompany(t.services, { name: 'Acme Corp' });
    for (let i = 0; i < 12; i++) await seedMonitor(t.services.db, acme.id, Date.now(), { name: `Service number ${i}` });
    const admin = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const client = t.client();
    tenant = `${acme.subdomain}.${t.config.productDomain}`;
    await signIn(client, admin, tenant);
    cookie = client.cookieHeader(tenant);
  });
  afterAll(async () => t?.close());

  describe('console assets', () => {
    const asset = () => {
      const dir = path.join(t.config.distDir, 'client', '_astro');
      const file = readdirSync(dir).find((f) => /^App\.[\w-]+\.js$/.test(f) && readFileSync(path.join(dir, f)).length > 10_000)!;
      expect(file).toBeTruthy();
      return { url: `/_astro/${file}`, raw: readFileSync(path.join(dir, file)) };
    };

    it.each([
      ['gzip, deflate, br', 'br'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', null],
    ])('answers Accept-Encoding %j with %s and Vary', async (accept, coding) => {
      const { url, raw } = asset();
      const r = await get(url, { 'accept-encoding': accept });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-encoding')).toBe(coding);
      expect(r.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(r.headers.get('content-type')).toMatch(/javascript/);
      expect(r.headers.get('cache-control')).toContain('immutable');
      const body = coding === 'br' ? brotliDecompressSync(r.bytes) : coding === 'gzip' ? gunzipSync(r.bytes) : r.bytes;
      expect(body.equals(raw)).toBe(true);
      if (coding) expect(r.bytes.length).toBeLessThan(raw.length / 2);
    });

    it('sends the file as is to a client without Accept-Encoding', async () => {
      const { url, raw } = asset();
      const r = await get(url);
      expect(r.headers.get('content-encoding')).toBeNull();
      expect(r.bytes.equals(raw)).toBe(true);
    });
  });

  describe('API JSON', () => {
    it('compresses an answer over 1 KB by the q-values, with Vary', async () => {
      const plain = await getAsAdmin('/api/v1/monitors');
      expect(plain.status, plain.text).toBe(200);
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.bytes.length).toBeGreaterThan(1024);
      const br = await getAsAdmin('/api/v1/monitors', { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(br.headers.get('content-type')).toMatch(/^application\/json/);
      expect(brotliDecompressSync(br.bytes).toString()).toBe(plain.text);
      expect(br.bytes.length).toBeLessThan(plain.bytes.length / 2);
      const gz = await getAsAdmin('/api/v1/monitors', { 'accept-encoding': 'br;q=0.1, gzip;q=0.9' });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(gz.bytes).toString()).toBe(plain.text);
      const none = await getAsAdmin('/api/v1/monitors', { 'accept-encoding': 'br;q=0, gzip;q=0' });
      expect(none.headers.get('content-encoding')).toBeNull();
      expect(none.text).toBe(plain.text);
    });

    it('sends an answer under 1 KB as is', async () => {
      const r = await get('/livez', { 'accept-encoding': 'br, gzip' });
      expect(r.status).toBe(200);
      expect(r.bytes.length).toBeLessThan(1024);
      expect(r.headers.get('content-encoding')).toBeNull();
      expect(JSON.parse(r.text)).toEqual({ status: 'ok' });
    });

    it('leaves the live event stream uncompressed', async () => {
      const { headers, first } = await new Promise<{ headers: http.IncomingHttpHeaders; first: string }>((resolve, reject) => {
        const req = http.get(
          `${t.baseUrl}/api/v1/events`,
          { headers: { host: `${tenant}:${t.port}`, cookie, accept: 'text/event-stream', 'accept-encoding': 'br, gzip' } },
          (res) => {
            res.setEncoding('utf8');
            res.once('data', (chunk: string) => {
              resolve({ headers: res.headers, first: chunk });
              req.destroy();
            });
          },
        );
        req.on('error', reject);
      });
      expect(headers['content-type']).toMatch(/^text\/event-stream/);
      expect(headers['content-encoding']).toBeUndefined();
      expect(first).toContain('retry:');
    });
  });
});
