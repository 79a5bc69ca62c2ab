// Per-company ingest rate: two token buckets, spans and body bytes, in memory (one process owns
// ingest). A request is let in while both buckets hold any token and then pays for all it sent,
// so a large export is never refused forever; the debt delays the next ones (Retry-After).
// Every request pays at least REQUEST_FLOOR_BYTES, so a flood of empty exports is paced too.
import { planLimits } from '../../lib/plans.ts';

export const REQUEST_FLOOR_BYTES = 1024;

interface Bucket {
  tokens: number;
  at: number;
}

function refill(b: Bucket, rate: number, burst: number, now: number): void {
  b.tokens = Math.min(burst, b.tokens + (rate * Math.max(0, now - b.at)) / 1000);
  b.at = now;
}

/** Seconds until a bucket holds a token again (null: it holds one now). */
function wait(b: Bucket, rate: number): number | null {
  return b.tokens > 0 ? null : Math.max(1, Math.ceil((1 - b.tokens) / rate));
}

export class IngestLimiter {
  readonly #buckets = new Map<string, { spans: Bucket; bytes: Bucket }>();

  #refilled(companyId: string, plan: string, now: number) {
    const p = planLimits(plan);
    let b = this.#buckets.get(companyId);
    if (!b) {
      b = { spans: { tokens: p.burstSpans, at: now }, bytes: { tokens: p.burstBytes, at: now } };
      this.#buckets.set(companyId, b);
    }
    refill(b.spans, p.spansPerSecond, p.burstSpans, now);
    refill(b.bytes, p.bytesPerSecond, p.burstBytes, now);
    return b;
  }

  /** null when the company may send now, else the seconds to wait. */
  retryAfter(companyId: string, plan: string, now: number): number | null {
    const p = planLimits(plan);
    const b = this.#refilled(companyId, plan, now);
    const waits = [wait(b.spans, p.spansPerSecond), wait(b.bytes, p.bytesPerSecond)].filter((w) => w !== null);
    return waits.length ? Math.max(...waits) : null;
  }

  take(companyId: string, plan: string, sent: { spans: number; bytes: number }, now: number): void {
    const b = this.#refilled(companyId, plan, now);
    b.spans.tokens -= sent.spans;
    b.bytes.tokens -= Math.max(REQUEST_FLOOR_BYTES, sent.bytes);
  }
}
