// Certificate expiry warnings, shared by everything that sees certificates (ssl monitors, https
// checks, and the daily TLS analysis in domain/security/ssl.ts): one notification per threshold
// crossed (30/14/7/1 days by default) per certificate. The dedupe key names the subject, the
// certificate's expiry and the threshold, so two paths warning about one monitor's certificate
// make one notification.
import { DEFAULT_SSL_WARNING_DAYS } from '../../../lib/monitor-kinds.ts';
import { DAY_MS } from '../../../lib/timeline.ts';
import type { NotificationDraft } from '../../notify/notify.ts';
import type { KindResult } from './kind.ts';

/** What a warning is about: a monitor (its id) or a security asset, and where the console shows it. */
export interface CertificateSubject {
  id: string;
  name: string;
  actionUrl: string;
  /** What the notification's metadata names it by: { monitor_id } or { asset_id } */
  ref: Record<string, string>;
}

/** Notifies when the certificate's days left reach the smallest threshold not yet passed. */
export async function certificateExpiring(r: KindResult<object>, thresholds: number[] | undefined): Promise<void> {
  const expiresAt = r.outcome.certExpiresAt;
  if (expiresAt === null) return;
  const subject = {
    id: r.monitor.id,
    name: r.monitor.name,
    actionUrl: `/monitors?monitor=${r.monitor.id}`,
    ref: { monitor_id: r.monitor.id },
  };
  const draft = expiryWarning(subject, expiresAt, r.checkedAt, thresholds);
  if (draft) await r.notify(draft);
}

/** The warning due for a certificate at `now`, or null (no threshold reached, or already expired). */
export function expiryWarning(
  subject: CertificateSubject,
  expiresAt: number,
  now: number,
  thresholds: number[] | undefined,
): NotificationDraft | null {
  if (expiresAt <= now) return null;
  const daysLeft = Math.floor((expiresAt - now) / DAY_MS);
  const crossed = (thresholds ?? DEFAULT_SSL_WARNING_DAYS).filter((d) => daysLeft <= d).sort((a, c) => a - c)[0];
  if (crossed === undefined) return null;
  return {
    type: 'ssl_warning',
    severity: crossed <= 7 ? 'high' : crossed <= 14 ? 'medium' : 'low',
    title: `Certificate of ${subject.name} expires in ${daysLeft} day${daysLeft === 1 ? '' : 's'}`,
    message: `The certificate expires on ${new Date(expiresAt).toISOString().slice(0, 10)}. Renew it before then.`,
    details: null,
    metadata: { ...subject.ref, expires_at: new Date(expiresAt).toISOString(), days_left: daysLeft, threshold: crossed },
    actionUrl: subject.actionUrl,
    dedupeKey: `ssl:${subject.id}:${expiresAt}:${crossed}`,
  };
}
