// The company's services whose spans name the monitored host: error rate, p95 and top error
// messages since shortly before the incident, against the same spans of the day before.
import { quantile, msText } from './phase-stats.ts';
import { spansOfHost } from './host-spans.ts';
import { DAY_MS, iso, MINUTE_MS, type EvidenceModule, type Finding } from './module.ts';

/** Spans from this long before the incident count as "now": a failure often starts before the checks see it */
const LEAD_MS = 30 * MINUTE_MS;
// A service stands out with at least 3 errors among at least 5 spans, an error rate of 10 % or
// more, and at least twice (and 5 points above) its rate of the day before: fewer spans are
// anecdotes, and a service that always errors this much is not what changed.
const MIN_SPANS = 5;
const MIN_ERRORS = 3;
const MIN_RATE = 0.1;

export const serviceErrorsEvidence: EvidenceModule = {
  kind: 'service_errors',
  async build({ db, incident, monitor, now }) {
    if (!monitor.host) return [];
    const from = incident.started_at - LEAD_MS;
    const spans = await spansOfHost(db, incident.company_id, monitor.host, from, now);
    if (spans.length === 0) return [];
    const before = await spansOfHost(db, incident.company_id, monitor.host, from - DAY_MS, from - 1);
    const out: Finding[] = [];
    const services = [...new Set(spans.map((s) => s.service))].sort();
    for (const service of services) {
      const own = spans.filter((s) => s.service === service);
      const errors = own.filter((s) => s.is_error);
      const rate = errors.length / own.length;
      const prior = before.filter((s) => s.service === service);
      const priorRate = prior.length ? prior.filter((s) => s.is_error).length / prior.length : 0;
      if (own.length < MIN_SPANS || errors.length < MIN_ERRORS || rate < MIN_RATE) continue;
      if (prior.length >= MIN_SPANS && (rate < priorRate * 2 || rate - priorRate < 0.05)) continue;
      const counts = new Map<string, number>();
      for (const e of errors) {
        const m = (e.error_message ?? '(no message)').slice(0, 200);
        counts.set(m, (counts.get(m) ?? 0) + 1);
      }
      const top = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);
      const p95 = quantile(
        own.map((s) => s.duration_ms),
        0.95,
      )!;
      const pct = Math.round(rate * 100);
      const latestError = errors[0];
      out.push({
        item: {
          kind: 'service_errors',
          summary: `${service}: ${pct} % of ${own.length} spans naming ${monitor.host} failed (${prior.length ? `${Math.round(priorRate * 100)} % the day before` : 'none the day before'}), p95 ${msText(p95)}; most often "${top[0][0]}".`,
          at: iso(Math.floor(latestError.start_us / 1000)),
          source: { label: 'Error trace', href: `/traces/${latestError.trace_id}` },
          data: {
            service,
            host: monitor.host,
            spans: own.length,
            errors: errors.length,
            error_rate: Math.round(rate * 1000) / 1000,
            previous_error_rate: prior.length ? Math.round(priorRate * 1000) / 1000 : null,
            p95_ms: Math.round(p95),
            top_errors: top.map(([m]) => m),
            top_error_counts: top.map(([, n]) => n),
          },
        },
        short: `${service} ${pct} % errors`,
      });
    }
    return out;
  },
};
