// Domain monitors: the registration of any domain a company names (public registry data, no
// proof of control), read through RDAP. Warns at each threshold before expiry (30/14/7/1 days by
// default, once each) and whenever the registry's status values change (a hold, a pending delete).
import { DEFAULT_DOMAIN_WARNING_DAYS, DOMAIN_FIELDS, DOMAIN_MIN_INTERVAL_SECONDS } from '../../../lib/monitor-kinds.ts';
import { normalizeTargetHost } from '../../../lib/target-host.ts';
import type { NotificationDraft } from '../../notify/notify.ts';
import { domainChecker, type DomainConfig } from '../checkers/domain.ts';
import type { DomainFacts } from '../checkers/types.ts';
import { expiryWarning } from './certificate-warnings.ts';
import { presentFields, type Kind } from './kind.ts';

const FIELDS = DOMAIN_FIELDS;

export const domainKind: Kind<DomainConfig> = {
  fields: FIELDS,
  minIntervalSeconds: DOMAIN_MIN_INTERVAL_SECONDS,
  validate(pick) {
    const problems: Record<string, string> = {};
    const raw = String(pick('domain') ?? '').trim();
    const name = normalizeTargetHost(raw.replace(/^https?:\/\//i, '').replace(/\/.*$/, ''));
    if (!raw) problems.domain = 'Domain is required, e.g. example.com';
    else if (!name || name.includes(':') || /^[\d.]+$/.test(name) || !name.includes('.'))
      problems.domain = 'Domain must be a registered name like example.com (not an address or a single label)';
    const days = pick('domain_warning_days') ?? DEFAULT_DOMAIN_WARNING_DAYS;
    if (days.length === 0 || days.some((d) => !Number.isInteger(d) || d < 1 || d > 365))
      problems.domain_warning_days = 'Warning days must be whole days from 1 to 365';
    const domain = name ?? raw;
    return {
      config: { domain, domain_warning_days: days },
      problems,
      target: problems.domain ? null : { host: domain, field: 'domain' },
    };
  },
  check: domainChecker,
  async afterResult(r) {
    const facts = r.outcome.detail?.registration;
    if (!facts) return;
    const subject = {
      id: r.monitor.id,
      name: r.monitor.name,
      actionUrl: `/monitors?monitor=${r.monitor.id}`,
      ref: { monitor_id: r.monitor.id },
    };
    if (facts.expiresAt !== null) {
      const cert = expiryWarning(subject, facts.expiresAt, r.checkedAt, r.config.domain_warning_days ?? DEFAULT_DOMAIN_WARNING_DAYS);
      if (cert) await r.notify(domainExpiring(cert, r.config.domain ?? r.monitor.name, facts.expiresAt));
    }
    const before = readFacts(r.monitor.last_answers);
    if (before && before.status.join('\n') !== facts.status.join('\n'))
      await r.notify(statusChanged(r.monitor, r.config.domain ?? '', before.status, facts.status, r.checkedAt));
    return { last_answers: JSON.stringify(facts) };
  },
  present: (config) => presentFields(FIELDS, config),
  stateView(lastAnswers) {
    const f = readFacts(lastAnswers);
    return {
      registration: f && {
        expires_at: f.expiresAt === null ? null : new Date(f.expiresAt).toISOString(),
        registrar: f.registrar,
        status: f.status,
      },
    };
  },
  publicTarget: (config) => config.domain || null,
};

function readFacts(text: string | null): DomainFacts | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as DomainFacts;
    return Array.isArray(v?.status) ? v : null;
  } catch {
    return null;
  }
}

/** The certificate warning's threshold and dedupe, in a domain's words (one per threshold and expiry date). */
function domainExpiring(cert: NotificationDraft, domain: string, expiresAt: number): NotificationDraft {
  const meta = cert.metadata as { days_left: number; threshold: number; monitor_id: string };
  const days = meta.days_left;
  return {
    ...cert,
    type: 'dns_warning',
    title: `The registration of ${domain} expires ${days === 0 ? 'within a day' : `in ${days} day${days === 1 ? '' : 's'}`}`,
    message: `The registration expires on ${new Date(expiresAt).toISOString().slice(0, 10)}. Renew it with the registrar before then.`,
    metadata: { ...meta, domain },
    dedupeKey: `domain:${meta.monitor_id}:${expiresAt}:${meta.threshold}`,
  };
}

function statusChanged(m: { id: string; name: string }, domain: string, before: string[], after: string[], at: number): NotificationDraft {
  const added = after.filter((s) => !before.includes(s));
  const removed = before.filter((s) => !after.includes(s));
  const parts = [added.length ? `now ${added.join(', ')}` : '', removed.length ? `no longer ${removed.join(', ')}` : ''].filter(Boolean);
  const serious = added.some((s) => /hold|pending delete|redemption/.test(s));
  return {
    type: 'dns_warning',
    severity: serious ? 'high' : 'medium',
    title: `The registry status of ${domain || m.name} changed`,
    message: `${parts.join('; ')}.`,
    details: null,
    metadata: { monitor_id: m.id, domain, before, after },
    actionUrl: `/monitors?monitor=${m.id}`,
    dedupeKey: `domain:${m.id}:status:${at}`,
  };
}
