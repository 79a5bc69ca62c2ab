// The SSRF list of the issue, refused at create time and at run time when private targets are
// off; metadata stays refused with them on, also behind a redirect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resolver } from 'node:dns/promises';
import type { Ctx, Services } from '../../../src/server/domain/context.ts';
import { DomainError } from '../../../src/server/domain/errors.ts';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import type { Resolver as GuardResolver } from '../../../src/server/net/ssrf.ts';
import { createMonitor, getMonitor } from '../../../src/server/domain/monitors/service.ts';
import { actorFor, ctxFor } from '../../support/fixtures.ts';
import { startDnsServer, type DnsTarget } from '../../fixtures/targets/dns-targets.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { engineServices, seedTenant } from './support.ts';
import { createServices } from '../../../src/server/services.ts';
import { parseConfig } from '../../../src/server/config.ts';
import { tempDir } from '../../support/test-db.ts';

const SSRF_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://[fd00:ec2::254]/',
  'http://127.1/',
  'http://0x7f000001/',
  'http://2130706433/',
  'http://[::ffff:127.0.0.1]/',
  'http://100.64.0.1/',
  'http://localhost/',
];

describe('SSRF guard in the engine', () => {
  let open: Services; // ALLOW_PRIVATE_TARGETS=true
  let closed: Services; // same database, private targets off
  let dns: DnsTarget;
  let http: HttpTargets;
  let openCtx: Ctx;
  let closedCtx: Ctx;

  beforeAll(async () => {
    [dns, http] = await Promise.all([startDnsServer({ answer: true }), startHttpTargets()]);
    const r = new Resolver({ timeout: 1000, tries: 1 });
    r.setServers([`127.0.0.1:${dns.port}`]);
    const resolve: GuardResolver = async (h) => (await r.resolve4(h)).map((address) => ({ address, family: 4 }));
    open = await engineServices('sqlite', { ALLOW_PRIVATE_TARGETS: 'true' });
    open.monitoring = { resolve };
    closed = await createServices(
      parseConfig({
        NODE_ENV: 'test',
        DATA_DIR: tempDir(),
        LOG_LEVEL: 'silent',
        MIN_CHECK_INTERVAL_SECONDS: '1',
        ALLOW_PRIVATE_TARGETS: 'false',
      }),
      { db: open.db },
    );
    closed.monitoring = { resolve };
    const t = await seedTenant(open);
    openCtx = t.adminCtx;
    closedCtx = ctxFor(closed, actorFor(t.admin));
  });
  afterAll(async () => {
    await Promise.all([dns?.close(), http?.close()]);
    await open?.db.close();
  });

  it.each(SSRF_URLS)('refuses %s at create time', async (url) => {
    const e = await createMonitor(closedCtx, { name: 'x', type: 'http', url, interval_seconds: 60, is_public: false } as never).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe('validation');
    expect((e as DomainError).fields?.url).toMatch(/^Target refused: /);
  });

  it('refuses blocked literal targets at create time (tcp, ssl, dns resolver); names wait for the check', async () => {
    dns.records.set('evil.example.test', ['127.0.0.1']);
    // Resolving at creation would tell a tenant which internal names exist: the check refuses it.
    await expect(
      createMonitor(closedCtx, {
        name: 'x',
        type: 'http',
        url: 'http://evil.example.test/',
        interval_seconds: 60,
        is_public: false,
      } as never),
    ).resolves.toMatchObject({ type: 'http' });
    await expect(
      createMonitor(closedCtx, { name: 'x', type: 'tcp', host: '10.0.0.5', port: 22, interval_seconds: 60, is_public: false } as never),
    ).rejects.toThrow(/private/);
    await expect(
      createMonitor(closedCtx, {
        name: 'x',
        type: 'ssl',
        host: '169.254.169.254',
        port: 443,
        interval_seconds: 60,
        is_public: false,
      } as never),
    ).rejects.toThrow(/metadata/);
    await expect(
      createMonitor(closedCtx, {
        name: 'x',
        type: 'dns',
        host: 'example.com',
        resolver: '127.0.0.1:53',
        interval_seconds: 60,
        is_public: false,
      } as never),
    ).rejects.toThrow(/loopback/);
  });

  it('keeps metadata refused with private targets on', async () => {
    await expect(
      createMonitor(openCtx, { name: 'x', type: 'http', url: 'http://169.254.169.254/', interval_seconds: 60, is_public: false } as never),
    ).rejects.toThrow(/metadata/);
    await expect(
      createMonitor(openCtx, { name: 'x', type: 'http', url: 'http://[fd00:ec2::254]/', interval_seconds: 60, is_public: false } as never),
    ).rejects.toThrow(/metadata/);
  });

  it('refuses at run time: loopback literals, odd forms, a name rebinding to 127.0.0.1, and redirects to loopback or metadata', async () => {
    dns.records.set('rebind.example.test', ['93.184.216.34']);
    const mk = (name: string, url: string) =>
      createMonitor(openCtx, {
        name,
        type: 'http',
        url,
        interval_seconds: 60,
        timeout_seconds: 2,
        confirmations: 1,
        is_public: false,
      } as never);
    const odd = await mk('odd form', `http://127.1:${http.port}/ok`);
    const hex = await mk('hex form', `http://0x7f000001:${http.port}/ok`);
    const mapped = await mk('mapped', `http://[::ffff:127.0.0.1]:${http.port}/ok`);
    // Passes the create-time check with a public answer, then the name answers 127.0.0.1.
    const rebind = await mk('rebinding', `http://rebind.example.test:${http.port}/ok`);
    dns.records.set('rebind.example.test', ['127.0.0.1']);
    const redirect = await mk(
      'redirect to loopback',
      `http://127.0.0.1:${http.port}/redirect-to?to=${encodeURIComponent(`http://127.0.0.1:${http.port}/ok`)}`,
    );
    const meta = await mk(
      'redirect to metadata',
      `http://127.0.0.1:${http.port}/redirect-to?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
    );

    // Private targets off: the engine refuses every one of them when it connects.
    const closedEngine = createEngine(closed);
    await closedEngine.runDueNow();
    for (const m of [odd, hex, mapped, rebind, redirect, meta]) {
      const v = await getMonitor(openCtx, m.id);
      expect(v.status, m.name).toBe('down');
      expect(v.last_error, m.name).toMatch(/^Target refused: /);
    }
    expect(http.hits.get('/ok') ?? []).toHaveLength(0);

    // Private targets on: loopback is reachable, the redirect to metadata still is not.
    const openEngine = createEngine(open);
    const now = Date.now();
    await open.db.k.updateTable('monitors').set({ next_due_at: now }).execute();
    await openEngine.runDueNow();
    expect((await getMonitor(openCtx, redirect.id)).status).toBe('operational');
    expect((await getMonitor(openCtx, odd.id)).status).toBe('operational');
    const m = await getMonitor(openCtx, meta.id);
    expect(m.status).toBe('down');
    expect(m.last_error).toBe('Target refused: 169.254.169.254 is a cloud metadata address');
  });

  it('checks every redirect hop: with only 127.0.0.1/32 opened, a redirect to 127.0.0.2 or ::1 is refused after the first hop', async () => {
    const listed = await createServices(
      parseConfig({
        NODE_ENV: 'test',
        DATA_DIR: tempDir(),
        LOG_LEVEL: 'silent',
        MIN_CHECK_INTERVAL_SECONDS: '1',
        ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
      }),
      { db: open.db },
    );
    const ctx = ctxFor(listed, openCtx.actor!);
    listed.monitoring = { immediateChecks: { windowMs: 0, perCompany: Infinity } }; // every monitor made here is checked at once
    await open.db.k.updateTable('monitors').set({ is_paused: true }).execute(); // only these two run
    const via = (name: string, to: string) =>
      createMonitor(ctx, {
        name,
        type: 'http',
        url: `http://127.0.0.1:${http.port}/redirect-to?to=${encodeURIComponent(to)}`,
        interval_seconds: 60,
        timeout_seconds: 2,
        confirmations: 1,
        is_public: false,
      } as never);
    const v4 = await via('hop to 127.0.0.2', `http://127.0.0.2:${http.port}/ok`);
    const v6 = await via('hop to ::1', `http://[::1]:${http.port}/ok`);
    const before = (http.hits.get('/redirect-to') ?? []).length;
    await createEngine(listed).runDueNow();
    expect((http.hits.get('/redirect-to') ?? []).length).toBe(before + 2); // the first hop was allowed and made
    expect((await getMonitor(openCtx, v4.id)).last_error).toBe('Target refused: 127.0.0.2 is a loopback address');
    expect((await getMonitor(openCtx, v6.id)).last_error).toBe('Target refused: ::1 is a loopback address');
    // create time follows the same list
    await expect(
      createMonitor(ctx, { name: 'x', type: 'tcp', host: '127.0.0.2', port: 80, interval_seconds: 60, is_public: false } as never),
    ).rejects.toThrow(/loopback/);
  });

  it('keeps the internal network out of DNS checks: internal names refused, internal answers not shown', async () => {
    // private targets off: names the platform's own resolver would answer about its network
    for (const [host, record_type] of [
      ['postgres', 'A'],
      ['db.default.svc.cluster.local', 'A'],
      ['printer.local', 'A'],
      ['vault.internal', 'TXT'],
      ['5.0.0.10.in-addr.arpa', 'PTR'],
      ['10.in-addr.arpa', 'SOA'],
    ]) {
      const e = await createMonitor(closedCtx, {
        name: 'x',
        type: 'dns',
        host,
        record_type,
        interval_seconds: 60,
        is_public: false,
      } as never).catch((x: unknown) => x);
      expect((e as DomainError).fields?.host, host).toMatch(/^Target refused: /);
    }
    // a public name and a public reverse zone are fine
    await expect(
      createMonitor(closedCtx, {
        name: 'ok',
        type: 'dns',
        host: 'example.com',
        record_type: 'A',
        interval_seconds: 60,
        is_public: false,
      } as never),
    ).resolves.toMatchObject({ type: 'dns' });
    await expect(
      createMonitor(closedCtx, {
        name: 'ok ptr',
        type: 'dns',
        host: '8.8.8.8.in-addr.arpa',
        record_type: 'PTR',
        interval_seconds: 60,
        is_public: false,
      } as never),
    ).resolves.toMatchObject({ type: 'dns' });

    // only the resolver's own address opened: an answer in another private range is hidden
    const listed = await createServices(
      parseConfig({
        NODE_ENV: 'test',
        DATA_DIR: tempDir(),
        LOG_LEVEL: 'silent',
        MIN_CHECK_INTERVAL_SECONDS: '1',
        ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
      }),
      { db: open.db },
    );
    const ctx = ctxFor(listed, openCtx.actor!);
    listed.monitoring = { immediateChecks: { windowMs: 0, perCompany: Infinity } }; // every monitor made here is checked at once
    dns.records.set('db.example.test', ['10.20.30.40']);
    dns.records.set('www.example.test', ['192.0.2.7']);
    await open.db.k.updateTable('monitors').set({ is_paused: true }).execute(); // only these two run
    const hidden = await createMonitor(ctx, {
      name: 'internal answer',
      type: 'dns',
      host: 'db.example.test',
      record_type: 'A',
      resolver: `127.0.0.1:${dns.port}`,
      expected_values: ['1.2.3.4'],
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
      is_public: true,
    } as never);
    const shown = await createMonitor(ctx, {
      name: 'public answer',
      type: 'dns',
      host: 'www.example.test',
      record_type: 'A',
      resolver: `127.0.0.1:${dns.port}`,
      expected_values: ['192.0.2.7'],
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
      is_public: true,
    } as never);
    await createEngine(listed).runDueNow();
    const h = await getMonitor(openCtx, hidden.id);
    expect(h.status).toBe('down');
    expect(h.last_error).toBe('db.example.test answers with a non-public address (not shown)');
    expect(JSON.stringify(h)).not.toContain('10.20.30.40');
    expect((await getMonitor(openCtx, shown.id)).status).toBe('operational');
  });

  it('reads ALLOW_PRIVATE_TARGETS as true, false or a CIDR list, and stops on anything else', () => {
    const cfg = (v: string) => parseConfig({ NODE_ENV: 'test', DATA_DIR: tempDir(), ALLOW_PRIVATE_TARGETS: v }).allowPrivateTargets;
    expect(cfg('true')).toBe(true);
    expect(cfg('off')).toBe(false);
    expect(cfg('10.0.0.0/8, fd00::/8')).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(() => cfg('10.0.0.0')).toThrow(/ALLOW_PRIVATE_TARGETS/);
  });
});
