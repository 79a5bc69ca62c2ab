// Batched persistence of check results. One transaction per batch writes the raw results, the
// hourly and daily rollups and the monitors' state (and frees their leases); inside it, the
// incidents domain opens and resolves incidents and the kinds' warnings go through `notify`. A
// result is acknowledged only once all of it is committed, so a crash loses nothing acknowledged
// and can never leave an incident without the state that opened it.
import { timingsText } from '../../lib/check-chunk.ts';
import { phaseOffsetMs } from '../../lib/phase-offset.ts';
import { dayStart, hourStart } from '../../lib/timeline.ts';
import { LatencySketch } from '../../lib/latency-sketch.ts';
import { coversMonitor } from '../../lib/maintenance.ts';
import type { CheckStatus } from '../db/schema/monitoring.ts';
import { randomUUID } from 'node:crypto';
import { checksRepo } from '../db/repositories/checks-repo.ts';
import { checkScreenshotsRepo } from '../db/repositories/check-screenshots-repo.ts';
import { maintenanceRepo } from '../db/repositories/maintenance-repo.ts';
import { monitorsRepo, type MonitorRow, type StatePatch } from '../db/repositories/monitors-repo.ts';
import { rollupsRepo, type RollupRecord } from '../db/repositories/rollups-repo.ts';
import { type DbScope, withTransaction } from '../db/scope.ts';
import { notifyIn, type Notify } from '../notify/notify.ts';
import type { CheckOutcome } from './checkers/types.ts';
import { dependencySteps } from './dependencies.ts';
import { failureCause } from './failure-cause.ts';
import { parseConfig } from './kinds/config.ts';
import { KINDS } from './kinds/index.ts';
import type { MonitorIncidents } from './ports.ts';
import { addResult, emptyPhases, emptyRollup, responseQuantile, type PhaseSums, type Rollup } from './rollup-math.ts';
import { applyResult, type MonitorState } from './state-machine.ts';
import { locationJudge, locationPlans, takesResult, type LocationStep } from './location-verdicts.ts';
import { locationRollupsRepo, type LocationRollupRecord } from '../db/repositories/location-rollups-repo.ts';
import { locationStatesRepo } from '../db/repositories/location-states-repo.ts';
import { whereText } from '../../lib/quorum.ts';

export interface PendingResult {
  monitorId: string;
  companyId: string;
  checkedAt: number;
  outcome: CheckOutcome;
  /** The lease to free with this result (null: a heartbeat, no lease) */
  leaseOwner: string | null;
  /** A failure that may mark the monitor down: when its check began (performance.now()), for the canary's verdict */
  judgeFrom?: number;
  /** Where it was checked: 0 or absent is `local` (this process's engine), else probe_locations.num */
  location?: number;
}

const toRollup = (r: RollupRecord | undefined): Rollup =>
  r
    ? {
        checks: r.checks,
        failures: r.failures,
        degraded: r.degraded,
        maintenance: r.maintenance,
        sumResponseMs: r.sum_response_ms,
        minResponseMs: r.min_response_ms,
        maxResponseMs: r.max_response_ms,
        sketch: r.sketch ?? LatencySketch.parse(r.response_sketch),
        lastStatus: r.last_status,
        lastHttpCode: r.last_http_code,
        lastCheckedAt: r.last_checked_at,
        phases: (r.phases as PhaseSums | undefined) ?? (r.phase_sums ? (JSON.parse(r.phase_sums) as PhaseSums) : emptyPhases()),
      }
    : emptyRollup();

/**
 * The record to write. Its sketch and phase sums go to the encoder as objects (their texts are
 * left empty: printing and parsing them again was a fifth of the rollups' cost).
 */
const fromRollup = (monitorId: string, companyId: string, start: number, r: Rollup): RollupRecord => ({
  monitor_id: monitorId,
  company_id: companyId,
  start,
  checks: r.checks,
  failures: r.failures,
  degraded: r.degraded,
  maintenance: r.maintenance,
  sum_response_ms: r.sumResponseMs,
  min_response_ms: r.minResponseMs,
  max_response_ms: r.maxResponseMs,
  response_sketch: '',
  sketch: r.sketch,
  p95_response_ms: responseQuantile(r.sketch, 0.95, r.minResponseMs, r.maxResponseMs),
  last_status: r.lastStatus,
  last_http_code: r.lastHttpCode,
  last_checked_at: r.lastCheckedAt,
  phase_sums: null,
  phases: r.phases,
});

/** Spreads a monitor's checks over its interval (one definition, shared with the probe). */
export { phaseOffsetMs } from '../../lib/phase-offset.ts';

/** Longest check error stored (checks, the monitor's last error, notifications). */
export const STORED_ERROR_MAX = 300;

/**
 * The one gate between a checker's error and storage: control characters out, whitespace
 * folded, capped. Checkers write product sentences; this bounds whatever slips past them.
 */
export function storedError(error: string | null): string | null {
  if (error === null) return null;
  const clean = error
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (clean === '') return 'Check failed';
  if (clean.length <= STORED_ERROR_MAX) return clean;
  const cut = /[\ud800-\udbff]/.test(clean[STORED_ERROR_MAX - 2]) ? STORED_ERROR_MAX - 2 : STORED_ERROR_MAX - 1; // never half a surrogate pair
  return `${clean.slice(0, cut)}…`;
}

/**
 * `checksPaused`: the checker canary's verdict (canary.ts), read in this transaction; while it
 * holds, every "down" result is dropped unrecorded and only frees its lease: the engine could not
 * see the target, so it neither counts as downtime nor moves the monitor towards an incident.
 */
export async function writeBatch(
  db: DbScope,
  results: PendingResult[],
  now: number,
  incidents: MonitorIncidents,
  checksPaused?: (tx: DbScope) => Promise<boolean>,
): Promise<void> {
  if (results.length === 0) return;
  const batch = results.map((b) => ({ ...b, outcome: { ...b.outcome, error: storedError(b.outcome.error) } }));
  batch.sort((a, b) => a.checkedAt - b.checkedAt);
  await withTransaction(db, async (tx) => {
    const monitors = monitorsRepo(tx);
    const ids = [...new Set(batch.map((b) => b.monitorId))];
    const rows = new Map((await monitors.lockForState(ids)).map((m) => [m.id, m]));
    let live = batch.filter((b) => rows.has(b.monitorId)); // deleted meanwhile: drop
    if (live.length === 0) return;
    if (checksPaused && live.some((b) => b.outcome.status === 'down') && (await checksPaused(tx))) {
      await freeLeases(
        monitors,
        rows,
        live.filter((b) => b.outcome.status === 'down'),
      );
      live = live.filter((b) => b.outcome.status !== 'down');
      if (live.length === 0) return;
    }
    // Monitors checked from several locations: each result moves its location's state, and the
    // monitor is judged by the quorum (location-verdicts.ts). A result from a location the
    // monitor does not name (it was changed meanwhile) is dropped, its lease freed.
    const plans = await locationPlans(tx, [...rows.values()], now);
    const elsewhere = live.filter((b) => !takesResult(plans, b.monitorId, b.location ?? 0));
    if (elsewhere.length > 0) {
      await freeLeases(monitors, rows, elsewhere);
      live = live.filter((b) => takesResult(plans, b.monitorId, b.location ?? 0));
      if (live.length === 0) return;
    }
    const judge = plans.size > 0 ? await locationJudge(tx, plans, now) : null;
    const steps = new Map<PendingResult, LocationStep>();
    if (judge)
      for (const b of live)
        if (plans.has(b.monitorId))
          steps.set(
            b,
            judge.step(rows.get(b.monitorId)!, b.location ?? 0, {
              status: b.outcome.status,
              checkedAt: b.checkedAt,
              responseTimeMs: b.outcome.responseTimeMs,
              httpCode: b.outcome.httpCode,
              error: b.outcome.error,
            }),
          );
    /** What the monitor's own rollups count: the quorum's view for a monitor with locations. */
    const countedStatus = (b: PendingResult) => {
      const v = steps.get(b)?.verdict.status;
      return v === undefined || v === 'unknown' ? b.outcome.status : v;
    };

    const companies = [...new Set(live.map((b) => b.companyId))];
    const windows = await maintenanceRepo(tx).activeAt(companies, now);
    const inMaintenance = (m: MonitorRow) => windows.some((w) => coversMonitor(w, m));

    await checksRepo(tx).insertMany(
      live.map((b) => ({
        monitor_id: b.monitorId,
        checked_at: b.checkedAt,
        company_id: b.companyId,
        status: b.outcome.status,
        response_time_ms: b.outcome.responseTimeMs,
        http_code: b.outcome.httpCode,
        error: b.outcome.error,
        timings: b.outcome.timings ? timingsText(b.outcome.timings) : null,
        cert_expires_at: b.outcome.certExpiresAt,
        location: b.location ?? 0,
      })),
    );

    // Rollups: merge the batch in memory; one read and one write per grain for the whole batch.
    const rollups = rollupsRepo(tx);
    const nums = new Map([...rows.values()].map((m) => [m.id, Number(m.num)]));
    for (const [grain, startOf] of [
      ['hourly', hourStart],
      ['daily', dayStart],
    ] as const) {
      const keyOf = (monitorId: string, start: number) => `${monitorId}:${start}`;
      const wanted = live.map((b) => ({ monitorId: b.monitorId, companyId: b.companyId, start: startOf(b.checkedAt) }));
      const existing = new Map((await rollups.getMany(grain, wanted, nums)).map((r) => [keyOf(r.monitor_id, r.start), r]));
      const touched = new Map<string, { monitorId: string; companyId: string; start: number; r: Rollup }>();
      for (const b of live) {
        const start = startOf(b.checkedAt);
        const key = keyOf(b.monitorId, start);
        let t = touched.get(key);
        if (!t) {
          t = { monitorId: b.monitorId, companyId: b.companyId, start, r: toRollup(existing.get(key)) };
          touched.set(key, t);
        }
        t.r = addResult(t.r, {
          status: countedStatus(b),
          responseTimeMs: b.outcome.responseTimeMs,
          httpCode: b.outcome.httpCode,
          checkedAt: b.checkedAt,
          inMaintenance: inMaintenance(rows.get(b.monitorId)!),
          timings: b.outcome.timings,
        });
      }
      await rollups.putMany(
        grain,
        [...touched.values()].map((t) => fromRollup(t.monitorId, t.companyId, t.start, t.r)),
        nums,
      );
    }

    if (judge) {
      // Each location's own hour: its raw results, for its uptime and latency.
      const located = live.filter((b) => steps.has(b));
      const lr = locationRollupsRepo(tx);
      const keyOf = (monitorId: string, location: number, start: number) => `${monitorId}:${location}:${start}`;
      const wanted = located.map((b) => ({
        monitorId: b.monitorId,
        companyId: b.companyId,
        location: b.location ?? 0,
        start: hourStart(b.checkedAt),
      }));
      const existing = new Map((await lr.getMany(wanted, nums)).map((r) => [keyOf(r.monitor_id, r.location, r.start), r]));
      const touched = new Map<string, { monitorId: string; companyId: string; location: number; start: number; r: Rollup }>();
      for (const b of located) {
        const location = b.location ?? 0;
        const start = hourStart(b.checkedAt);
        const key = keyOf(b.monitorId, location, start);
        let t = touched.get(key);
        if (!t) {
          t = { monitorId: b.monitorId, companyId: b.companyId, location, start, r: toRollup(existing.get(key)) };
          touched.set(key, t);
        }
        t.r = addResult(t.r, {
          status: b.outcome.status,
          responseTimeMs: b.outcome.responseTimeMs,
          httpCode: b.outcome.httpCode,
          checkedAt: b.checkedAt,
          inMaintenance: inMaintenance(rows.get(b.monitorId)!),
          timings: b.outcome.timings,
        });
      }
      await lr.putMany(
        [...touched.values()].map(
          (t): LocationRollupRecord => ({ ...fromRollup(t.monitorId, t.companyId, t.start, t.r), location: t.location }),
        ),
        nums,
      );
      await locationStatesRepo(tx).putMany(judge.rows());
    }

    // State machine, then incidents and warnings, in result order per monitor; the monitors'
    // new state is written once for the batch (a monitor with two results gets both patches).
    const notify = notifyIn(tx, now);
    const states = new Map<string, StatePatch>();
    const open = await incidents.openOf(tx, ids);
    const deps = dependencySteps(tx, rows);
    const changed: MonitorRow[] = [];
    for (const b of live) {
      const m = rows.get(b.monitorId)!;
      const maint = inMaintenance(m);
      const prev: MonitorState = {
        status: m.status as CheckStatus,
        statusSince: m.status_since,
        pendingStatus: m.pending_status,
        pendingCount: m.pending_count,
        confirmations: m.confirmations,
        incidentOpen: open.has(m.id),
      };
      const step = steps.get(b);
      // With locations the verdict is confirmed already (each location confirms its own state).
      const t = step
        ? step.verdict.status === 'unknown'
          ? { state: prev, changed: false, events: [] }
          : applyResult({ ...prev, confirmations: 1, pendingStatus: null, pendingCount: 0 }, step.verdict.status, b.checkedAt, maint)
        : applyResult(prev, b.outcome.status, b.checkedAt, maint);
      const cause = failureCause(b.outcome);
      if (cause !== m.failure_cause) {
        // Written before this result's incident and warnings: notify reads why the monitor fails
        // to merge warnings about the same cause into its incident (notify/related-signals.ts).
        await monitors.writeStates([{ id: m.id, patch: { failure_cause: cause } }]);
        m.failure_cause = cause;
      }
      // A parent of this monitor is down: its failure is recorded, its incident and alerts are the parent's.
      const held = t.state.status === 'down' && (await deps.held(m));
      for (const ev of t.events) {
        if (ev.kind === 'open_incident') {
          if (held) continue;
          const where = step ? whereOf(step) : undefined;
          const opened = await incidents.open(tx, notify, m, b.checkedAt, b.outcome.error, now, where, await deps.affected(m));
          if (opened) open.set(m.id, opened);
        } else {
          const o = open.get(m.id);
          if (o) {
            await incidents.resolve(tx, notify, m, o, b.checkedAt, now);
            open.delete(m.id);
          }
        }
      }
      const patch: StatePatch = {
        status: t.state.status,
        status_since: t.state.statusSince,
        pending_status: t.state.pendingStatus,
        pending_count: t.state.pendingCount,
        last_checked_at: b.checkedAt,
        last_response_time_ms: b.outcome.responseTimeMs,
        last_http_code: b.outcome.httpCode,
        last_error: step ? lastErrorOf(step, b.outcome.error, m.last_error) : b.outcome.error,
        updated_at: now,
      };
      if (b.outcome.certExpiresAt !== null) patch.cert_expires_at = b.outcome.certExpiresAt;
      if (b.outcome.certIssuer || b.outcome.certSubject) {
        patch.cert_issuer = b.outcome.certIssuer ?? null;
        patch.cert_subject = b.outcome.certSubject ?? null;
      }
      if (b.leaseOwner !== null && m.lease_owner === b.leaseOwner) {
        patch.lease_owner = null;
        patch.lease_expires_at = null;
        // After its first check a monitor settles on its own phase, so monitors created together
        // do not fire together.
        if (m.last_checked_at === null) patch.next_due_at = b.checkedAt + phaseOffsetMs(m.id, m.interval_seconds * 1000) + 1;
      }
      if (!maint)
        Object.assign(
          patch,
          await kindWarnings(
            tx,
            m,
            b,
            t.changed ? t.state.status : null,
            t.state.statusSince ?? b.checkedAt,
            held ? async () => {} : notify,
          ),
        );
      Object.assign(m, patch);
      if (t.changed) changed.push(m);
      states.set(m.id, { ...states.get(m.id), ...patch });
    }
    await monitors.writeStates([...states].map(([id, patch]) => ({ id, patch })));
    await deps.changed(changed, now);
  });
}

/** Held results: the lease is freed (the monitor is due again at its next interval), nothing else changes. */
async function freeLeases(monitors: ReturnType<typeof monitorsRepo>, rows: Map<string, MonitorRow>, held: PendingResult[]): Promise<void> {
  const freed: Array<{ id: string; patch: StatePatch }> = [];
  for (const b of held) {
    const m = rows.get(b.monitorId)!;
    if (b.leaseOwner === null || m.lease_owner !== b.leaseOwner) continue;
    const patch: StatePatch = { lease_owner: null, lease_expires_at: null };
    Object.assign(m, patch);
    freed.push({ id: m.id, patch });
  }
  await monitors.writeStates(freed);
}

/** The kind's own warnings about this result, and the state columns it keeps. */
async function kindWarnings(
  tx: DbScope,
  m: MonitorRow,
  b: PendingResult,
  changedTo: CheckStatus | null,
  since: number,
  notify: Notify,
): Promise<StatePatch> {
  const kind = KINDS[m.type];
  if (!kind.afterResult) return {};
  const kept = await kind.afterResult({
    monitor: m,
    config: parseConfig(m.config),
    outcome: b.outcome,
    checkedAt: b.checkedAt,
    changedTo,
    since,
    notify: (draft) => notify(m.company_id, draft),
    async keepScreenshots(shots) {
      const rows = shots.map((s) => ({
        id: randomUUID(),
        company_id: m.company_id,
        monitor_id: m.id,
        checked_at: b.checkedAt,
        step_index: s.index,
        png: s.png,
      }));
      await checkScreenshotsRepo(tx).insert(rows);
      return rows.map((r) => r.id);
    },
  });
  return kept ?? {};
}

/** Where the monitor is down, for its incident's alert. */
function whereOf(step: LocationStep): { text: string; down: string[]; up: string[]; absent: string[] } {
  const v = step.verdict;
  return {
    text: whereText(v),
    down: v.down.map((l) => l.slug),
    up: [...v.up, ...v.degraded].map((l) => l.slug),
    absent: v.absent.map((l) => l.slug),
  };
}

/** A monitor with locations: the failing location's error, named; none once the verdict is up. */
function lastErrorOf(step: LocationStep, error: string | null, previous: string | null): string | null {
  if (step.verdict.status === 'operational') return null;
  if (error !== null) return storedError(`${step.locationName}: ${error}`);
  return previous;
}
