// Replays generated latency series through the same pure detector the anomaly job uses
// (src/lib/latency-anomaly.ts) and prints its precision and recall on known injected anomalies
// (spikes, level shifts, slow drifts), and its false positives on clean weeks.
// Targets: 0 false positives on a clean week with the default sensitivity (`normal`); recall of
// the injected anomalies at least 0.9 with it. The series are GENERATED (bench/anomalies/series.ts),
// not recorded from real monitors: the figures say how the maths behaves on such shapes.
import { findEpisodes, SENSITIVITIES, SENSITIVITY_OPTIONS, HOUR_MS, type Episode } from '../../src/lib/latency-anomaly.ts';
import { generateSeries, MONDAY, type Injected, type InjectedKind, type SeriesSpec } from './series.ts';

const DAY = 24 * HOUR_MS;
const WEEKS = 5;
/** The first three weeks are history only: the detector is judged on the last two. */
const JUDGED_FROM = MONDAY + 21 * DAY;
const SERIES = 40;

function injectedFor(seed: number): Injected[] {
  // Two anomalies per series, in the judged weeks, of kinds in turn, at hours that vary with the seed.
  const kinds: InjectedKind[] = ['spike', 'level_shift', 'drift'];
  const out: Injected[] = [];
  for (let i = 0; i < 2; i++) {
    const kind = kinds[(seed + i) % 3];
    const start = JUDGED_FROM + (i * 7 + 1 + ((seed * 3 + i) % 4)) * DAY + ((seed * 7 + i * 5) % 24) * HOUR_MS;
    const hours = kind === 'spike' ? 4 + (seed % 3) : kind === 'level_shift' ? 30 : 36;
    const factor = kind === 'drift' ? 3 : 1.8 + (seed % 5) * 0.3;
    out.push({ kind, start, end: start + (hours - 1) * HOUR_MS, factor });
  }
  return out;
}

interface Tally {
  injected: Record<InjectedKind, { total: number; found: number }>;
  episodes: number;
  trueEpisodes: number;
  cleanFalse: number;
  cleanWeeks: number;
  delays: number[];
}

const overlaps = (e: Episode, inj: Injected, end: number) => e.start <= inj.end + 2 * HOUR_MS && (e.end ?? end) >= inj.start;

function runSensitivity(name: keyof typeof SENSITIVITY_OPTIONS): Tally {
  const o = SENSITIVITY_OPTIONS[name];
  const t: Tally = {
    injected: { spike: { total: 0, found: 0 }, level_shift: { total: 0, found: 0 }, drift: { total: 0, found: 0 } },
    episodes: 0,
    trueEpisodes: 0,
    cleanFalse: 0,
    cleanWeeks: 0,
    delays: [],
  };
  for (let seed = 1; seed <= SERIES; seed++) {
    const base = 40 + ((seed * 37) % 400);
    const noise = 0.04 + (seed % 4) * 0.03;
    const end = MONDAY + WEEKS * 7 * DAY;
    const spec: SeriesSpec = { seed, t0: MONDAY, weeks: WEEKS, base, noise, injected: injectedFor(seed) };
    const episodes = findEpisodes(generateSeries(spec), JUDGED_FROM, end, o);
    t.episodes += episodes.length;
    for (const e of episodes) if (spec.injected.some((inj) => overlaps(e, inj, end))) t.trueEpisodes += 1;
    for (const inj of spec.injected) {
      t.injected[inj.kind].total += 1;
      const hit = episodes.find((e) => overlaps(e, inj, end));
      if (hit) {
        t.injected[inj.kind].found += 1;
        t.delays.push((hit.windows[o.run - 1].start + HOUR_MS - inj.start) / HOUR_MS);
      }
    }
    // The same series without injections: every episode in its judged weeks is a false positive.
    const clean = findEpisodes(generateSeries({ ...spec, injected: [] }), JUDGED_FROM, end, o);
    t.cleanFalse += clean.length;
    t.cleanWeeks += 2;
  }
  return t;
}

console.log('Anomaly detection on GENERATED series (bench/anomalies/series.ts): hourly medians with daily and');
console.log(`weekly seasonality and noise, ${SERIES} series of ${WEEKS} weeks (3 of history, 2 judged), two injected`);
console.log('anomalies each (spikes of 4-6 h, level shifts of 30 h, slow drifts to 3x over 36 h), and the same');
console.log('series without them (clean weeks). Same pure detector as the job (src/lib/latency-anomaly.ts).\n');
let ok = true;
for (const s of SENSITIVITIES) {
  const t = runSensitivity(s);
  const found = Object.values(t.injected).reduce((a, b) => a + b.found, 0);
  const total = Object.values(t.injected).reduce((a, b) => a + b.total, 0);
  const precision = t.episodes ? t.trueEpisodes / t.episodes : 1;
  const recall = found / total;
  const delays = [...t.delays].sort((a, b) => a - b);
  const p50 = delays[Math.floor(delays.length / 2)] ?? 0;
  console.log(`sensitivity ${s}${s === 'normal' ? ' (default)' : ''}`);
  console.log(`  precision ${precision.toFixed(3)} (${t.trueEpisodes} of ${t.episodes} episodes on an injected anomaly)`);
  console.log(`  recall    ${recall.toFixed(3)} (${found} of ${total} injected anomalies raised)`);
  for (const [kind, k] of Object.entries(t.injected)) console.log(`    ${kind.padEnd(12)} ${k.found} of ${k.total}`);
  console.log(`  median time to raise ${p50} h after the anomaly began`);
  console.log(`  false positives on clean weeks: ${t.cleanFalse} in ${t.cleanWeeks} weeks`);
  if (s === 'normal') {
    const pass = t.cleanFalse === 0 && recall >= 0.9;
    ok &&= pass;
    console.log(`  target: 0 on clean weeks, recall >= 0.9: ${pass ? 'met' : 'NOT MET'}`);
  }
}
process.exitCode = ok ? 0 : 1;
