// Per-minute RED rollup rows from a batch of spans. Pure: only request spans count (see
// otlp-spans.ts isRequest); one row per company, minute, service and operation, its latencies
// in a sketch of bounded relative error (src/lib/latency-sketch.ts) serialised as `hist`.
import type { NewRollup } from '../db/repositories/red-repo.ts';
import { LatencySketch } from '../../lib/latency-sketch.ts';

export interface RollupInput {
  service: string;
  name: string;
  start_us: number;
  duration_ms: number;
  is_error: boolean;
  is_request: boolean;
}

export function minuteOf(startUs: number): number {
  const ms = Math.floor(startUs / 1000);
  return ms - (ms % 60_000);
}

export function rollupsOf(companyId: string, spans: Iterable<RollupInput>): NewRollup[] {
  const byKey = new Map<string, { row: NewRollup; sketch: LatencySketch }>();
  for (const s of spans) {
    if (!s.is_request) continue;
    const minute = minuteOf(s.start_us);
    const key = `${minute}\u0000${s.service}\u0000${s.name}`;
    let acc = byKey.get(key);
    if (!acc) {
      acc = {
        row: { company_id: companyId, minute_ms: minute, service: s.service, operation: s.name, requests: 0, errors: 0, sum_ms: 0 },
        sketch: new LatencySketch(),
      };
      byKey.set(key, acc);
    }
    acc.row.requests += 1;
    acc.row.errors += s.is_error ? 1 : 0;
    acc.row.sum_ms += s.duration_ms;
    acc.sketch.add(s.duration_ms);
  }
  return [...byKey.values()].map(({ row, sketch }) => ({ ...row, hist: sketch.serialize() }));
}
