// pinnedFetch connects to the address the SSRF guard checked, whatever the name says: the name
// here does not resolve at all, and the request still reaches the checked loopback server, with
// the name in its Host header; the answer comes back as a Response, redirects not followed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pinnedFetch } from './pinned-fetch.ts';

let server: http.Server;
let port: number;
const seen: Array<{ host: string | undefined; method: string | undefined; body: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      seen.push({ host: req.headers.host, method: req.method, body });
      if (req.url === '/moved') {
        res.writeHead(302, { location: 'http://169.254.169.254/' });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer: 'https://idp.invalid' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('reaches the checked address with the name as Host, and reads the answer', async () => {
  const r = await pinnedFetch(new URL(`http://idp.invalid:${port}/.well-known/openid-configuration`), '127.0.0.1');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('application/json');
  expect(await r.json()).toEqual({ issuer: 'https://idp.invalid' });
  expect(seen.at(-1)).toMatchObject({ host: `idp.invalid:${port}`, method: 'GET' });
});

it('posts a body, and does not follow a redirect', async () => {
  const r = await pinnedFetch(new URL(`http://idp.invalid:${port}/token`), '127.0.0.1', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=authorization_code',
  });
  expect(r.status).toBe(200);
  expect(seen.at(-1)).toMatchObject({ method: 'POST', body: 'grant_type=authorization_code' });
  const moved = await pinnedFetch(new URL(`http://idp.invalid:${port}/moved`), '127.0.0.1');
  expect(moved.status).toBe(302);
  expect(moved.headers.get('location')).toBe('http://169.254.169.254/');
});
