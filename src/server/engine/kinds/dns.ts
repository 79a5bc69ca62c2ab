// DNS monitors: a name resolves (through the monitor's resolver or the platform's) and, when
// expected values are set, answers with them. Warns when the check starts failing and when the
// answers change.
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { formatHostPort, normalizeTargetHost, parseHostPort } from '../../../lib/target-host.ts';
import type { NotificationDraft } from '../../notify/notify.ts';
import { DEFAULT_DNS_RECORD_TYPE, DNS_FIELDS, DNS_RECORD_TYPES } from '../../../lib/monitor-kinds.ts';
import { dnsChecker, type DnsConfig, type DnsRecordType } from '../checkers/dns.ts';
import { internalDnsName } from '../../net/ssrf.ts';
import { presentFields, type Kind } from './kind.ts';

const FIELDS = DNS_FIELDS;
const RESOLVER_TEXT = 'Resolver must be an IP address or host name, with an optional :port';

export const dnsKind: Kind<DnsConfig> = {
  fields: FIELDS,
  validate(pick, opts) {
    const problems: Record<string, string> = {};
    const config: DnsConfig = {};
    let target: { host: string; field: 'resolver' } | null = null;
    const host = String(pick('host') ?? '').trim();
    const name = normalizeTargetHost(host, { underscore: true });
    config.host = name ?? host;
    // A query name, never an address (PTR names are written 1.0.0.127.in-addr.arpa).
    if (!name || name.includes(':') || /^[\d.]+$/.test(name)) problems.host = 'A DNS name is required, e.g. example.com';
    config.record_type = (pick('record_type') ?? DEFAULT_DNS_RECORD_TYPE).toUpperCase() as DnsRecordType;
    if (!DNS_RECORD_TYPES.includes(config.record_type)) problems.record_type = `Record type must be one of ${DNS_RECORD_TYPES.join(', ')}`;
    const resolver = pick('resolver')?.trim() || null;
    const server = resolver ? parseHostPort(resolver) : null;
    config.resolver = server ? formatHostPort(server) : resolver;
    if (resolver && !server) problems.resolver = RESOLVER_TEXT;
    if (server) target = { host: server.host, field: 'resolver' };
    config.expected_values = pick('expected_values') ?? [];
    const valueProblem = config.expected_values.map((v, i) => plainTextProblem(`Expected value ${i + 1}`, v)).find((p) => p !== null);
    if (valueProblem) problems.expected_values = valueProblem;
    const internal = problems.host ? null : internalDnsName(config.host, opts.allowPrivate);
    if (internal) problems.host = internal;
    return { config, problems, target };
  },
  check: dnsChecker,
  async afterResult(r) {
    const o = r.outcome;
    if (r.changedTo === 'down') await r.notify(dnsFailing(r.monitor, o.error ?? 'DNS query failed', r.since));
    const answers = o.detail?.answers;
    if (!answers || o.status === 'down') return;
    const before = r.monitor.last_answers ? (JSON.parse(r.monitor.last_answers) as string[]) : null;
    if (before && before.join('\n') !== answers.join('\n')) await r.notify(dnsChanged(r.monitor, before, answers, r.checkedAt));
    return { last_answers: JSON.stringify(answers) };
  },
  present: (config) => presentFields(FIELDS, config),
  publicTarget: (config) => config.host || null,
};

function dnsFailing(m: { id: string; name: string }, error: string, since: number): NotificationDraft {
  return {
    type: 'dns_warning',
    severity: 'high',
    title: `DNS check of ${m.name} is failing`,
    message: error,
    details: null,
    metadata: { monitor_id: m.id },
    actionUrl: `/monitors?monitor=${m.id}`,
    dedupeKey: `dns:${m.id}:failing:${since}`,
  };
}

function dnsChanged(m: { id: string; name: string }, before: string[], after: string[], at: number): NotificationDraft {
  return {
    type: 'dns_warning',
    severity: 'medium',
    title: `DNS answers of ${m.name} changed`,
    message: `Was ${before.join(', ') || 'empty'}; now ${after.join(', ') || 'empty'}.`,
    details: null,
    metadata: { monitor_id: m.id, before, after },
    actionUrl: `/monitors?monitor=${m.id}`,
    dedupeKey: `dns:${m.id}:changed:${at}`,
  };
}
