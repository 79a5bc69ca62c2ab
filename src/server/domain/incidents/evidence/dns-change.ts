// DNS changes of the target's host in the hours before: the "DNS answers changed" warnings of
// the company's dns monitors asking for that host, and the "DNS records changed" warnings of
// its domain checks covering the host. Both are already sent as warnings (engine/kinds/dns.ts,
// domain/security/domain-check-run.ts); the panel puts them beside the outage.
import { evidenceSourcesRepo } from '../../../db/repositories/evidence-sources-repo.ts';
import { agoText, HOUR_MS, iso, type EvidenceModule, type Finding } from './module.ts';

/** How far before the incident a change is still "before it": a TTL or two, a cache or two */
const LOOKBACK_MS = 6 * HOUR_MS;

const under = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

export const dnsChangeEvidence: EvidenceModule = {
  kind: 'dns_change',
  async build({ db, incident, monitor, now }) {
    const host = monitor.host;
    if (!host) return [];
    const sources = evidenceSourcesRepo(db);
    const notices = await sources.dnsChangeNotices(incident.company_id, incident.started_at - LOOKBACK_MS, now);
    if (notices.length === 0) return [];
    const meta = notices.map((n) => {
      try {
        return n.metadata ? (JSON.parse(n.metadata) as Record<string, unknown>) : {};
      } catch {
        return {};
      }
    });
    const monitorIds = [...new Set(meta.map((m) => m.monitor_id).filter((id): id is string => typeof id === 'string'))];
    const dnsHosts = new Map<string, string>();
    for (const m of await sources.monitorsByIds(incident.company_id, monitorIds)) {
      if (m.type !== 'dns') continue;
      let name = '';
      try {
        name = String((JSON.parse(m.config) as { host?: string }).host ?? '')
          .toLowerCase()
          .replace(/\.$/, '');
      } catch {
        continue; // a config that does not parse names no host
      }
      dnsHosts.set(m.id, name);
    }
    const out: Finding[] = [];
    notices.forEach((n, i) => {
      const m = meta[i];
      const before = Array.isArray(m.before) ? (m.before as string[]) : null;
      const after = Array.isArray(m.after) ? (m.after as string[]) : null;
      const lead = agoText(incident.started_at - n.created_at);
      const when = n.created_at <= incident.started_at ? `${lead} before the incident` : 'during the incident';
      if (typeof m.monitor_id === 'string' && dnsHosts.get(m.monitor_id) === host) {
        out.push({
          item: {
            kind: 'dns_change',
            summary: `DNS answers for ${host} changed ${when}: was ${before?.join(', ') || 'empty'}; now ${after?.join(', ') || 'empty'}.`,
            at: iso(n.created_at),
            source: { label: 'DNS monitor', href: `/monitors/${m.monitor_id}` },
            data: {
              host,
              before: before ?? [],
              after: after ?? [],
              minutes_before: Math.round((incident.started_at - n.created_at) / 60_000),
            },
          },
          short: `DNS answers changed ${lead} before`,
        });
      } else if (typeof m.domain === 'string' && typeof m.asset_id === 'string' && under(host, m.domain)) {
        out.push({
          item: {
            kind: 'dns_change',
            summary: `DNS records of ${m.domain} changed ${when}: ${n.message.split('\n').join('; ')}.`,
            at: iso(n.created_at),
            source: { label: 'Domain check', href: `/domain-checks?domain=${m.asset_id}` },
            data: {
              host,
              domain: m.domain,
              changes: n.message.split('\n'),
              minutes_before: Math.round((incident.started_at - n.created_at) / 60_000),
            },
          },
          short: `DNS records changed ${lead} before`,
        });
      }
    });
    return out;
  },
};
