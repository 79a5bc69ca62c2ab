// The daily re-check of verified custom domains. A domain whose records are gone or wrong stops
// being served at once and its company's admins are told (in the transaction that failed it); a
// DNS that does not answer proves nothing either way, so the domain stays verified, the error is
// kept, and the next hourly run asks again.
import { customDomainsRepo } from '../../db/repositories/custom-domains-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { notifyIn } from '../../notify/notify.ts';
import type { Services } from '../context.ts';
import { proveControl } from './service.ts';

export const RECHECK_AFTER_MS = 24 * 3_600_000;
const BATCH = 200;

export async function recheckCustomDomains(services: Services, now: number): Promise<{ checked: number; failed: number }> {
  const repo = customDomainsRepo(services.db);
  const due = await repo.listDueForRecheck(now - RECHECK_AFTER_MS, BATCH);
  let failed = 0;
  for (const row of due) {
    const company = await companiesRepo(services.db).findById(row.company_id);
    const outcome = await proveControl(services, row, company?.subdomain ?? '');
    if (outcome.kind === 'proven') {
      await repo.markVerified(row.id, now);
    } else if (outcome.kind === 'unknown') {
      await repo.markCheckError(row.id, outcome.error, now);
    } else {
      failed += 1;
      await withTransaction(services.db, async (tx) => {
        await customDomainsRepo(tx).markFailed(row.id, outcome.error, now);
        await notifyIn(tx, now)(row.company_id, {
          type: 'system',
          severity: 'high',
          title: `Custom domain ${row.domain} is no longer served`,
          message:
            `The daily check could not confirm that ${row.domain} still points at your status page, so it now answers 404. ` +
            'Restore the DNS records shown under Status page → Custom domain and press Verify now.',
          details: outcome.error,
          metadata: { event: 'custom_domain_failed', domain: row.domain, custom_domain_id: row.id },
          actionUrl: '/monitors/status-page',
          audience: 'admins',
          dedupeKey: `custom-domain:${row.id}:failed:${now}`,
        });
      });
    }
  }
  if (due.length) services.state.customDomainRoutes.invalidate();
  return { checked: due.length, failed };
}
