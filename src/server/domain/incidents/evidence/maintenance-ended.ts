// A maintenance window covering the monitor that ended shortly before the incident: work that
// was meant to be finished, and the checks that were silenced until then.
import { isActiveAt } from '../../../../lib/maintenance.ts';
import { evidenceSourcesRepo } from '../../../db/repositories/evidence-sources-repo.ts';
import { agoText, HOUR_MS, iso, MINUTE_MS, type EvidenceModule, type Finding } from './module.ts';

/** "Shortly before": the first checks after a window come within minutes; an hour covers long intervals */
const WINDOW_MS = HOUR_MS;

export const maintenanceEndedEvidence: EvidenceModule = {
  kind: 'maintenance_ended',
  async build({ db, incident, monitor }) {
    const start = incident.started_at;
    const windows = await evidenceSourcesRepo(db).maintenanceOfMonitor(incident.company_id, monitor.id, start - WINDOW_MS, start);
    const out: Finding[] = [];
    for (const w of windows) {
      if (isActiveAt(w, start)) continue;
      // The last minute it ran in the hour before (recurring windows: the occurrence that ended).
      let endedAt: number | null = null;
      for (let t = start - MINUTE_MS; t >= start - WINDOW_MS; t -= MINUTE_MS) {
        if (isActiveAt(w, t)) {
          endedAt = Math.min(t + MINUTE_MS, start);
          break;
        }
      }
      if (endedAt === null) continue;
      out.push({
        item: {
          kind: 'maintenance_ended',
          summary: `Maintenance "${w.title}" ended ${agoText(start - endedAt)} before the incident.`,
          at: iso(endedAt),
          source: { label: 'Maintenance', href: '/monitors/maintenance' },
          data: { maintenance_id: w.id, title: w.title, ended_at: iso(endedAt), minutes_before: Math.round((start - endedAt) / MINUTE_MS) },
        },
        short: `maintenance ended ${agoText(start - endedAt)} before`,
      });
    }
    return out;
  },
};
