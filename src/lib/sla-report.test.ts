import { describe, expect, it } from 'vitest';
import { companyTotal, incidentInRange, monitorLine, type MonitorCounts } from './sla-report.ts';

const DAY = 86_400_000;
const range = { from: Date.UTC(2026, 9, 1), to: Date.UTC(2026, 9, 31) }; // 30 days
const NOW = range.to + DAY;

const monitor = (over: Partial<MonitorCounts> = {}): MonitorCounts => ({
  id: 'm1',
  name: 'API',
  intervalSeconds: 60,
  slaTarget: 99.9,
  checks: 43_200, // 30 days of minutes
  failures: 30,
  maintenance: 120,
  p50Ms: 80,
  p95Ms: 200,
  incidents: [],
  ...over,
});

describe('SLA figures of one monitor', () => {
  it('counts each check as one interval; maintenance apart; budget from the target', () => {
    const line = monitorLine(monitor(), range, NOW);
    expect(line.measured_minutes).toBe(43_080);
    expect(line.downtime_minutes).toBe(30);
    expect(line.maintenance_minutes).toBe(120);
    expect(line.uptime_percent).toBe(99.93);
    expect(line.sla_met).toBe(true);
    expect(line.budget_minutes).toBe(43.08);
    expect(line.budget_left_minutes).toBe(13.08);
    expect(line.budget_used_percent).toBe(69.64);
    expect(line.budget_left_percent).toBe(30.36);
  });
  it('misses the target by a hair and never shows a negative budget left', () => {
    const line = monitorLine(monitor({ failures: 44 }), range, NOW);
    expect(line.sla_met).toBe(false);
    expect(line.budget_left_minutes).toBe(0);
    expect(line.budget_used_percent).toBeGreaterThan(100);
  });
  it('without a target or without checks says so instead of guessing', () => {
    expect(monitorLine(monitor({ slaTarget: null }), range, NOW)).toMatchObject({ sla_met: null, budget_minutes: null });
    expect(monitorLine(monitor({ checks: 0, failures: 0, maintenance: 0 }), range, NOW)).toMatchObject({
      uptime_percent: null,
      sla_met: null,
    });
  });
  it('MTTR is the mean incident time inside the range; MTBF the up time per incident', () => {
    const line = monitorLine(
      monitor({
        incidents: [
          { id: 'a', title: 'A', startedAt: range.from - 10 * 60_000, resolvedAt: range.from + 20 * 60_000 },
          { id: 'b', title: 'B', startedAt: range.from + DAY, resolvedAt: range.from + DAY + 10 * 60_000 },
        ],
      }),
      range,
      NOW,
    );
    expect(line.incidents.map((i) => i.duration_minutes)).toEqual([20, 10]);
    expect(line.mttr_minutes).toBe(15);
    expect(line.mtbf_minutes).toBe((43_080 - 30) / 2);
  });
  it('an open incident runs to the end of the range (or now, whichever is first)', () => {
    const open = { id: 'o', title: 'O', startedAt: range.to - 60 * 60_000, resolvedAt: null };
    expect(incidentInRange(open, range, NOW)?.duration_minutes).toBe(60);
    expect(incidentInRange(open, range, range.to - 30 * 60_000)?.duration_minutes).toBe(30);
    expect(incidentInRange({ ...open, startedAt: range.to + 1 }, range, NOW)).toBeNull();
  });
});

describe('the company total', () => {
  it('weighs monitors by time, counts a shared incident once, and is met only when every target is', () => {
    const shared = { id: 's', title: 'S', startedAt: range.from + DAY, resolvedAt: range.from + DAY + 5 * 60_000 };
    const a = monitor({ incidents: [shared] });
    const b = monitor({
      id: 'm2',
      intervalSeconds: 300,
      checks: 8640,
      failures: 10,
      maintenance: 0,
      slaTarget: 99.99,
      incidents: [shared],
    });
    const total = companyTotal([a, b], range, NOW, { p50Ms: 90.4, p95Ms: 249.5070769510537 });
    expect(total.downtime_minutes).toBe(30 + 50);
    expect(total.measured_minutes).toBe(43_080 + 43_200);
    expect(total.uptime_percent).toBe(Math.round((1 - 80 / 86_280) * 100_000) / 1000);
    expect(total.incident_count).toBe(1);
    expect(total.sla_met).toBe(false);
    expect(total.p95_ms).toBe(250); // whole milliseconds in the JSON, CSV, PDF and screen alike
    expect(total.p50_ms).toBe(90);
  });
});
