// The security suite's storage on both databases: assets are company-scoped and only verified
// ones reach the jobs; a run's findings open, stay open, get fixed when no longer seen, reopen
// when seen again, and an accepted risk stays accepted.
import { afterEach, describe, expect, it } from 'vitest';
import { securityAssetsRepo } from '../../../src/server/db/repositories/security-assets-repo.ts';
import { securityFindingsRepo } from '../../../src/server/db/repositories/security-findings-repo.ts';
import type { Services } from '../../../src/server/domain/context.ts';
import { servicesOn } from '../../support/alert-services.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { DB_KINDS, newDatabaseLocation } from '../../support/test-db.ts';

describe.each(DB_KINDS)('security storage on %s', (kind) => {
  let services: Services;
  afterEach(async () => services?.db.close());

  async function setUp() {
    services = await servicesOn(await newDatabaseLocation(kind), () => 1_000, {});
    const a = await seedCompany(services);
    const b = await seedCompany(services);
    const assets = securityAssetsRepo(services.db);
    const row = (id: string, company: string, hostname: string) => ({
      id,
      company_id: company,
      hostname,
      kind: 'host' as const,
      verification_token: `tok-${id}`,
      verification_method: null,
      verified_at: null,
      last_verification_at: null,
      last_verification_error: null,
      created_at: 1,
      updated_at: 1,
    });
    await assets.insert(row('a1', a.id, 'www.a.example'));
    await assets.insert(row('a2', a.id, 'api.a.example'));
    await assets.insert(row('b1', b.id, 'www.b.example'));
    return { a, b, assets, findings: securityFindingsRepo(services.db) };
  }

  it('scopes assets to their company and gives the jobs only verified ones', async () => {
    const { a, b, assets } = await setUp();
    expect((await assets.list(a.id)).map((r) => r.hostname)).toEqual(['api.a.example', 'www.a.example']);
    expect(await assets.get(a.id, 'b1')).toBeUndefined();
    expect((await assets.get(null, 'b1'))?.company_id).toBe(b.id);
    expect(await assets.listVerified()).toEqual([]);
    await assets.markVerified('a2', 'dns', 5);
    expect((await assets.listVerified()).map((r) => r.id)).toEqual(['a2']);
    await assets.markUnverified('a2', 'TXT record not found', 9);
    expect(await assets.listVerified()).toEqual([]);
    expect((await assets.get(a.id, 'a2'))?.last_verification_error).toBe('TXT record not found');
    expect(await assets.delete(a.id, 'b1')).toBe(false);
    expect(await assets.list(b.id)).toHaveLength(1);
  });

  it('tracks findings across runs', async () => {
    const { a, findings } = await setUp();
    const asset = { id: 'a1', company_id: a.id };
    const tls10 = { key: 'tls.protocol.tls1_0', severity: 'high' as const, title: 'TLS 1.0 enabled', evidence: 'handshake TLSv1' };
    const hsts = { key: 'http.hsts', severity: 'medium' as const, title: 'No HSTS', evidence: 'no header' };

    const first = await findings.record(asset, 'ssl', [tls10, hsts], 100);
    expect(first.opened.map((f) => f.key).sort()).toEqual(['http.hsts', 'tls.protocol.tls1_0']);
    const again = await findings.record(asset, 'ssl', [tls10, hsts], 200);
    expect(again).toEqual({ opened: [], fixed: [] });

    const accepted = (await findings.list({ companyId: a.id, source: 'ssl' })).find((f) => f.key === 'http.hsts')!;
    await findings.setStatus(accepted.id, 'accepted', 'internal host', 250);

    const third = await findings.record(asset, 'ssl', [hsts], 300);
    expect(third.fixed.map((f) => f.key)).toEqual(['tls.protocol.tls1_0']);
    const all = await findings.list({ companyId: a.id });
    expect(all.find((f) => f.key === 'http.hsts')).toMatchObject({
      status: 'accepted',
      status_reason: 'internal host',
      first_seen_at: 100,
      last_seen_at: 300,
    });
    expect(all.find((f) => f.key === 'tls.protocol.tls1_0')).toMatchObject({ status: 'fixed', last_seen_at: 200 });

    const back = await findings.record(asset, 'ssl', [tls10, hsts], 400);
    expect(back.opened.map((f) => f.key)).toEqual(['tls.protocol.tls1_0']);
    expect(await findings.list({ companyId: 'someone-else' })).toEqual([]);

    await findings.saveResult({ asset_id: 'a1', source: 'ssl', company_id: a.id, checked_at: 400, grade: 'B', data: '{}' });
    await findings.saveResult({ asset_id: 'a1', source: 'ssl', company_id: a.id, checked_at: 500, grade: 'A', data: '{"x":1}' });
    expect(await findings.listResults(a.id, 'ssl')).toEqual([
      { asset_id: 'a1', source: 'ssl', company_id: a.id, checked_at: 500, grade: 'A', data: '{"x":1}' },
    ]);
  });
});
