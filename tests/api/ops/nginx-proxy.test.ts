// The docs' nginx blocks (docs/operations/reverse-proxy.md and custom-domain-tls.md), run as
// written in a real nginx (Debian's, 1.22 on Debian 12) in front of a real server: only the port,
// the certificate paths, the upstream port and the example domain are put in. nginx must accept
// the configuration, and through it, on a port other than 443 with PUBLIC_PORT set as the docs
// say, the public documents link to the address browsers use and a same-origin sign-in is not
// refused as cross-site.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { freePort } from '../../support/pg-cluster.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { tempDir } from '../../support/test-db.ts';
import { seedMonitor } from '../public/fixtures.ts';
import { allDocs } from '../../support/docs.ts';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

/** Every ```nginx block of the docs, as written. */
export function nginxBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```nginx\n([\s\S]*?)\n```/g)].map((m) => m[1]);
}

/** A block with this machine's port, certificate, upstream and domain put in. */
function localised(block: string, o: { port: number; upstream: number; cert: string; key: string }): string {
  return block
    .replace(/127\.0\.0\.1:4321\b/g, `127.0.0.1:${o.upstream}`)
    .replace(/status\.example\.com/g, 'localhost')
    .replace(/ssl_certificate\s+\S+;/g, `ssl_certificate ${o.cert};`)
    .replace(/ssl_certificate_key\s+\S+;/g, `ssl_certificate_key ${o.key};`)
    .replace(/listen 443 /g, `listen 127.0.0.1:${o.port} `);
}

function get(
  port: number,
  host: string,
  pathname: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: init.method ?? 'GET',
        servername: host,
        rejectUnauthorized: false,
        headers: { host: `${host}:${port}`, ...init.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

async function listening(port: number, proc: ChildProcess, log: string): Promise<void> {
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited with ${proc.exitCode}: ${readFileSync(log, 'utf8')}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the nginx configuration of the docs in a real nginx', () => {
  let t: TestApp;
  let nginx: ChildProcess | undefined;
  let port: number;
  let dir: string;
  let conf: string;
  let errorLog: string;
  let subdomain: string;

  beforeAll(async () => {
    if (!NGINX) throw new Error('nginx is not installed (apt-get install nginx); scripts/ensure-test-deps.sh installs it.');
    port = await freePort();
    t = await startTestApp({
      db: 'sqlite',
      withPages: true,
      env: { PUBLIC_SCHEME: 'https', PUBLIC_PORT: String(port), TRUST_PROXY: 'true' },
    });
    const acme = await seedCompany(t.services, { name: 'Acme Proxy', subdomain: 'acmeproxy' });
    subdomain = acme.subdomain;
    await seedMonitor(t.services.db, acme.id, Date.now(), { name: 'Proxied API' });
    dir = tempDir();
    for (const d of ['tmp', 'logs']) mkdirSync(path.join(dir, d), { recursive: true });
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,DNS:*.localhost',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'pipe' },
    );
    const blocks = nginxBlocks(allDocs()).map((b) => localised(b, { port, upstream: t.port, cert, key }));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    errorLog = path.join(dir, 'logs', 'error.log');
    conf = path.join(dir, 'nginx.conf');
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((k) => `  ${k}_temp_path ${path.join(dir, 'tmp', k)};`)
      .join('\n');
    writeFileSync(
      conf,
      `daemon off;\nmaster_process off;\npid ${path.join(dir, 'nginx.pid')};\nerror_log ${errorLog} warn;\nevents {}\nhttp {\n  access_log off;\n${temp}\n${blocks.join('\n')}\n}\n`,
    );
  });

  afterAll(async () => {
    nginx?.kill('SIGQUIT');
    await t?.close();
  });

  it('is accepted by nginx as written (no directive newer than nginx 1.22)', () => {
    const test = (() => {
      try {
        return { code: 0, out: execFileSync(NGINX!, ['-t', '-p', dir, '-c', conf, '-e', errorLog], { stdio: 'pipe', encoding: 'utf8' }) };
      } catch (e) {
        const err = e as { status: number; stderr: string };
        return { code: err.status, out: err.stderr };
      }
    })();
    expect(test.out).not.toMatch(/unknown directive|emerg/);
    expect(test.code).toBe(0);
  });

  it('serves a company through nginx on a port other than 443, links carrying PUBLIC_PORT', async () => {
    nginx = spawn(NGINX!, ['-p', dir, '-c', conf, '-e', errorLog], { stdio: 'ignore' });
    await listening(port, nginx, errorLog);
    const host = `${subdomain}.localhost`;
    const origin = `https://${host}:${port}`;

    const summary = await get(port, host, '/api/v2/summary.json');
    expect(summary.status, summary.text).toBe(200);
    expect(JSON.parse(summary.text).page.url).toBe(origin);

    const page = await get(port, host, '/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Proxied API');
    expect(page.text).toMatch(new RegExp(`Powered by <a href="https://localhost:${port}/?"`));

    const feed = await get(port, host, '/history.atom');
    expect(feed.status).toBe(200);
    expect(feed.text).toContain(`<id>${origin}`);
    expect(feed.text).not.toMatch(/https:\/\/[^"<\s]*localhost[/"<]/); // no link without the port

    // A browser's sign-in from the page's own origin passes the same-origin guard.
    const login = await get(port, host, '/api/v1/auth/login', {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password 1' }),
    });
    expect(login.text).not.toContain('Cross-site');
    expect(login.status).toBe(401);
  });
});
