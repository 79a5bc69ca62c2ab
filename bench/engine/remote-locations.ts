// The storage benchmark's other locations (--locations N). The probe process (issue 27) is not on
// this branch, so locations 1 … N−1 are played here: each runs the http kind's real check (the
// module the engine and the probes run) against the same loopback target on every monitor's
// interval, a fraction of the interval after the built-in engine (locations spread over the
// interval rather than checking in lockstep), and stores each result as the result writer stores
// a location's: a check_results row with the location's number, which the check-compaction job
// then moves into the hour's chunk with the engine's own checks. What the coordinator's writer
// adds for a remote location (its state row and hourly rollups) is not written, so the check
// tables' figure is the one to read.
import { timingsText } from '../../src/lib/check-chunk.ts';
import type { Config } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/connect.ts';
import { checksRepo } from '../../src/server/db/repositories/checks-repo.ts';
import { type CheckEnv, type CheckOutcome, DEFAULT_LIMITS, failed } from '../../src/server/engine/checkers/types.ts';
import { KINDS } from '../../src/server/engine/kinds/index.ts';
import { dnsResolver } from '../../src/server/net/dns-lookup.ts';

export interface RemoteMonitor {
  id: string;
  companyId: string;
  config: object;
  /** When the built-in engine first checks it */
  firstDueAt: number;
}

export interface RemoteLocations {
  /** Checks stored per location number */
  readonly checks: Map<number, number>;
  stop(): Promise<void>;
}

const TICK_MS = 50;
const FLUSH_MS = 500;
const FLUSH_SIZE = 200;
const MAX_IN_FLIGHT = 500;

export function startRemoteLocations(
  db: Db,
  config: Config,
  monitors: RemoteMonitor[],
  locations: number,
  intervalMs: number,
  timeoutMs: number,
): RemoteLocations {
  const env: CheckEnv = {
    now: () => Date.now(),
    allowPrivateTargets: config.allowPrivateTargets,
    resolve: dnsResolver(config.dnsResolvers),
    dnsServers: config.dnsResolvers,
    limits: DEFAULT_LIMITS,
  };
  const checks = new Map<number, number>();
  const due: Array<{ m: RemoteMonitor; location: number; at: number }> = [];
  for (let location = 1; location < locations; location++) {
    checks.set(location, 0);
    for (const m of monitors) due.push({ m, location, at: m.firstDueAt + Math.floor((location * intervalMs) / locations) });
  }
  let rows: Parameters<ReturnType<typeof checksRepo>['insertMany']>[0] = [];
  let writing: Promise<void> = Promise.resolve();
  const running = new Set<Promise<void>>();
  const flush = () => {
    const batch = rows;
    rows = [];
    // In monitor id order, the order the result writer locks monitors in: inserting checks takes a
    // key-share lock on each monitor row, and another order deadlocked with the engine's batches
    // on PostgreSQL (40P01), which ended the first hour run.
    batch.sort((a, b) => (a.monitor_id < b.monitor_id ? -1 : a.monitor_id > b.monitor_id ? 1 : 0));
    if (batch.length) writing = writing.then(() => checksRepo(db).insertMany(batch));
    return writing;
  };
  const checkOne = async (m: RemoteMonitor, location: number) => {
    const abort = new AbortController();
    const deadline = setTimeout(() => abort.abort(), timeoutMs);
    const checkedAt = Date.now();
    let outcome: CheckOutcome;
    try {
      const target = {
        id: m.id,
        type: 'http' as const,
        config: m.config,
        timeoutMs,
        lastPushAt: null,
        intervalMs,
        createdAt: m.firstDueAt,
      };
      outcome = await KINDS.http.check(target as never, env, abort.signal);
    } catch {
      outcome = failed('The check could not be completed');
    } finally {
      clearTimeout(deadline);
    }
    rows.push({
      monitor_id: m.id,
      checked_at: checkedAt,
      company_id: m.companyId,
      status: outcome.status,
      response_time_ms: outcome.responseTimeMs,
      http_code: outcome.httpCode,
      error: outcome.error,
      timings: outcome.timings ? timingsText(outcome.timings) : null,
      cert_expires_at: outcome.certExpiresAt,
      location,
    });
    checks.set(location, (checks.get(location) ?? 0) + 1);
    if (rows.length >= FLUSH_SIZE) void flush();
  };
  const tick = setInterval(() => {
    const now = Date.now();
    for (const d of due) {
      if (d.at > now || running.size >= MAX_IN_FLIGHT) continue;
      d.at += intervalMs;
      const p = checkOne(d.m, d.location).finally(() => running.delete(p));
      running.add(p);
    }
  }, TICK_MS);
  const flusher = setInterval(() => void flush(), FLUSH_MS);
  return {
    checks,
    async stop() {
      clearInterval(tick);
      clearInterval(flusher);
      await Promise.all(running);
      await flush();
    },
  };
}
