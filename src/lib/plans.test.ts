import { describe, expect, it } from 'vitest';
import { isPlanName, PLAN_NAMES, PLANS, planLimits } from './plans.ts';

describe('company plans', () => {
  it('one table holds every plan: monitors, retention and telemetry intake grow with the plan', () => {
    expect(Object.keys(PLANS)).toEqual([...PLAN_NAMES]);
    expect(PLAN_NAMES.map((p) => [PLANS[p].monitors, PLANS[p].retentionDays])).toEqual([
      [10, 7],
      [50, 30],
      [Infinity, 90],
    ]);
    expect(PLANS.starter.spansPerSecond).toBeLessThan(PLANS.professional.spansPerSecond);
    expect(PLANS.professional.spansPerSecond).toBeLessThan(PLANS.enterprise.spansPerSecond);
  });

  it('a missing or unknown plan gets the starter limits', () => {
    for (const p of [null, undefined, '', 'platinum', 'constructor', '__proto__']) {
      expect(isPlanName(p)).toBe(false);
      expect(planLimits(p)).toBe(PLANS.starter);
    }
    expect(planLimits('enterprise')).toBe(PLANS.enterprise);
  });
});
