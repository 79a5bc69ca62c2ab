// What each company plan (companies.plan) allows: how many monitors, how long raw check results,
// spans and RED rollups are kept, and how much telemetry it may send a second (token buckets:
// rate and burst, counted in spans and in body bytes after decompression, so bodies with few or
// no spans are paced as well). A missing or unknown plan gets the starter plan's limits.
export const PLAN_NAMES = ['starter', 'professional', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface PlanLimits {
  /** monitors a company may have (Infinity: no limit) */
  monitors: number;
  /** active (not paused) browser monitors: each run costs a Chromium context (issue 29) */
  browserMonitors: number;
  /** bytes of kept browser screenshots; the oldest are pruned past it */
  screenshotBytes: number;
  /** days raw check results, spans and RED rollups are kept */
  retentionDays: number;
  spansPerSecond: number;
  burstSpans: number;
  bytesPerSecond: number;
  burstBytes: number;
}

const MiB = 1024 * 1024;

// Bytes allow about 2 KiB a span at the span rate: real exports take 200-1,000 bytes a span.
export const PLANS: Readonly<Record<PlanName, PlanLimits>> = {
  starter: {
    monitors: 10,
    browserMonitors: 1,
    screenshotBytes: 50 * MiB,
    retentionDays: 7,
    spansPerSecond: 2_000,
    burstSpans: 20_000,
    bytesPerSecond: 4 * MiB,
    burstBytes: 40 * MiB,
  },
  professional: {
    monitors: 50,
    browserMonitors: 5,
    screenshotBytes: 250 * MiB,
    retentionDays: 30,
    spansPerSecond: 10_000,
    burstSpans: 100_000,
    bytesPerSecond: 20 * MiB,
    burstBytes: 200 * MiB,
  },
  enterprise: {
    monitors: Infinity,
    browserMonitors: 20,
    screenshotBytes: 1024 * MiB,
    retentionDays: 90,
    spansPerSecond: 50_000,
    burstSpans: 500_000,
    bytesPerSecond: 100 * MiB,
    burstBytes: 1000 * MiB,
  },
};

export function isPlanName(value: unknown): value is PlanName {
  return (PLAN_NAMES as readonly unknown[]).includes(value);
}

export function planLimits(plan: string | null | undefined): PlanLimits {
  return isPlanName(plan) ? PLANS[plan] : PLANS.starter;
}

/**
 * Features a plan turns on, besides its limits (issue 31): which plans have each by default. The
 * operator changes the list with PLAN_FEATURE_<NAME> (e.g. PLAN_FEATURE_SSO=professional,enterprise).
 */
export const PLAN_FEATURES = ['sso', 'sms_subscribers'] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];
export const DEFAULT_PLAN_FEATURES: Readonly<Record<PlanFeature, readonly PlanName[]>> = {
  sso: ['enterprise'],
  // Each text is billed to the operator's Twilio account: not on the free plan.
  sms_subscribers: ['professional', 'enterprise'],
};

/** Whether `plan` has `feature` under `plans` (the operator's lists, or the defaults). */
export function planHasFeature(
  plans: Readonly<Record<PlanFeature, readonly PlanName[]>>,
  plan: string | null | undefined,
  feature: PlanFeature,
): boolean {
  return isPlanName(plan) && plans[feature].includes(plan);
}
