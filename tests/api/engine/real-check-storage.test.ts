// Real checks are stored compactly (issue 27, item 7): checks of the real http kind against a
// loopback target go through the result writer and the check-compaction job, and their chunk
// holds them as columns, not as texts. The http checker builds its phase timings with `total`
// first; stored in that order, no check's timings matched the codec's phase order, so each was
// kept whole in the chunk's text table (about 60 bytes a check inside the chunk, 96 in the
// database, measured by `npm run bench:storage`). What the API answers is the same check.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkAnatomy } from '../../../src/lib/check-chunk.ts';
import { monitorsRepo, newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';
import { checkOnce } from '../../../src/server/engine/check-once.ts';
import { writeBatch, type PendingResult } from '../../../src/server/engine/result-writer.ts';
import { checkCompaction } from '../../../src/server/jobs/check-compaction.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';

const T0 = Date.UTC(2026, 10, 24, 10, 0, 0);
const CHECKS = 60;
/** The test's clock: just after the last check */
const NOW = T0 + CHECKS * 60_000;

describe.each(DB_KINDS)('real http checks in chunks on %s', (kind) => {
  let t: TestApp;
  let target: http.Server;
  let host = '';
  let admin: ApiClient;
  const monitorId = `m-real-${kind}`;
  const outcomes: PendingResult['outcome'][] = [];

  beforeAll(async () => {
    target = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
    t = await startTestApp({ db: kind, now: () => NOW, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    const company = await seedCompany(t.services, { plan: 'enterprise' });
    await monitorsRepo(t.services.db).insert(
      newMonitorRow({
        id: monitorId,
        company_id: company.id,
        name: 'loopback',
        type: 'http',
        config: JSON.stringify({ url, method: 'GET' }),
        is_public: true,
        interval_seconds: 60,
        timeout_seconds: 5,
        confirmations: 1,
        next_due_at: T0 + 86_400_000,
        created_at: T0 - 60_000,
      }),
    );
    const pending: PendingResult[] = [];
    for (let i = 0; i < CHECKS; i++) {
      const outcome = await checkOnce(t.services, {
        type: 'http',
        config: { url, method: 'GET', accepted_status_codes: ['200-299'], follow_redirects: true },
        timeoutSeconds: 5,
        intervalSeconds: 60,
      });
      outcomes.push(outcome);
      pending.push({ monitorId, companyId: company.id, checkedAt: T0 + i * 60_000 + (i % 7), leaseOwner: null, outcome });
    }
    await writeBatch(t.services.db, pending, NOW, t.services.monitorIncidents!);
    host = `${company.subdomain}.${t.config.productDomain}`;
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: company.id }), host);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    target?.close();
  });

  it('keeps their phase timings as columns: a few bytes a check, no text per check', async () => {
    expect(outcomes.every((o) => o.status === 'operational' && o.timings?.ttfb !== undefined)).toBe(true);
    const before = (await admin.get(`/api/v1/monitors/${monitorId}/checks?limit=100`, { host })).body;
    expect(await checkCompaction.run(t.services, NOW + 2 * 3_600_000)).toBe(`compacted ${CHECKS} check results`);
    const chunks = await t.services.db.k.selectFrom('check_chunks').select(['data', 'checks']).execute();
    expect(chunks.reduce((a, c) => a + c.checks, 0)).toBe(CHECKS);
    for (const c of chunks) {
      // The only text of an all-operational hour is the status itself.
      expect(chunkAnatomy(c.data).textBytes).toBeLessThan(20);
      expect(c.data.length / c.checks).toBeLessThan(16);
    }
    const after = (await admin.get(`/api/v1/monitors/${monitorId}/checks?limit=100`, { host })).body;
    expect(after).toEqual(before);
    expect(after.map((c: { timings: unknown }) => c.timings)).toEqual(outcomes.map((o) => o.timings).reverse());
  });
});
