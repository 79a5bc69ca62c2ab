// What a company's plan (companies.plan) gives its telemetry: how long spans and rollups are
// kept, and how many spans a second it may send (token bucket: rate, burst).
export interface TelemetryPlan {
  retentionDays: number;
  spansPerSecond: number;
  burstSpans: number;
}

const PLANS: Record<string, TelemetryPlan> = {
  starter: { retentionDays: 7, spansPerSecond: 2_000, burstSpans: 20_000 },
  professional: { retentionDays: 30, spansPerSecond: 10_000, burstSpans: 100_000 },
  enterprise: { retentionDays: 90, spansPerSecond: 50_000, burstSpans: 500_000 },
};

export function telemetryPlan(plan: string | null | undefined): TelemetryPlan {
  return PLANS[plan ?? ''] ?? PLANS.starter;
}
