// Certificate expiry warnings, shared by the kinds that see certificates (ssl, and https checks):
// one notification per threshold crossed (30/14/7 days by default).
import { DEFAULT_SSL_WARNING_DAYS } from '../../../lib/monitor-kinds.ts';
import { DAY_MS } from '../../../lib/timeline.ts';
import type { NotificationDraft } from '../../notify/notify.ts';
import type { KindResult } from './kind.ts';

/** Notifies when the certificate's days left reach the smallest threshold not yet passed. */
export async function certificateExpiring(r: KindResult<object>, thresholds: number[] | undefined): Promise<void> {
  const expiresAt = r.outcome.certExpiresAt;
  if (expiresAt === null) return;
  const daysLeft = Math.floor((expiresAt - r.checkedAt) / DAY_MS);
  const crossed = (thresholds ?? DEFAULT_SSL_WARNING_DAYS).filter((d) => daysLeft <= d).sort((a, c) => a - c)[0];
  if (crossed !== undefined) await r.notify(sslExpiring(r.monitor, expiresAt, daysLeft, crossed));
}

function sslExpiring(m: { id: string; name: string }, expiresAt: number, daysLeft: number, threshold: number): NotificationDraft {
  return {
    type: 'ssl_warning',
    severity: threshold <= 7 ? 'high' : threshold <= 14 ? 'medium' : 'low',
    title: `Certificate of ${m.name} expires in ${daysLeft} day${daysLeft === 1 ? '' : 's'}`,
    message: `The certificate expires on ${new Date(expiresAt).toISOString().slice(0, 10)}. Renew it before then.`,
    details: null,
    metadata: { monitor_id: m.id, expires_at: new Date(expiresAt).toISOString(), days_left: daysLeft, threshold },
    actionUrl: `/monitors?monitor=${m.id}`,
    dedupeKey: `ssl:${m.id}:${expiresAt}:${threshold}`,
  };
}
