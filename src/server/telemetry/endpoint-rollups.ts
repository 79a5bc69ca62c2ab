// Per-minute endpoint rollup rows from a batch of spans, for the API intelligence inventory.
// Pure. Only request spans that are HTTP requests count (a method and a route or path in their
// attributes, src/lib/endpoint-route.ts); one row per company, minute, service, method and
// route, with status-class counts, the count per status code and a latency sketch.
import type { NewEndpointRollup } from '../db/repositories/endpoints-repo.ts';
import { LatencySketch } from '../../lib/latency-sketch.ts';
import { endpointOf } from '../../lib/endpoint-route.ts';
import { StatusCounts, statusClassOf } from '../../lib/status-counts.ts';
import { minuteOf } from './rollups.ts';

export interface EndpointSpan {
  service: string;
  start_us: number;
  duration_ms: number;
  is_error: boolean;
  is_request: boolean;
  http_status: number | null;
  /** JSON object of the span's attributes */
  attributes: string;
}

/** The endpoint a stored span answered, or null (not an HTTP request span). */
export function endpointOfSpan(s: EndpointSpan): { method: string; route: string } | null {
  // Most spans of a busy service are no HTTP requests: skip their attributes unparsed.
  if (!s.is_request || !s.attributes.includes('"http.') || !s.attributes.includes('method"')) return null;
  let attrs: unknown;
  try {
    attrs = JSON.parse(s.attributes);
  } catch {
    return null;
  }
  return attrs && typeof attrs === 'object' ? endpointOf(attrs as Record<string, unknown>) : null;
}

export function endpointRollupsOf(companyId: string, spans: Iterable<EndpointSpan>): NewEndpointRollup[] {
  const byKey = new Map<string, { row: NewEndpointRollup; sketch: LatencySketch; codes: StatusCounts }>();
  for (const s of spans) {
    const e = endpointOfSpan(s);
    if (!e) continue;
    const minute = minuteOf(s.start_us);
    const key = `${minute}\u0000${s.service}\u0000${e.method}\u0000${e.route}`;
    let acc = byKey.get(key);
    if (!acc) {
      acc = {
        row: {
          company_id: companyId,
          minute_ms: minute,
          service: s.service,
          method: e.method,
          route: e.route,
          requests: 0,
          errors: 0,
          sum_ms: 0,
          c2xx: 0,
          c3xx: 0,
          c4xx: 0,
          c5xx: 0,
        },
        sketch: new LatencySketch(),
        codes: new StatusCounts(),
      };
      byKey.set(key, acc);
    }
    const r = acc.row;
    r.requests += 1;
    r.errors += s.is_error ? 1 : 0;
    r.sum_ms += s.duration_ms;
    acc.sketch.add(s.duration_ms);
    if (s.http_status !== null) {
      const cls = statusClassOf(s.http_status);
      if (cls) {
        r[`c${cls}`] += 1;
        acc.codes.add(s.http_status);
      }
    }
  }
  return [...byKey.values()].map(({ row, sketch, codes }) => ({ ...row, hist: sketch.serialize(), codes: codes.serialize() }));
}
