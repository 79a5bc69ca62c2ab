// Maintenance notices: when an occurrence of a maintenance window starts or ends, one draft goes
// through notify (in-app for the company's users, maintenance.started / maintenance.ended for its
// channels; Opsgenie pairs them by the occurrence), and one notice to the status page's subscribers. The maintenance-notices job calls this every
// few seconds; each run scans from a little before the last scanned time (a watermark in
// platform_state) to now. The drafts' dedupe keys name the occurrence and creating one twice is a
// no-op (one notification per user, one delivery per channel), so each start and end is announced
// exactly once, whichever process runs it and however often; the overlap catches a change
// committed just after a scan that its timestamp falls in (a cancellation, from another process).
import { maintenanceEdges, type MaintenanceEdge } from '../../../lib/maintenance-edges.ts';
import { occurrenceFrom } from '../../../lib/maintenance.ts';
import { maintenanceRepo, type MaintenanceRow } from '../../db/repositories/maintenance-repo.ts';
import { platformStateRepo } from '../../db/repositories/platform-state-repo.ts';
import { type DbScope, withTransaction } from '../../db/scope.ts';
import { notifyIn, type NotificationDraft } from '../../notify/notify.ts';
import { enqueueMaintenanceNotice } from '../../notify/outbox/subscriber-enqueue.ts';

const STATE = 'maintenance-notices';
/** After a longer stop, older starts and ends are not announced any more. */
export const MAX_LOOKBACK_MS = 24 * 3_600_000;
/** Each scan goes back this far before the last one ended (repeats are no-ops). */
const OVERLAP_MS = 5 * 60_000;

/** Announces what started or ended since the last run; answers how many notices went out. */
export async function announceMaintenance(db: DbScope, now: number): Promise<number> {
  return withTransaction(db, async (tx) => {
    const state = platformStateRepo(tx);
    const raw = await state.get(STATE);
    // The first run only marks where scanning starts: the past is not announced.
    const scannedTo = raw ? (JSON.parse(raw) as { scanned_to: number }).scanned_to : now;
    // Another process scanned meanwhile: its run announced this slice.
    if (!(await state.compareAndSet(STATE, raw, JSON.stringify({ scanned_to: Math.max(now, scannedTo) }), now))) return 0;
    if (!raw) return 0;
    const from = Math.max(scannedTo - OVERLAP_MS, now - MAX_LOOKBACK_MS);
    const notify = notifyIn(tx, now);
    let sent = 0;
    for (const w of await maintenanceRepo(tx).touching(from, now)) {
      for (const edge of maintenanceEdges(w, from, now)) {
        await notify(w.company_id, draftOf(w, edge));
        // The status page's subscribers hear of the same start or end (public windows only).
        await enqueueMaintenanceNotice(
          tx,
          { windowId: w.id, event: `maintenance.${edge.kind}`, startsAt: edge.start, endsAt: edge.end },
          now,
        );
        sent++;
      }
    }
    return sent;
  });
}

/**
 * A window deleted while an occurrence runs: the scan will never see its end, so it is announced
 * here, in the deleting transaction, before the row goes (its start too, which is a no-op when the
 * job announced it already: the dedupe keys name the occurrence). Nothing for a window that has
 * not started, has ended or was cancelled (the scan announced that end).
 */
export async function announceEndBeforeDelete(tx: DbScope, w: MaintenanceRow, now: number): Promise<void> {
  if (w.cancelled_at !== null && w.cancelled_at !== undefined) return;
  const o = occurrenceFrom(w, now);
  if (!o || o.start > now || Number(w.created_at) > now) return;
  const notify = notifyIn(tx, now);
  for (const kind of ['started', 'ended'] as const) {
    const edge: MaintenanceEdge = {
      kind,
      at: kind === 'started' ? Math.max(o.start, Number(w.created_at)) : now,
      start: o.start,
      end: now,
    };
    await notify(w.company_id, draftOf(w, edge));
    await enqueueMaintenanceNotice(tx, { windowId: w.id, event: `maintenance.${kind}`, startsAt: o.start, endsAt: now }, now);
  }
}

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function draftOf(w: MaintenanceRow, e: MaintenanceEdge): NotificationDraft {
  const started = e.kind === 'started';
  return {
    // Maintenance is about the company's monitors: the monitor-incidents preference governs it.
    type: 'monitor_incident',
    severity: 'info',
    title: `Maintenance ${e.kind}: ${w.title}`,
    message: started
      ? `Scheduled maintenance "${w.title}" has started and runs until ${utc(e.end)}; the monitors it covers raise no incidents or alerts meanwhile.`
      : `Scheduled maintenance "${w.title}" has ended; the monitors it covered alert as usual again.`,
    details: null,
    metadata: {
      event: `maintenance.${e.kind}`,
      monitor_id: w.monitor_id,
      maintenance: { id: w.id, title: w.title, starts_at: e.start, ends_at: e.end },
    },
    actionUrl: '/monitors/maintenance',
    dedupeKey: `maintenance:${w.id}:${e.start}:${e.kind}`,
  };
}
