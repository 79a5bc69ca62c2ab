// POST /api/v1/probe/results (issue 27): a probe's batch of results. Each names a monitor the
// location must check (others are refused one by one, with the reason, and nothing is stored for
// them) and an id the probe made: the ids go into probe_results_seen in the same transaction as
// the results go into the inbox (on PostgreSQL in the same statement; inbox.ts stores them just
// after the answer), so a batch sent again after a lost answer stores nothing twice. The probe's figures
// (checks a second, lag) are written to its row, which also marks it seen.
import { RESULT_ID_RETENTION_MS } from '../../../lib/probe-assignments.ts';
import { probeAssignmentsRepo } from '../../db/repositories/probe-assignments-repo.ts';
import { probeResultsSeenRepo } from '../../db/repositories/probe-results-seen-repo.ts';
import { probeResultStreamsRepo } from '../../db/repositories/probe-result-streams-repo.ts';
import { parseStreamResultId, streamMarks } from '../../../lib/probe-result-ids.ts';
import { probesRepo } from '../../db/repositories/probes-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import type { CheckOutcome } from '../../engine/checkers/types.ts';
import { probeInboxRepo } from '../../db/repositories/probe-inbox-repo.ts';
import { locationLabel } from '../../metrics/platform.ts';
import type { Services } from '../context.ts';
import type { ProbeResultInput, ProbeResultsAnswer, ProbeResultsInput } from './result-batch.ts';
import { isAssigned, type ScopedLocation } from './assignment-scope.ts';
import { INBOX_ROW_RESULTS, inboxPayload, inboxRows, kickInbox } from './inbox.ts';
import { probeCall, TOUCH_EVERY_MS } from './probe-call.ts';
import type { DeliveryMemo, JudgedMonitor } from './delivery-memo.ts';
import { type DeliveryClaim, probeDeliveryRepo } from '../../db/repositories/probe-delivery-repo.ts';
import { probeTokenHash } from './hello.ts';

export type { ProbeResultInput, ProbeResultsAnswer, ProbeResultsInput, RefusalReason } from './result-batch.ts';

function outcomeOf(r: ProbeResultInput): CheckOutcome {
  const detail = r.detail && {
    ...(r.detail.cert_valid !== undefined ? { certValid: r.detail.cert_valid } : {}),
    ...(r.detail.cert_problem !== undefined ? { certProblem: r.detail.cert_problem } : {}),
    ...(r.detail.answers !== undefined ? { answers: r.detail.answers } : {}),
    ...(r.detail.run !== undefined ? { run: r.detail.run } : {}),
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

type Wanted = {
  monitorId: string;
  companyId: string;
  kind: string;
  checkedAt: number;
  outcome: CheckOutcome;
  shots?: Array<{ index: number; png: string }>;
};

/**
 * Which results of a batch are taken (by result id) and which refused; `assigned` answers a
 * monitor's row when the location may report on it.
 */
function judge(assigned: (monitorId: string) => JudgedMonitor | null | undefined, input: ProbeResultsInput, now: number) {
  const refused: ProbeResultsAnswer['refused'] = [];
  const wanted = new Map<string, Wanted>();
  let duplicates = 0;
  for (const r of input.results) {
    const m = assigned(r.monitor_id);
    // Unknown, another company's and unassigned monitors read alike: the reason reveals nothing.
    if (!m) refused.push({ id: r.id, reason: 'not_assigned' });
    else if (r.checked_at < now - RESULT_ID_RETENTION_MS) refused.push({ id: r.id, reason: 'too_old' });
    else if (wanted.has(r.id)) duplicates++;
    else
      wanted.set(r.id, {
        monitorId: m.id,
        companyId: m.company_id,
        kind: m.type,
        // A probe's clock running ahead must not date a result in the future.
        checkedAt: Math.min(r.checked_at, now),
        outcome: outcomeOf(r),
        // base64 as sent: the inbox keeps it so (inbox.ts)
        ...(r.detail?.screenshots?.length ? { shots: r.detail.screenshots } : {}),
      });
  }
  return { refused, wanted, duplicates };
}

/**
 * The batch's ids as the claim takes them: results of this project's probes carry a stream and a
 * number (lib/probe-result-ids.ts), one mark per stream says which were taken; a batch with any
 * other id keeps every id.
 */
function claimOf(ids: string[]): DeliveryClaim {
  const numbered = ids.map(parseStreamResultId);
  return numbered.every((x) => x !== null) ? { streams: numbered as Array<{ stream: string; seq: number }> } : { ids };
}

const statsOf = (input: ProbeResultsInput) => ({
  checks_per_second: input.stats.checks_per_second,
  lag_ms: Math.round(input.stats.lag_ms_p99),
});

export async function postProbeResults(
  services: Services,
  presented: string | null,
  input: ProbeResultsInput,
): Promise<ProbeResultsAnswer> {
  if (services.probeResultsVia) return services.probeResultsVia(presented, input);
  const now = services.now();
  const hash = probeTokenHash(presented);
  const monitorIds = [...new Set(input.results.map((r) => r.monitor_id))];
  const memos = services.state.probeDeliveryMemos;
  // PostgreSQL: a batch naming only monitors this token's calls read before is judged on that and
  // landed in one round trip that checks nothing changed (delivery-memo.ts); else read afresh.
  const memo = hash && services.db.kind === 'postgres' ? memos.covering(hash, monitorIds) : undefined;
  if (hash && memo) {
    const answer = await deliverOnMemo(services, hash, memo, monitorIds, input, now);
    if (answer) return answer;
  }
  const repo = probeAssignmentsRepo(services.db);
  // The token's check and three statements at once (the ingest thread's pool has four
  // connections): on a loaded machine each round trip waits for a core twice, and a call's time is
  // the sum of its waits. The three are gated by the token in SQL (liveTokenLocation), so for a
  // token the check refuses they read and write nothing.
  const [token, byId, shadowedFor] = await Promise.all([
    probeCall(services, presented),
    hash ? repo.byIdsUnderToken(hash, monitorIds) : [],
    hash ? repo.companiesWithPrivateSlugUnderToken(hash) : new Set<string>(),
    hash ? probesRepo(services.db).calledUnderToken(hash, input.stats.instance, now, statsOf(input)) : undefined,
  ]);
  if (hash && services.db.kind === 'postgres') memos.remember(hash, token, shadowedFor, monitorIds, byId);
  const loc: ScopedLocation = { slug: token.slug, companyId: token.company_id, shadowedFor };
  const monitors = new Map(byId.map((m) => [m.id, m]));
  const { refused, wanted, duplicates } = judge(
    (id) => {
      const m = monitors.get(id);
      return m && isAssigned(loc, m) ? m : null;
    },
    input,
    now,
  );
  if (wanted.size === 0) return { accepted: 0, duplicates, refused };
  // The ids and the results land together (so each is taken once whatever happens), in the inbox:
  // the drainer stores them after this answer (inbox.ts says why).
  const entries = [...wanted];
  const label = locationLabel(token.slug, token.company_subdomain);
  const ids = entries.map(([id]) => id);
  const claim = claimOf(ids);
  let fresh: number;
  if (services.db.kind === 'postgres' && entries.length <= INBOX_ROW_RESULTS.postgres) {
    const payload = inboxPayload(
      label,
      entries.map(([, p]) => p),
    );
    fresh =
      'streams' in claim
        ? await probeResultStreamsRepo(services.db).advanceAndAdd(token.num, now, claim.streams, label, payload)
        : await probeInboxRepo(services.db).claimAndAdd(token.num, now, ids, label, payload);
  } else
    fresh = await withTransaction(services.db, async (tx) => {
      let isNew: (i: number) => boolean;
      if ('streams' in claim) {
        const inStreams = claim.streams;
        const marks = streamMarks(inStreams);
        const before = await probeResultStreamsRepo(tx).advance(
          token.num,
          [...marks].map(([stream, maxSeq]) => ({ stream, maxSeq })),
          now,
        );
        isNew = (i) => inStreams[i].seq > (before.get(inStreams[i].stream) ?? 0);
      } else {
        const taken = await probeResultsSeenRepo(tx).claim(token.num, ids, now);
        isNew = (i) => taken.has(ids[i]);
      }
      const results = entries.filter((_, i) => isNew(i)).map(([, p]) => p);
      await probeInboxRepo(tx).add(inboxRows(services.db.kind, token.num, label, results, now));
      return results.length;
    });
  return landed(services, fresh, wanted.size, duplicates, refused);
}

function landed(services: Services, fresh: number, wanted: number, duplicates: number, refused: ProbeResultsAnswer['refused']) {
  if (fresh > 0) (services.probeInboxLanded ?? (() => kickInbox(services)))();
  return { accepted: fresh, duplicates: duplicates + wanted - fresh, refused };
}

/**
 * A call judged on its token's memo (delivery-memo.ts) and landed in one statement that first
 * checks the memo still holds; null when it did not (nothing was landed: the call is judged again
 * on fresh reads) or when there is nothing to land (the full path answers that, token check and all).
 */
async function deliverOnMemo(
  services: Services,
  hash: string,
  memo: DeliveryMemo,
  monitorIds: string[],
  input: ProbeResultsInput,
  now: number,
): Promise<ProbeResultsAnswer | null> {
  const { token } = memo;
  const { refused, wanted, duplicates } = judge((id) => memo.assigned(id), input, now);
  if (wanted.size === 0 || wanted.size > INBOX_ROW_RESULTS.postgres) return null;
  const label = locationLabel(token.slug, token.company_subdomain);
  const entries = [...wanted];
  const { current, claimed } = await probeDeliveryRepo(services.db).landIfCurrent({
    basis: {
      tokenHash: hash,
      num: token.num,
      slug: token.slug,
      subdomain: token.company_subdomain,
      shadowed: memo.shadowed,
      monitors: { ids: monitorIds, revs: monitorIds.map((id) => memo.revOf(id)) },
    },
    now,
    touchEveryMs: TOUCH_EVERY_MS,
    instance: input.stats.instance,
    stats: statsOf(input),
    claim: claimOf(entries.map(([id]) => id)),
    label,
    payload: inboxPayload(
      label,
      entries.map(([, p]) => p),
    ),
  });
  if (!current) {
    services.state.probeDeliveryMemos.forget(hash);
    return null;
  }
  return landed(services, claimed, wanted.size, duplicates, refused);
}

/** Forgets result ids, and streams not heard of, older than their retention (the prune job). */
export async function pruneProbeResultIds(services: Services, now: number): Promise<number> {
  const before = now - RESULT_ID_RETENTION_MS;
  return (await probeResultsSeenRepo(services.db).prune(before)) + (await probeResultStreamsRepo(services.db).prune(before));
}
