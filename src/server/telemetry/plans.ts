// What a company's plan (companies.plan) gives its telemetry: how long spans and rollups are
// kept, and how much it may send a second (token buckets: rate, burst) counted twice, in spans
// and in body bytes (after decompression), so bodies with few or no spans are paced as well.
export interface TelemetryPlan {
  retentionDays: number;
  spansPerSecond: number;
  burstSpans: number;
  bytesPerSecond: number;
  burstBytes: number;
}

const MiB = 1024 * 1024;

// Bytes allow about 2 KiB a span at the span rate: real exports take 200-1,000 bytes a span.
const PLANS: Record<string, TelemetryPlan> = {
  starter: { retentionDays: 7, spansPerSecond: 2_000, burstSpans: 20_000, bytesPerSecond: 4 * MiB, burstBytes: 40 * MiB },
  professional: { retentionDays: 30, spansPerSecond: 10_000, burstSpans: 100_000, bytesPerSecond: 20 * MiB, burstBytes: 200 * MiB },
  enterprise: { retentionDays: 90, spansPerSecond: 50_000, burstSpans: 500_000, bytesPerSecond: 100 * MiB, burstBytes: 1000 * MiB },
};

export function telemetryPlan(plan: string | null | undefined): TelemetryPlan {
  return PLANS[plan ?? ''] ?? PLANS.starter;
}
