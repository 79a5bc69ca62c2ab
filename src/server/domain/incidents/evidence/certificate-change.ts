// The target's certificate changed in the hours before, as its own checks saw it: successful
// checks record the certificate's expiry, so a different expiry between two of them is another
// certificate; and checks that start failing on a refused certificate after checks that
// accepted one mean it was replaced by one the check refuses.
import { checksRepo, type CheckRow } from '../../../db/repositories/checks-repo.ts';
import { agoText, HOUR_MS, iso, type EvidenceModule, type Finding } from './module.ts';

const LOOKBACK_MS = 6 * HOUR_MS;
// The engine's words for a refused certificate (checkers/http.ts describeError, checkers/ssl.ts).
const REFUSED = /certificate|self[- ]signed|hostname\/ip does not match|unable to verify|CERT_/i;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const certificateChangeEvidence: EvidenceModule = {
  kind: 'certificate_change',
  async build({ db, incident, monitor, now }) {
    if (!monitor.host) return [];
    const rows = await checksRepo(db).list(monitor.id, { since: incident.started_at - LOOKBACK_MS, before: now + 1, limit: 2000 });
    const oldestFirst = [...rows].reverse();
    const accepted = oldestFirst.filter((r) => r.status !== 'down' && r.cert_expires_at !== null);
    const out: Finding[] = [];
    const href = `/monitors/${monitor.id}`;

    // Another certificate among accepted ones: the last change before now.
    let change: { from: CheckRow; to: CheckRow } | null = null;
    for (let i = 1; i < accepted.length; i++) {
      if (Number(accepted[i].cert_expires_at) !== Number(accepted[i - 1].cert_expires_at))
        change = { from: accepted[i - 1], to: accepted[i] };
    }
    if (change) {
      const at = Number(change.to.checked_at);
      out.push({
        item: {
          kind: 'certificate_change',
          summary: `Certificate of ${monitor.host} replaced ${at <= incident.started_at ? `${agoText(incident.started_at - at)} before the incident` : 'during the incident'}: it expired ${day(Number(change.from.cert_expires_at))}, the new one ${day(Number(change.to.cert_expires_at))}.`,
          at: iso(at),
          source: { label: 'Check history', href },
          data: {
            host: monitor.host,
            previous_expires_at: iso(Number(change.from.cert_expires_at)),
            new_expires_at: iso(Number(change.to.cert_expires_at)),
            last_seen_previous_at: iso(Number(change.from.checked_at)),
          },
        },
        short: `certificate replaced ${agoText(Math.max(0, incident.started_at - at))} before`,
      });
    }

    // Refused now, accepted before: the first refusal after the last accepted certificate.
    const lastAccepted = accepted.at(-1);
    const refused = oldestFirst.find(
      (r) =>
        r.status === 'down' &&
        r.error !== null &&
        REFUSED.test(r.error) &&
        (!lastAccepted || Number(r.checked_at) > Number(lastAccepted.checked_at)),
    );
    if (refused && lastAccepted) {
      const at = Number(refused.checked_at);
      out.push({
        item: {
          kind: 'certificate_change',
          summary: `The certificate of ${monitor.host} is refused since ${iso(at).slice(11, 16)} UTC (${refused.error}); the one accepted until ${iso(Number(lastAccepted.checked_at)).slice(11, 16)} UTC expires ${day(Number(lastAccepted.cert_expires_at))}.`,
          at: iso(at),
          source: { label: 'Check history', href },
          data: {
            host: monitor.host,
            error: refused.error,
            previous_expires_at: iso(Number(lastAccepted.cert_expires_at)),
            last_accepted_at: iso(Number(lastAccepted.checked_at)),
          },
        },
        short: 'certificate replaced and refused',
      });
    }
    return out;
  },
};
