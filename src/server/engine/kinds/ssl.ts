// Certificate monitors: a TLS handshake to host:port; down while the certificate is invalid,
// with warnings when it turns invalid and as it nears expiry.
import { DEFAULT_SSL_PORT, DEFAULT_SSL_WARNING_DAYS, SSL_FIELDS } from '../../../lib/monitor-kinds.ts';
import { dayStart } from '../../../lib/timeline.ts';
import type { NotificationDraft } from '../../notify/notify.ts';
import { sslChecker, type SslConfig } from '../checkers/ssl.ts';
import { certificateExpiring } from './certificate-warnings.ts';
import { validateHostPort } from './host-port.ts';
import { presentFields, type Kind } from './kind.ts';

const FIELDS = SSL_FIELDS;

export const sslKind: Kind<SslConfig> = {
  fields: FIELDS,
  validate(pick) {
    const { config, problems, target } = validateHostPort(pick, DEFAULT_SSL_PORT);
    const days = pick('ssl_warning_days') ?? DEFAULT_SSL_WARNING_DAYS;
    if (days.some((d) => !Number.isInteger(d) || d < 1 || d > 365))
      problems.ssl_warning_days = 'Warning days must be whole days from 1 to 365';
    return { config: { ...config, ssl_warning_days: days }, problems, target };
  },
  check: sslChecker,
  async afterResult(r) {
    const o = r.outcome;
    if (o.detail?.certValid === false && r.changedTo === 'down')
      await r.notify(sslInvalid(r.monitor, o.detail.certProblem ?? o.error ?? 'Invalid certificate', dayStart(r.checkedAt)));
    if (o.detail?.certValid === true) await certificateExpiring(r, r.config.ssl_warning_days);
  },
  present: (config) => presentFields(FIELDS, config),
  publicTarget: (config) => config.host || null,
  tlsEndpoint(config) {
    const host = (config.host ?? '').trim().toLowerCase();
    return host ? { host, port: config.port ?? DEFAULT_SSL_PORT, thresholds: config.ssl_warning_days } : null;
  },
};

function sslInvalid(m: { id: string; name: string }, problem: string, dayStart: number): NotificationDraft {
  return {
    type: 'ssl_warning',
    severity: 'high',
    title: `Certificate of ${m.name} is invalid`,
    message: problem,
    details: null,
    metadata: { monitor_id: m.id, problem },
    actionUrl: `/monitors?monitor=${m.id}`,
    dedupeKey: `ssl:${m.id}:invalid:${dayStart}`,
  };
}
