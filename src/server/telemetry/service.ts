// The telemetry part of the process's services: the span writer, the ingest rate limiter, the
// budget of body bytes in memory and the ingest limits, created once per process (lazily, so
// every entry point gets it); and the retention sweep the span-retention job runs.
import type { Db } from '../db/connect.ts';
import { companiesRepo } from '../db/repositories/companies-repo.ts';
import { spansRepo } from '../db/repositories/spans-repo.ts';
import { endpointsRepo } from '../db/repositories/endpoints-repo.ts';
import { redRepo } from '../db/repositories/red-repo.ts';
import { planLimits } from '../../lib/plans.ts';
import { retentionCutoff } from '../../lib/day-partitions.ts';
import { IngestLimiter } from './rate-limit.ts';
import { InflightBudget, type InflightCaps } from './inflight.ts';
import { BODY_TIMEOUT_MS } from './otlp-body.ts';
import { SpanWriter } from './span-writer.ts';

/** Read at each request, so a test may lower them on a running server. */
export interface IngestLimits extends InflightCaps {
  bodyTimeoutMs: number;
}

export interface TelemetryServices {
  writer: SpanWriter;
  limiter: IngestLimiter;
  budget: InflightBudget;
  limits: IngestLimits;
}

/** What telemetry needs of the process's services: a narrow view, so it never imports the domain. */
export interface TelemetryHost {
  db: Db;
  now(): number;
  telemetry?: TelemetryServices;
  onShutdown?: Array<() => Promise<void>>;
}

const MiB = 1024 * 1024;
// A company's share fits one body at the 20 MiB cap; the process holds about three at once.
const DEFAULT_LIMITS: IngestLimits = { bodyTimeoutMs: BODY_TIMEOUT_MS, companyInflightBytes: 24 * MiB, processInflightBytes: 64 * MiB };

const DAY_MS = 86_400_000;

/** The process's telemetry services, created on first use. */
export function telemetryOf(services: TelemetryHost): TelemetryServices {
  if (!services.telemetry) {
    const writer = new SpanWriter(services.db);
    const limits = { ...DEFAULT_LIMITS };
    services.telemetry = { writer, limiter: new IngestLimiter(), budget: new InflightBudget(limits), limits };
    (services.onShutdown ??= []).unshift(() => writer.close());
  }
  return services.telemetry;
}

/**
 * Deletes spans and rollups older than each company's plan keeps them. On PostgreSQL spans live in
 * day partitions and the span-retention job first drops the days past the longest retention in
 * use (db/day-partitions.ts); a company on a shorter plan then loses its older spans in whole days
 * (cutoff at midnight UTC), so each of its days is deleted once, from one partition, and the
 * longest plan deletes no span row at all (see engine/retention.ts for why not a partition per plan).
 */
export async function sweepRetention(services: TelemetryHost): Promise<{ spans: number; rollups: number }> {
  const now = services.now();
  const wholeDays = services.db.kind === 'postgres';
  let spans = 0;
  let rollups = 0;
  for (const c of await companiesRepo(services.db).list()) {
    const days = planLimits(c.plan).retentionDays;
    const cutoffMs = now - days * DAY_MS;
    spans += await spansRepo(services.db).deleteOlderThan(c.id, retentionCutoff(now, days, wholeDays) * 1000);
    rollups += await redRepo(services.db).deleteOlderThan(c.id, cutoffMs);
    await endpointsRepo(services.db).deleteOlderThan(c.id, cutoffMs);
  }
  return { spans, rollups };
}
