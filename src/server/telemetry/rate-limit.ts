// Per-company ingest rate: a token bucket of spans, in memory (one process owns ingest).
// A request is let in while the bucket holds any token and then pays for all its spans, so a
// large export is never refused forever; the debt delays the next ones (Retry-After).
import { telemetryPlan } from './plans.ts';

interface Bucket {
  tokens: number;
  at: number;
}

export class IngestLimiter {
  readonly #buckets = new Map<string, Bucket>();

  #bucket(companyId: string, plan: string, now: number): Bucket {
    const { spansPerSecond, burstSpans } = telemetryPlan(plan);
    let b = this.#buckets.get(companyId);
    if (!b) {
      b = { tokens: burstSpans, at: now };
      this.#buckets.set(companyId, b);
    }
    b.tokens = Math.min(burstSpans, b.tokens + (spansPerSecond * Math.max(0, now - b.at)) / 1000);
    b.at = now;
    return b;
  }

  /** null when the company may send now, else the seconds to wait. */
  retryAfter(companyId: string, plan: string, now: number): number | null {
    const b = this.#bucket(companyId, plan, now);
    if (b.tokens > 0) return null;
    return Math.max(1, Math.ceil((1 - b.tokens) / telemetryPlan(plan).spansPerSecond));
  }

  take(companyId: string, plan: string, spans: number, now: number): void {
    this.#bucket(companyId, plan, now).tokens -= spans;
  }
}
