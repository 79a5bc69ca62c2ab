// A new service.version of a service whose spans name the monitored host, first seen shortly
// before the incident (or during it): the deploy that may have caused it.
import { evidenceSourcesRepo } from '../../../db/repositories/evidence-sources-repo.ts';
import { spansOfHost } from './host-spans.ts';
import { agoText, DAY_MS, HOUR_MS, iso, type EvidenceModule, type Finding } from './module.ts';

/** "Shortly before": a deploy's effect shows within minutes; 2 hours leaves room for slow rollouts */
const RECENT_MS = 2 * HOUR_MS;
/** How far back versions are known: a version first seen within RECENT_MS is new only if the service reported another one earlier */
const HISTORY_MS = 7 * DAY_MS;

export const deployEvidence: EvidenceModule = {
  kind: 'deploy',
  async build({ db, incident, monitor, now }) {
    if (!monitor.host) return [];
    const recentFrom = incident.started_at - RECENT_MS;
    const services = [...new Set((await spansOfHost(db, incident.company_id, monitor.host, recentFrom, now)).map((s) => s.service))].sort();
    const versions = await evidenceSourcesRepo(db).versionsFirstSeen(
      incident.company_id,
      services,
      (incident.started_at - HISTORY_MS) * 1000,
      now * 1000,
    );
    const out: Finding[] = [];
    for (const service of services) {
      const own = versions.filter((v) => v.service === service).sort((a, b) => a.first_us - b.first_us);
      for (const v of own) {
        const first = Math.floor(v.first_us / 1000);
        if (first < recentFrom) continue;
        // A service seen for the first time is new to tracing, not necessarily deployed.
        const previous = own.filter((o) => o.first_us < v.first_us).at(-1);
        if (!previous) continue;
        const when = first <= incident.started_at ? `${agoText(incident.started_at - first)} before the incident` : 'during the incident';
        out.push({
          item: {
            kind: 'deploy',
            summary: `${service} ${v.version} first seen ${when} (before: ${previous.version}).`,
            at: iso(first),
            source: { label: 'Traces', href: `/traces?service=${encodeURIComponent(service)}` },
            data: { service, version: v.version, previous_version: previous.version, first_seen_at: iso(first) },
          },
          short: `${service} ${v.version} deployed ${first <= incident.started_at ? `${agoText(incident.started_at - first)} before` : 'during it'}`,
        });
      }
    }
    return out;
  },
};
