// Probes and real traffic disagreeing, for one company now (issue 33, item 2): the spans of its
// own services of the last 15 minutes that name a monitor's host (client spans calling it, server
// spans answering on it), counted per host, against what the probes say of the monitor
// (src/lib/traffic-divergence.ts decides).
import { DIVERGENCE_WINDOW_MS, divergenceOf, type DivergenceOptions } from '../../../lib/traffic-divergence.ts';
import { normalizeDestination } from '../../../lib/destination-host.ts';
import { anomaliesRepo } from '../../db/repositories/anomalies-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import { hostOf } from '../../security/threat/addresses.ts';
import { toIso } from '../ids.ts';
import type { Finding } from './finding.ts';

/** Where the semantic conventions name the host: the peer (client spans) or the server itself (server spans). */
const HOST_ATTRIBUTES = ['server.address', 'net.peer.name', 'net.host.name', 'http.host', 'url.full', 'http.url'];
/** Enough spans of a busy window to judge; the newest are read first. */
const MAX_SPANS = 20_000;

interface HostTraffic {
  calls: number;
  errors: number;
  services: Set<string>;
  messages: Map<string, number>;
}

function hostOfSpan(attributes: string): string | null {
  let attrs: Record<string, unknown>;
  try {
    attrs = JSON.parse(attributes) as Record<string, unknown>;
  } catch {
    return null;
  }
  for (const name of HOST_ATTRIBUTES) {
    const v = attrs[name];
    const host = typeof v === 'string' ? hostOf(v)?.host : undefined;
    if (host) return host;
  }
  return null;
}

export async function divergenceFindings(db: DbScope, companyId: string, now: number, o: DivergenceOptions): Promise<Finding[]> {
  const repo = anomaliesRepo(db);
  const monitors = (await repo.monitors(companyId)).filter((m) => m.destination_host);
  if (monitors.length === 0) return [];
  const windowStart = now - DIVERGENCE_WINDOW_MS;
  const byHost = new Map<string, HostTraffic>();
  for (const s of await repo.windowSpans(companyId, windowStart, now, MAX_SPANS)) {
    const host = hostOfSpan(s.attributes);
    if (!host) continue;
    const t = byHost.get(host) ?? { calls: 0, errors: 0, services: new Set<string>(), messages: new Map<string, number>() };
    byHost.set(host, t);
    t.calls += 1;
    t.services.add(s.service);
    if (s.is_error || (s.http_status !== null && s.http_status >= 500)) {
      t.errors += 1;
      const msg = (s.error_message ?? (s.http_status ? `HTTP ${s.http_status}` : 'error')).slice(0, 200);
      t.messages.set(msg, (t.messages.get(msg) ?? 0) + 1);
    }
  }
  const out: Finding[] = [];
  for (const m of monitors) {
    const host = normalizeDestination(m.destination_host!);
    const t = byHost.get(host);
    if (!t) continue;
    const d = divergenceOf({ status: m.status, since: m.status_since }, t, windowStart, o);
    if (!d) continue;
    const pct = Math.round((t.errors / t.calls) * 1000) / 10;
    const top = [...t.messages].sort((a, b) => b[1] - a[1]).slice(0, 3);
    const failing = d === 'probes_up_traffic_failing';
    const summary = failing
      ? `${t.errors} of ${t.calls} calls to ${host} by your services failed in the last 15 minutes (${pct} %), while the probes see ${m.name} up.`
      : `${m.name} is down for the probes, while ${t.calls - t.errors} of ${t.calls} calls to ${host} by your services succeeded in the last 15 minutes.`;
    out.push({
      kind: 'divergence',
      subject: `monitor:${m.id}`,
      monitorId: m.id,
      title: failing
        ? `${m.name}: real traffic fails while the probes see it up`
        : `${m.name}: real traffic succeeds while the probes see it down`,
      what: m.name,
      startedAt: now,
      severity: failing ? 'high' : 'medium',
      href: `/monitors/${m.id}`,
      evidence: [
        {
          kind: 'traffic_divergence',
          summary,
          at: toIso(now),
          source: { label: 'Traces', href: '/traces' },
          data: {
            divergence: d,
            host,
            probe_status: m.status,
            observed_error_rate: pct,
            baseline_error_rate: failing ? 0 : 100,
            calls: t.calls,
            errors: t.errors,
            window_start: toIso(windowStart),
            window_end: toIso(now),
            window_minutes: DIVERGENCE_WINDOW_MS / 60_000,
            services: [...t.services].sort(),
            top_errors: top.map(([msg, n]) => `${msg} (${n})`),
          },
        },
      ],
    });
  }
  return out;
}
