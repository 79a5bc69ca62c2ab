import { describe, expect, it } from 'vitest';
import { DIVERGENCE_OPTIONS, divergenceOf, type ProbeView } from './traffic-divergence.ts';

const normal = DIVERGENCE_OPTIONS.normal;
const WINDOW = 1_000_000;
const up: ProbeView = { status: 'operational', since: WINDOW - 1 };
const down: ProbeView = { status: 'down', since: WINDOW - 1 };

describe('probes against real traffic', () => {
  it.each([
    ['up, a quarter of the calls failing', up, { calls: 40, errors: 10 }, 'probes_up_traffic_failing'],
    ['up, a few failing', up, { calls: 40, errors: 9 }, null],
    ['down, calls succeeding', down, { calls: 100, errors: 2 }, 'probes_down_traffic_healthy'],
    ['down, calls failing too', down, { calls: 100, errors: 50 }, null],
    ['too few calls to say', up, { calls: 19, errors: 19 }, null],
    ['degraded is neither up nor down', { status: 'degraded', since: 0 } as ProbeView, { calls: 40, errors: 40 }, null],
    ['up only since inside the window', { status: 'operational', since: WINDOW + 1 } as ProbeView, { calls: 40, errors: 40 }, null],
    ['status of unknown age', { status: 'operational', since: null } as ProbeView, { calls: 40, errors: 40 }, null],
  ])('%s', (_, probe, traffic, want) => {
    expect(divergenceOf(probe, traffic, WINDOW, normal)).toBe(want);
  });

  it('a higher sensitivity speaks with fewer calls and fewer failures', () => {
    expect(divergenceOf(up, { calls: 10, errors: 1 }, WINDOW, DIVERGENCE_OPTIONS.high)).toBe('probes_up_traffic_failing');
    expect(divergenceOf(up, { calls: 40, errors: 19 }, WINDOW, DIVERGENCE_OPTIONS.low)).toBeNull();
  });
});
