// Maintenance windows start and end by the clock, not by a write: this job tells status-page
// subscribers when an occurrence started or ended in the last LOOKBACK_MS. Each notice has one
// delivery per subscriber and occurrence (the outbox's unique key), so the overlapping periods
// and several processes never send one twice; a process down for longer than the lookback
// skips the notices of that gap (the status page itself is always right).
import { withTransaction } from '../db/scope.ts';
import { subscriberNoticesRepo } from '../db/repositories/subscriber-notices-repo.ts';
import { occurrenceFrom } from '../../lib/maintenance.ts';
import { enqueueMaintenanceNotice, type MaintenanceCause } from '../notify/outbox/subscriber-enqueue.ts';
import type { Job } from './job.ts';

const PERIOD_MS = 30_000;
export const LOOKBACK_MS = 10 * 60_000;

/** The starts and ends of a window's occurrences inside (since, until]. */
export function transitionsIn(w: Parameters<typeof occurrenceFrom>[0] & { id: string }, since: number, until: number): MaintenanceCause[] {
  const out: MaintenanceCause[] = [];
  let at = since;
  // A short recurring window can start and end several times in the period: walk occurrences.
  for (let i = 0; i < 10; i++) {
    const o = occurrenceFrom(w, at);
    if (!o || o.start > until) break;
    if (o.start > since) out.push({ windowId: w.id, event: 'maintenance.started', startsAt: o.start, endsAt: o.end });
    if (o.end > until) break;
    out.push({ windowId: w.id, event: 'maintenance.ended', startsAt: o.start, endsAt: o.end });
    at = o.end;
  }
  return out;
}

export const subscriberMaintenance: Job = {
  name: 'subscriber-maintenance',
  periodMs: PERIOD_MS,
  async run(services, now) {
    const windows = await subscriberNoticesRepo(services.db).windowsAround(now - LOOKBACK_MS, now);
    const causes = windows.flatMap((w) => transitionsIn(w, now - LOOKBACK_MS, now));
    for (const cause of causes) await withTransaction(services.db, (tx) => enqueueMaintenanceNotice(tx, cause, now));
    return undefined;
  },
};
