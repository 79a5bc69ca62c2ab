// POST /api/v1/probe/results (issue 27): a probe's batch of results. Each names a monitor the
// location must check (others are refused one by one, with the reason, and nothing is stored for
// them) and an id the probe made: the ids go into probe_results_seen in the same transaction as
// the results, so a batch sent again after a lost answer stores nothing twice. The probe's figures
// (checks a second, lag) are written to its row, which also marks it seen.
import { RESULT_ID_RETENTION_MS } from '../../../lib/probe-assignments.ts';
import { probeAssignmentsRepo } from '../../db/repositories/probe-assignments-repo.ts';
import { probeResultsSeenRepo } from '../../db/repositories/probe-results-seen-repo.ts';
import { probesRepo } from '../../db/repositories/probes-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import type { CheckOutcome } from '../../engine/checkers/types.ts';
import { type PendingResult, writeBatch } from '../../engine/result-writer.ts';
import { checksTotal, locationLabel } from '../../metrics/platform.ts';
import type { Services } from '../context.ts';
import { isAssigned, type ScopedLocation } from './assignment-scope.ts';
import { probeCall } from './probe-call.ts';

export interface ProbeResultInput {
  id: string;
  monitor_id: string;
  checked_at: number;
  status: CheckOutcome['status'];
  response_time_ms: number | null;
  http_code: number | null;
  error: string | null;
  timings: { dns?: number; connect?: number; tls?: number; ttfb?: number; total: number } | null;
  cert_expires_at: number | null;
  cert_issuer: string | null;
  cert_subject: string | null;
  detail?: { cert_valid?: boolean; cert_problem?: string; answers?: string[] };
}

export interface ProbeResultsInput {
  stats: { instance: string; checks_per_second: number; lag_ms_p99: number };
  results: ProbeResultInput[];
}

/** Results written per transaction (see postProbeResults) */
const INGEST_CHUNK = 100;

export type RefusalReason = 'not_assigned' | 'too_old';

export interface ProbeResultsAnswer {
  accepted: number;
  duplicates: number;
  refused: Array<{ id: string; reason: RefusalReason }>;
}

function outcomeOf(r: ProbeResultInput): CheckOutcome {
  const detail = r.detail && {
    ...(r.detail.cert_valid !== undefined ? { certValid: r.detail.cert_valid } : {}),
    ...(r.detail.cert_problem !== undefined ? { certProblem: r.detail.cert_problem } : {}),
    ...(r.detail.answers !== undefined ? { answers: r.detail.answers } : {}),
  };
  return {
    status: r.status,
    responseTimeMs: r.response_time_ms,
    httpCode: r.http_code,
    error: r.error,
    timings: r.timings,
    certExpiresAt: r.cert_expires_at,
    certIssuer: r.cert_issuer,
    certSubject: r.cert_subject,
    ...(detail ? { detail } : {}),
  };
}

export async function postProbeResults(
  services: Services,
  presented: string | null,
  input: ProbeResultsInput,
): Promise<ProbeResultsAnswer> {
  const token = await probeCall(services, presented);
  const now = services.now();
  const repo = probeAssignmentsRepo(services.db);
  await probesRepo(services.db).called(token.location_id, input.stats.instance, now, {
    checks_per_second: input.stats.checks_per_second,
    lag_ms: Math.round(input.stats.lag_ms_p99),
  });
  const loc: ScopedLocation = {
    slug: token.slug,
    companyId: token.company_id,
    shadowedFor: token.company_id === null ? await repo.companiesWithPrivateSlug(token.slug) : new Set(),
  };
  const monitors = new Map((await repo.byIds([...new Set(input.results.map((r) => r.monitor_id))])).map((m) => [m.id, m]));
  const refused: ProbeResultsAnswer['refused'] = [];
  const wanted = new Map<string, PendingResult>();
  let duplicates = 0;
  for (const r of input.results) {
    const m = monitors.get(r.monitor_id);
    // Unknown, another company's and unassigned monitors read alike: the reason reveals nothing.
    if (!m || !isAssigned(loc, m)) refused.push({ id: r.id, reason: 'not_assigned' });
    else if (r.checked_at < now - RESULT_ID_RETENTION_MS) refused.push({ id: r.id, reason: 'too_old' });
    else if (wanted.has(r.id)) duplicates++;
    else
      wanted.set(r.id, {
        monitorId: m.id,
        companyId: m.company_id,
        // A probe's clock running ahead must not date a result in the future.
        checkedAt: Math.min(r.checked_at, now),
        outcome: outcomeOf(r),
        leaseOwner: null,
        location: token.num,
      });
  }
  if (wanted.size === 0) return { accepted: 0, duplicates, refused };
  if (!services.monitorIncidents) throw new Error('probe results: services have no monitorIncidents (services.ts wires them)');
  const incidents = services.monitorIncidents;
  // In transactions of INGEST_CHUNK results, each taking its ids with its results (so each is
  // stored once whatever happens to the others), with a turn of the event loop between them: on
  // SQLite a transaction runs on the process's one thread, and a batch of 1,000 results written
  // at once held every other request (the status page) for its whole length.
  const entries = [...wanted];
  const location = locationLabel(token.slug, token.company_subdomain);
  let accepted = 0;
  for (let from = 0; from < entries.length; from += INGEST_CHUNK) {
    if (from > 0) await new Promise((r) => setImmediate(r));
    const part = entries.slice(from, from + INGEST_CHUNK);
    const fresh = await withTransaction(services.db, async (tx) => {
      const taken = await probeResultsSeenRepo(tx).claim(
        token.num,
        part.map(([id]) => id),
        now,
      );
      await writeBatch(
        tx,
        part.filter(([id]) => taken.has(id)).map(([, p]) => p),
        now,
        incidents,
      );
      return taken;
    });
    accepted += fresh.size;
    // Counted once committed, as the engine counts its own (metrics/platform.ts checks_total).
    for (const [id, p] of part)
      if (fresh.has(id)) checksTotal.inc({ kind: monitors.get(p.monitorId)!.type, status: p.outcome.status, location });
  }
  return { accepted, duplicates: duplicates + wanted.size - accepted, refused };
}

/** Forgets result ids older than their retention (the prune job). */
export async function pruneProbeResultIds(services: Services, now: number): Promise<number> {
  return probeResultsSeenRepo(services.db).prune(now - RESULT_ID_RETENTION_MS);
}
