// GET /api/v1/probe/assignments (issue 27): what a location's probe checks. Without a version
// (or with one we did not make) the answer is the whole set; with one, it is what changed since:
// the monitors of the location changed after it (added or edited, sent whole) and those changed
// out of it (`removed`), with the set's size and ids fingerprint, so a probe whose set drifted
// (a monitor deleted, a change it missed) notices and asks for the whole set again.
//
// Changes are found by monitors.assignment_rev (migration 0121): every change of what a probe
// runs makes that monitor's rev the largest, so "anything new since N" is one indexed max(). A
// long poll asks it about once a second (a change reaches a waiting probe within ~1 s, from any
// process on the same database), and only when it moved reads the changed monitors.
import { type AssignmentVersion, ASSIGNMENTS_MAX_WAIT_S, formatVersion, idsHash, parseVersion } from '../../../lib/probe-assignments.ts';
import { type AssignmentRow, probeAssignmentsRepo } from '../../db/repositories/probe-assignments-repo.ts';
import type { ProbeTokenAuthRow } from '../../db/repositories/probe-locations-repo.ts';
import { probesRepo } from '../../db/repositories/probes-repo.ts';
import type { Services } from '../context.ts';
import { isAssigned, type ScopedLocation, scopeFilter } from './assignment-scope.ts';
import { probeCall } from './probe-call.ts';
import { monitorSecretsKey, openSecrets, type SecretsKey } from '../../engine/kinds/secret-box.ts';
import { companySecrets } from '../../engine/company-secrets.ts';
import { stepSecretNames } from '../../engine/checkers/api-flow.ts';

/** How often a waiting long poll looks for a change */
const POLL_EVERY_MS = 1000;

declare module '../context.ts' {
  interface ProcessState {
    /** The long polls waiting in this process (assignments.ts): ended when the server closes */
    probeLongPolls: Set<() => void>;
  }
}

export interface ProbeAssignment {
  id: string;
  type: string;
  config: Record<string, unknown>;
  interval_seconds: number;
  timeout_seconds: number;
  /** api_flow and browser: the company secrets its steps name, opened */
  secrets?: Record<string, string>;
}

export interface ProbeAssignments {
  version: string;
  changed: boolean;
  full: boolean;
  count: number;
  ids_hash: string;
  allow_private_targets: boolean | string[] | null;
  monitors: ProbeAssignment[];
  removed: string[];
}

// A probe checks with the monitor's credentials, so they go to it opened, over its authenticated
// channel (HTTPS and its token): a probe runs the check as the engine does. One that does not open
// with this server's key is left sealed; the probe's check then fails with the sentence to fix it.
const present = (m: AssignmentRow, key: SecretsKey): ProbeAssignment => ({
  id: m.id,
  type: m.type,
  config: openSecrets(JSON.parse(m.config) as Record<string, unknown>, key).config,
  interval_seconds: m.interval_seconds,
  timeout_seconds: m.timeout_seconds,
});

/**
 * The assignments, each synthetic monitor with the company secrets its steps name, opened (as
 * its password is, and for the same reason): only those it names, only to the probes it is
 * assigned to.
 */
async function presentAll(services: Services, rows: AssignmentRow[]): Promise<ProbeAssignment[]> {
  const key = monitorSecretsKey(services.config);
  return Promise.all(
    rows.map(async (m) => {
      const a = present(m, key);
      const names = stepSecretNames((a.config as { steps?: unknown }).steps);
      return names.length ? { ...a, secrets: await companySecrets(services.db, key, m.company_id)(names) } : a;
    }),
  );
}

/** Ends every waiting long poll at once (the server is closing: they would hold close() for 30 s). */
export function endProbeLongPolls(services: Services): void {
  for (const end of services.state.probeLongPolls) end();
}

export async function getProbeAssignments(
  services: Services,
  presented: string | null,
  input: { version?: string; wait?: number; instance?: string },
  signal: AbortSignal,
): Promise<ProbeAssignments> {
  const token = await probeCall(services, presented);
  const repo = probeAssignmentsRepo(services.db);
  const loc: ScopedLocation = {
    ...scopeFilter(token),
    shadowedFor: token.company_id === null ? await repo.companiesWithPrivateSlug(token.slug) : new Set(),
  };
  if (input.instance) await probesRepo(services.db).called(token.location_id, input.instance, services.now());
  const allowPrivate = token.company_id === null ? services.config.allowPrivateTargets : null;
  const scope = scopeFilter(token);
  const since = input.version === undefined ? null : parseVersion(input.version);
  if (since === null) return whole(services, token, loc, allowPrivate);

  const waitMs = Math.min(Math.max(input.wait ?? 0, 0), ASSIGNMENTS_MAX_WAIT_S) * 1000;
  const until = Date.now() + waitMs;
  // Ended by the probe hanging up or by the server closing, whichever comes first.
  const stop = new AbortController();
  const end = () => stop.abort();
  signal.addEventListener('abort', end, { once: true });
  services.state.probeLongPolls.add(end);
  try {
    let rev = since.rev;
    let total = since.total;
    for (;;) {
      // Something moved in the scope: a monitor changed (its rev) or went (the scope's count).
      const [latest, count] = await Promise.all([repo.latestRev(scope), repo.total(scope)]);
      if (latest > rev || count !== total) {
        const delta = await changes(services, token, loc, since, rev, count);
        if (delta.changed) return { ...delta.answer, allow_private_targets: allowPrivate };
        rev = delta.rev; // changes elsewhere only: wait on from there
        total = count;
      }
      if (Date.now() >= until || stop.signal.aborted) break;
      await pause(Math.min(POLL_EVERY_MS, until - Date.now()), stop.signal);
      if (stop.signal.aborted) break;
    }
    return {
      version: formatVersion({ ...since, rev, total }),
      changed: false,
      full: false,
      count: since.count,
      ids_hash: since.hash,
      allow_private_targets: allowPrivate,
      monitors: [],
      removed: [],
    };
  } finally {
    signal.removeEventListener('abort', end);
    services.state.probeLongPolls.delete(end);
  }
}

async function whole(
  services: Services,
  token: ProbeTokenAuthRow,
  loc: ScopedLocation,
  allowPrivate: ProbeAssignments['allow_private_targets'],
) {
  const repo = probeAssignmentsRepo(services.db);
  // The rev first: a change landing between the reads is sent again by the next delta.
  const [rev, total] = await Promise.all([repo.latestRev(scopeFilter(token)), repo.total(scopeFilter(token))]);
  const rows = (await repo.naming(scopeFilter(token))).filter((m) => isAssigned(loc, m));
  const v: AssignmentVersion = { rev, total, count: rows.length, hash: idsHash(rows.map((m) => m.id)) };
  return {
    version: formatVersion(v),
    changed: true,
    full: true,
    count: v.count,
    ids_hash: v.hash,
    allow_private_targets: allowPrivate,
    monitors: await presentAll(services, rows),
    removed: [],
  };
}

/** What changed after `rev`; `changed` is false when none of it concerns this location. */
async function changes(
  services: Services,
  token: ProbeTokenAuthRow,
  loc: ScopedLocation,
  since: AssignmentVersion,
  rev: number,
  total: number,
) {
  const repo = probeAssignmentsRepo(services.db);
  const changedRows = await repo.changedSince(scopeFilter(token), rev);
  const latest = Math.max(rev, ...changedRows.map((m) => m.assignment_rev));
  const upserts = changedRows.filter((m) => isAssigned(loc, m));
  const removed = changedRows.filter((m) => !isAssigned(loc, m)).map((m) => m.id);
  const ids = (await repo.namingIds(scopeFilter(token))).filter((m) => isAssigned(loc, m)).map((m) => m.id);
  const v: AssignmentVersion = { rev: latest, total, count: ids.length, hash: idsHash(ids) };
  const changed = upserts.length > 0 || v.count !== since.count || v.hash !== since.hash;
  return {
    rev: latest,
    changed,
    answer: {
      version: formatVersion(v),
      changed,
      full: false,
      count: v.count,
      ids_hash: v.hash,
      monitors: await presentAll(services, upserts),
      removed,
    },
  };
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener('abort', done, { once: true });
  });
}
