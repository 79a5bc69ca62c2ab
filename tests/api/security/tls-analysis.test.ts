// The daily TLS analysis on both databases, against loopback TLS servers: verified host assets
// and https monitors are analysed once a day at their own minute, results and findings stored
// per company, an unverified asset never touched, and `ssl_warning` sent at the expiry thresholds
// (once per threshold per certificate) and for each problem newly seen.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dailyOffset } from '../../../src/lib/daily-slot.ts';
import { newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';
import { securityAssetsRepo } from '../../../src/server/db/repositories/security-assets-repo.ts';
import { securityFindingsRepo } from '../../../src/server/db/repositories/security-findings-repo.ts';
import type { Services } from '../../../src/server/domain/context.ts';
import { runDueTlsAnalyses } from '../../../src/server/domain/security/ssl-schedule.ts';
import { withTransaction } from '../../../src/server/db/scope.ts';
import { DEFAULT_LIMITS } from '../../../src/server/engine/checkers/types.ts';
import { sslKind } from '../../../src/server/engine/kinds/ssl.ts';
import { notifyIn } from '../../../src/server/notify/notify.ts';
import { startTlsTargets, type TlsTargets } from '../../fixtures/targets/tls-targets.ts';
import { servicesOn } from '../../support/alert-services.ts';
import { seedCompany, seedUser } from '../../support/fixtures.ts';
import { DB_KINDS, newDatabaseLocation } from '../../support/test-db.ts';

const DAY = 86_400_000;
let targets: TlsTargets;
beforeAll(async () => {
  targets = await startTlsTargets();
});
afterAll(async () => targets?.close());

describe.each(DB_KINDS)('daily TLS analysis on %s', (kind) => {
  let services: Services;
  let clock = 0;
  afterEach(async () => services?.db.close());

  async function setUp() {
    // Midnight UTC of today: every target's minute of the day is still to come.
    clock = Math.floor(Date.now() / DAY) * DAY;
    services = await servicesOn(await newDatabaseLocation(kind), () => clock, {});
    const ports: Record<string, number> = { localhost: targets.port.expiring, 'unverified.localhost': targets.port.weak };
    services.monitoring = {
      extraCa: [targets.caPem],
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      assetTlsPort: (h) => ports[h],
    };
    const a = await seedCompany(services);
    const b = await seedCompany(services);
    const userA = await seedUser(services, { userType: 2, companyId: a.id });
    const userB = await seedUser(services, { userType: 3, companyId: b.id });
    const assets = securityAssetsRepo(services.db);
    const asset = (id: string, hostname: string) => ({
      id,
      company_id: a.id,
      hostname,
      kind: 'host' as const,
      verification_token: `tok-${id}`,
      verification_method: null,
      verified_at: null,
      last_verification_at: null,
      last_verification_error: null,
      created_at: clock,
      updated_at: clock,
    });
    await assets.insert(asset('asset-verified', 'localhost'));
    await assets.markVerified('asset-verified', 'dns', clock, ['127.0.0.1']);
    await assets.insert(asset('asset-unverified', 'unverified.localhost'));
    const monitor = async (id: string, company: string, type: 'ssl' | 'http', config: object) =>
      services.db.k
        .insertInto('monitors')
        .values(
          newMonitorRow({
            id,
            company_id: company,
            name: `monitor ${id}`,
            type,
            config: JSON.stringify(config),
            is_public: false,
            interval_seconds: 60,
            timeout_seconds: 10,
            confirmations: 1,
            next_due_at: clock + 365 * DAY,
            created_at: clock,
          }),
        )
        .execute();
    // Covered by company A's verified asset of the same host: analysed as the asset only.
    await monitor('m-covered', a.id, 'ssl', { host: 'localhost', port: targets.port.good });
    await monitor('m-weak', b.id, 'http', { url: `https://localhost:${targets.port.weak}/` });
    await monitor('m-good', b.id, 'ssl', { host: 'localhost', port: targets.port.good });
    await monitor('m-plain', b.id, 'http', { url: 'http://localhost:1/' });
    return { a, b, userA, userB };
  }

  const notes = async (companyId: string) =>
    (
      await services.db.k
        .selectFrom('notifications')
        .select(['type', 'title', 'severity', 'metadata'])
        .where('company_id', '=', companyId)
        .orderBy('created_at')
        .orderBy('title')
        .execute()
    ).map((n) => ({
      type: n.type,
      title: n.title,
      severity: n.severity,
      metadata: JSON.parse(n.metadata ?? '{}') as Record<string, unknown>,
    }));

  it('analyses verified assets and uncovered https monitors once a day, and warns exactly once per event', async () => {
    const { a, b } = await setUp();
    // Never analysed: due at once.
    expect(await runDueTlsAnalyses(services, clock)).toBe(3);

    const results = await securityFindingsRepo(services.db).listResults(null, 'ssl');
    expect(results.map((r) => [r.asset_id, r.company_id, r.grade])).toEqual([['asset-verified', a.id, 'A']]);
    const data = JSON.parse(results[0].data) as Record<string, unknown>;
    expect(data.cert_expires_at).toBeGreaterThan(clock);
    expect(data.issuer).toContain('Test CA R1');
    const findings = await securityFindingsRepo(services.db).list({ companyId: a.id, source: 'ssl' });
    expect(findings.map((f) => [f.key, f.status]).sort()).toEqual([
      ['tls.cert.expiring', 'open'],
      ['tls.cipher.cbc_sha1', 'open'],
    ]);
    const monitorRows = await services.db.k.selectFrom('tls_monitor_analyses').selectAll().orderBy('monitor_id').execute();
    expect(monitorRows.map((r) => [r.monitor_id, r.company_id, r.grade])).toEqual([
      ['m-good', b.id, 'A+'],
      ['m-weak', b.id, 'C'],
    ]);

    const daysLeft = Math.floor(((data.cert_expires_at as number) - clock) / DAY);
    expect(await notes(a.id)).toEqual([
      {
        type: 'ssl_warning',
        title: `Certificate of localhost expires in ${daysLeft} days`,
        severity: 'medium',
        metadata: expect.objectContaining({ asset_id: 'asset-verified', threshold: 14 }),
      },
      {
        type: 'ssl_warning',
        title: 'TLS problem on localhost: CBC cipher suites with SHA-1 are accepted',
        severity: 'low',
        metadata: expect.objectContaining({ asset_id: 'asset-verified', findings: ['tls.cipher.cbc_sha1'] }),
      },
    ]);
    expect(await notes(b.id)).toEqual([
      {
        type: 'ssl_warning',
        title: '7 new TLS problems on monitor m-weak',
        severity: 'high',
        metadata: expect.objectContaining({
          monitor_id: 'm-weak',
          findings: [
            'tls.key.weak',
            'tls.cert.weak_signature',
            'tls.protocol.tls1_0',
            'tls.protocol.tls1_1',
            'tls.protocol.no_tls1_3',
            'tls.cipher.rsa_kx',
            'tls.cipher.cbc_sha1',
          ],
        }),
      },
    ]);

    // The same day: nothing is due again before each target's minute of tomorrow.
    expect(dailyOffset('m-weak') > 1000 && dailyOffset('m-good') > 1000 && dailyOffset('asset-verified') > 1000).toBe(true);
    expect(await runDueTlsAnalyses(services, clock + 1000)).toBe(0);
    // Next day, same threshold (14) and same problems: analysed again, nobody warned again.
    clock += DAY;
    expect(await runDueTlsAnalyses(services, clock)).toBe(3);
    expect(await notes(a.id)).toHaveLength(2);
    expect(await notes(b.id)).toHaveLength(1);
    // Four days on, under 7 days left: the 7-day warning, once.
    clock += 3 * DAY;
    expect(await runDueTlsAnalyses(services, clock)).toBe(3);
    const later = await notes(a.id);
    expect(later).toHaveLength(3);
    expect(later[2]).toMatchObject({ severity: 'high', metadata: expect.objectContaining({ threshold: 7 }) });
    expect(await notes(b.id)).toHaveLength(1);

    // The unverified asset was never analysed (its host serves the weak certificate).
    expect(await securityFindingsRepo(services.db).list({ companyId: a.id, assetId: 'asset-unverified' })).toEqual([]);
  });

  it("announces a monitor's expiring certificate once, whether the engine's check or the daily analysis sees it first", async () => {
    const { b } = await setUp();
    const config = { host: 'localhost', port: targets.port.expiring };
    await services.db.k
      .insertInto('monitors')
      .values(
        newMonitorRow({
          id: 'm-expiring',
          company_id: b.id,
          name: 'Expiring API',
          type: 'ssl',
          config: JSON.stringify(config),
          is_public: false,
          interval_seconds: 60,
          timeout_seconds: 10,
          confirmations: 1,
          next_due_at: clock + 365 * DAY,
          created_at: clock,
        }),
      )
      .execute();
    // The engine's ssl check and its warnings, as the scheduler runs them.
    const env = {
      now: () => clock,
      allowPrivateTargets: true,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      extraCa: [targets.caPem],
      limits: DEFAULT_LIMITS,
    };
    const target = {
      id: 'm-expiring',
      type: 'ssl' as const,
      config,
      timeoutMs: 10_000,
      lastPushAt: null,
      intervalMs: 60_000,
      createdAt: clock,
    };
    const outcome = await sslKind.check(target, env, AbortSignal.timeout(10_000));
    expect(outcome.status).toBe('operational');
    await withTransaction(services.db, (tx) =>
      sslKind.afterResult!({
        monitor: { id: 'm-expiring', name: 'Expiring API', company_id: b.id, last_answers: null },
        config: { ...config, ssl_warning_days: [30, 14, 7, 1] },
        outcome,
        checkedAt: clock,
        changedTo: null,
        since: clock,
        notify: (d) => notifyIn(tx, clock)(b.id, d),
      }),
    );
    await runDueTlsAnalyses(services, clock);
    const expiring = (await notes(b.id)).filter((n) => n.title.startsWith('Certificate of Expiring API expires'));
    expect(expiring).toEqual([expect.objectContaining({ metadata: expect.objectContaining({ monitor_id: 'm-expiring', threshold: 14 }) })]);
  });
});
