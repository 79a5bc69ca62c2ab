// Which check phase fails or slowed, against the monitor's own baseline: the phases of its
// successful checks of the 7 days before the incident (median and p95 per phase).
import type { CheckPhase } from '../../../../lib/incident-evidence.ts';
import { checksRepo } from '../../../db/repositories/checks-repo.ts';
import { DAY_MS, iso, type EvidenceModule, type Finding } from './module.ts';
import { msText, PHASE_LABEL, PHASES, phasesOf, quantile, type PhaseTimes } from './phase-stats.ts';

const BASELINE_MS = 7 * DAY_MS;
/** Checks read for the baseline: a week at a 1-minute interval from one location */
const BASELINE_LIMIT = 10_080;
/** Fewer successful checks than this and there is no baseline to compare with */
const MIN_BASELINE = 10;
// A phase "slowed" when its median since the incident started is at least 3 times its baseline
// p95 AND 50 ms above it: p95 already holds the usual spread, and 3x of a 2 ms loopback
// connect (6 ms) is noise nobody acts on, hence the absolute floor too.
const SLOW_RATIO = 3;
const SLOW_FLOOR_MS = 50;
// ...in at least 2 checks since it started (the median of them): one slow measurement is an
// anecdote (a busy event loop on the checking side adds hundreds of ms to one loopback connect).
const MIN_RECENT = 2;

export const phaseEvidence: EvidenceModule = {
  kind: 'phase',
  async build({ db, incident, monitor, now }) {
    const checks = checksRepo(db);
    const before = await checks.list(monitor.id, {
      since: incident.started_at - BASELINE_MS,
      before: incident.started_at,
      limit: BASELINE_LIMIT,
    });
    const during = await checks.list(monitor.id, { since: incident.started_at, before: now + 1, limit: 500 });
    const baseline = before
      .filter((r) => r.status === 'operational' || r.status === 'degraded')
      .map((r) => phasesOf(r.timings))
      .filter((p) => p !== null);
    const failing = during.filter((r) => r.status === 'down');
    if (failing.length === 0) return [];
    const stats = (p: CheckPhase) => {
      const v = baseline.map((b) => b[p]).filter((x): x is number => x !== undefined);
      return { n: v.length, p50: quantile(v, 0.5), p95: quantile(v, 0.95) };
    };
    const href = `/monitors/${monitor.id}`;
    const label = 'Check history';
    const out: Finding[] = [];

    // The phase the failing checks stopped at: the first one a check of this monitor normally
    // goes through that the failed check did not finish (stored timings keep finished phases).
    const latest = failing[0];
    const reached = phasesOf(latest.timings);
    const expected = PHASES.filter((p) => stats(p).n > 0 || (reached && reached[p] !== undefined));
    const stopped = reached ? expected.find((p) => reached[p] === undefined) : undefined;
    if (stopped) {
      const s = stats(stopped);
      const stoppedIn = failing.filter((r) => {
        const t = phasesOf(r.timings);
        return t !== null && t[stopped] === undefined;
      }).length;
      const base = s.p95 !== null ? `; baseline ${msText(s.p50!)} (median), ${msText(s.p95)} (p95 of the last 7 days)` : '';
      out.push({
        item: {
          kind: 'phase',
          summary: `${PHASE_LABEL[stopped]} did not complete in ${stoppedIn} of ${failing.length} failing check${failing.length === 1 ? '' : 's'}${latest.error ? ` (${latest.error})` : ''}${base}.`,
          at: iso(Number(latest.checked_at)),
          source: { label, href },
          data: {
            phase: stopped,
            state: 'failing',
            failing_checks: failing.length,
            stopped_checks: stoppedIn,
            error: latest.error,
            baseline_p50_ms: s.p50,
            baseline_p95_ms: s.p95,
            baseline_checks: s.n,
          },
        },
        short: `${PHASE_LABEL[stopped]} failing`,
      });
    }

    // Phases that completed but slowly, in the checks since the incident started.
    const recent = during.map((r) => phasesOf(r.timings)).filter((p): p is PhaseTimes => p !== null);
    for (const p of PHASES) {
      if (p === stopped) continue;
      const s = stats(p);
      if (s.n < MIN_BASELINE || s.p95 === null) continue;
      const values = recent.map((r) => r[p]).filter((x): x is number => x !== undefined);
      const now_ = values.length >= MIN_RECENT ? quantile(values, 0.5) : null;
      if (now_ === null || now_ < s.p95 * SLOW_RATIO || now_ - s.p95 < SLOW_FLOOR_MS) continue;
      const ratio = Math.round(now_ / Math.max(1, s.p95));
      out.push({
        item: {
          kind: 'phase',
          summary: `${PHASE_LABEL[p]} ${msText(now_)} since the incident started, baseline ${msText(s.p95)} (p95 of the last 7 days).`,
          at: iso(Number(during[0].checked_at)),
          source: { label, href },
          data: { phase: p, state: 'slow', median_ms: now_, baseline_p50_ms: s.p50, baseline_p95_ms: s.p95, baseline_checks: s.n, ratio },
        },
        short: `${PHASE_LABEL[p]} ${ratio}× slower than usual`,
      });
    }
    return out;
  },
};
