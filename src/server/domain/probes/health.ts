// A probe location's health (issue 27), checked by the probe-health job:
// - Offline: every probe of the location silent for PROBE_OFFLINE_SECONDS. The spell is recorded
//   (probe_locations.offline_since) by compare-and-set in the transaction that writes its notice,
//   so it is announced once, and its end once, however many processes look.
// - The per-location canary: a location whose checks all fail while other locations see the same
//   monitors up is itself cut off (its network, its resolver, a firewall in front of it), not the
//   targets. Over the last CANARY_WINDOW_MS, at least CANARY_MIN_CHECKS checks of at least
//   CANARY_MIN_MONITORS monitors all failed, and other locations saw at least CANARY_MIN_MONITORS
//   of those monitors up: flagged (flagged_since), told once. One check of its that succeeds
//   clears the flag. The quorum writer counts an offline or flagged location neither way
//   (location-health-repo.ts `unhealthyLocations`).
// Who is told: the super admins for a public location, the owning company's admins for a private
// one (in-app `system` notices and their personal e-mail or SMS as they chose; never the
// company's alert channels, which are for its monitors).
import { formatDuration } from '../../../lib/duration.ts';
import { checksRepo } from '../../db/repositories/checks-repo.ts';
import { type LocationHealthRow, locationHealthRepo } from '../../db/repositories/location-health-repo.ts';
import { type DbScope, withTransaction } from '../../db/scope.ts';
import type { NotificationDraft } from '../../notify/draft.ts';
import { notifyIn } from '../../notify/notify.ts';
import { notifySuperAdmins } from '../../notify/super-admins.ts';
import type { Services } from '../context.ts';

export const CANARY_WINDOW_MS = 5 * 60_000;
export const CANARY_MIN_CHECKS = 10;
export const CANARY_MIN_MONITORS = 3;
/** Monitors read per location and run: the canary is a sample (the most recently checked), so a location of 20,000 monitors costs what one of 50 does. */
const CANARY_SAMPLE = 50;
const ACTION_URL = '/settings/probe-locations';

/** What a location's checks over the window say, for the canary. */
export interface CanaryCounts {
  checks: number;
  failed: number;
  monitors: number;
  /** Of the monitors it checked, how many another location saw up */
  upElsewhere: number;
}

export function canaryFlags(c: CanaryCounts): boolean {
  return (
    c.checks >= CANARY_MIN_CHECKS && c.failed === c.checks && c.monitors >= CANARY_MIN_MONITORS && c.upElsewhere >= CANARY_MIN_MONITORS
  );
}

/** Checks the health of every location; answers a line per change (for the job's log). */
export async function checkProbeHealth(services: Services, now: number): Promise<string[]> {
  const offlineMs = services.config.probeOfflineSeconds * 1000;
  const changes: string[] = [];
  for (const loc of await locationHealthRepo(services.db).list()) {
    const silent = loc.last_seen_at !== null && now - loc.last_seen_at > offlineMs;
    if (silent && loc.offline_since === null) {
      const since = loc.last_seen_at!;
      if (await tell(services.db, now, loc, (tx) => locationHealthRepo(tx).markOffline(loc.id, since), offlineDraft(loc, since, now)))
        changes.push(`probe location ${loc.slug} is offline (last heard ${formatDuration(now - since)} ago)`);
    } else if (!silent && loc.offline_since !== null) {
      const since = loc.offline_since;
      if (await tell(services.db, now, loc, (tx) => locationHealthRepo(tx).markOnline(loc.id, since), backDraft(loc, since, now)))
        changes.push(`probe location ${loc.slug} is back`);
    }
    if (silent) continue; // an offline location's old checks say nothing new
    const counts = await canaryCounts(services.db, loc.num, now);
    if (loc.flagged_since === null && canaryFlags(counts)) {
      if (await tell(services.db, now, loc, (tx) => locationHealthRepo(tx).flag(loc.id, now), flaggedDraft(loc, counts, now)))
        changes.push(
          `probe location ${loc.slug} flagged: ${counts.checks} checks of ${counts.monitors} monitors failed, others see them up`,
        );
    } else if (loc.flagged_since !== null && counts.failed < counts.checks) {
      const since = loc.flagged_since;
      if (await tell(services.db, now, loc, (tx) => locationHealthRepo(tx).unflag(loc.id, since), unflaggedDraft(loc, since, now)))
        changes.push(`probe location ${loc.slug} no longer flagged`);
    }
  }
  return changes;
}

/** The location's checks of its most recently checked monitors over the window, and the other locations' of the same monitors. */
async function canaryCounts(db: DbScope, location: number, now: number): Promise<CanaryCounts> {
  const since = now - CANARY_WINDOW_MS;
  const counts: CanaryCounts = { checks: 0, failed: 0, monitors: 0, upElsewhere: 0 };
  for (const monitorId of await locationHealthRepo(db).recentlyChecked(location, since, CANARY_SAMPLE)) {
    const checks = await checksRepo(db).list(monitorId, { since, limit: 5000 });
    const mine = checks.filter((c) => c.location === location);
    if (mine.length === 0) continue;
    counts.monitors += 1;
    counts.checks += mine.length;
    counts.failed += mine.filter((c) => c.status === 'down').length;
    if (checks.some((c) => c.location !== location && c.status !== 'down')) counts.upElsewhere += 1;
  }
  return counts;
}

/** Records a change (compare-and-set) and, when this call made it, tells whom the location concerns, in one transaction. */
async function tell(
  db: DbScope,
  now: number,
  loc: LocationHealthRow,
  change: (tx: DbScope) => Promise<boolean>,
  draft: NotificationDraft,
): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    if (!(await change(tx))) return false;
    if (loc.company_id === null) await notifySuperAdmins(tx, now, draft);
    else await notifyIn(tx, now)(loc.company_id, { ...draft, audience: 'admins' });
    return true;
  });
}

const label = (loc: LocationHealthRow) => `${loc.name} (${loc.slug})`;
const meta = (loc: LocationHealthRow, event: string, since: number) => ({ event, location_id: loc.id, slug: loc.slug, since });

function offlineDraft(loc: LocationHealthRow, since: number, now: number): NotificationDraft {
  return {
    type: 'system',
    severity: 'high',
    title: `Probe location ${label(loc)} is offline`,
    message:
      `No probe of ${loc.name} has called for ${formatDuration(now - since)}. ` +
      'Its monitors keep their state from their other locations, and it counts neither way in their quorum until a probe is back; ' +
      'a monitor checked only from here is not checked meanwhile. Check the probe host, its service and its way out to this platform.',
    details: null,
    metadata: meta(loc, 'probe_location_offline', since),
    actionUrl: ACTION_URL,
    dedupeKey: `probe-location:${loc.id}:offline:${since}`,
  };
}

function backDraft(loc: LocationHealthRow, since: number, now: number): NotificationDraft {
  return {
    type: 'system',
    severity: 'info',
    title: `Probe location ${label(loc)} is back`,
    message: `A probe of ${loc.name} called again after ${formatDuration(now - since)} of silence; its results count in its monitors' quorum again.`,
    details: null,
    metadata: meta(loc, 'probe_location_back', since),
    actionUrl: ACTION_URL,
    dedupeKey: `probe-location:${loc.id}:back:${since}`,
  };
}

function flaggedDraft(loc: LocationHealthRow, c: CanaryCounts, now: number): NotificationDraft {
  return {
    type: 'system',
    severity: 'high',
    title: `Probe location ${label(loc)} fails every check while other locations succeed`,
    message:
      `Over the last ${formatDuration(CANARY_WINDOW_MS)}, all ${c.checks} checks of ${c.monitors} monitors from ${loc.name} failed, ` +
      `while other locations saw ${c.upElsewhere} of those monitors up. Its own network is suspect: it counts neither way in its monitors' quorum ` +
      'until one of its checks succeeds. Check the probe host’s network, DNS and firewall.',
    details: null,
    metadata: { ...meta(loc, 'probe_location_flagged', now), ...c },
    actionUrl: ACTION_URL,
    dedupeKey: `probe-location:${loc.id}:flagged:${now}`,
  };
}

function unflaggedDraft(loc: LocationHealthRow, since: number, now: number): NotificationDraft {
  return {
    type: 'system',
    severity: 'info',
    title: `Probe location ${label(loc)} checks succeed again`,
    message: `A check from ${loc.name} succeeded after ${formatDuration(now - since)} of failing checks; it counts in its monitors' quorum again.`,
    details: null,
    metadata: meta(loc, 'probe_location_unflagged', since),
    actionUrl: ACTION_URL,
    dedupeKey: `probe-location:${loc.id}:unflagged:${since}`,
  };
}
