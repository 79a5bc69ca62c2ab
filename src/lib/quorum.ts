// A monitor checked from several locations: which locations it uses, and the quorum's verdict
// over their confirmed states. Pure (the result writer feeds it the states it holds), so the
// rules are table-tested in quorum.test.ts.
import { LOCAL_LOCATION } from './probe-locations.ts';

export type LocationState = 'operational' | 'degraded' | 'down' | 'unknown';

export interface LocationVote {
  /** 0: local; else probe_locations.num */
  num: number;
  slug: string;
  name: string;
  /** The location's confirmed state (its own state machine and confirmations) */
  status: LocationState;
  /** local always; a remote location while a probe of it is seen (and it is not flagged) */
  online: boolean;
}

export interface Verdict {
  status: LocationState;
  /** Locations that must see it down for the monitor to be down */
  need: number;
  /** The online locations with a state, which vote */
  voting: number;
  down: LocationVote[];
  degraded: LocationVote[];
  up: LocationVote[];
  /** Offline locations, or online ones without a result yet: they count neither way */
  absent: LocationVote[];
}

/**
 * The locations a monitor is checked from, as slugs: its own list, else its company's default
 * set, else the built-in engine alone. Stored texts that are not a list of strings read as unset.
 */
export function effectiveSlugs(monitorLocations: string | null, companyDefault: string | null): string[] {
  return slugList(monitorLocations) ?? slugList(companyDefault) ?? [LOCAL_LOCATION.slug];
}

function slugList(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    const v: unknown = JSON.parse(text);
    if (Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string')) return v as string[];
  } catch {
    // a hand-edited or damaged value: as if unset
  }
  return null;
}

/** A majority of the voting locations (at least 1), or the monitor's quorum capped at them. */
export function quorumNeed(quorum: number | null, voting: number): number {
  const majority = Math.floor(voting / 2) + 1;
  return Math.max(1, Math.min(quorum ?? majority, Math.max(voting, 1)));
}

/**
 * Down when at least `need` voting locations are down; degraded when some are down but fewer,
 * or any is degraded; operational when the voting ones are all up; unknown without a voting
 * location (the monitor then keeps the state it has).
 */
export function quorumVerdict(votes: readonly LocationVote[], quorum: number | null): Verdict {
  const absent = votes.filter((v) => !v.online || v.status === 'unknown');
  const voters = votes.filter((v) => v.online && v.status !== 'unknown');
  const down = voters.filter((v) => v.status === 'down');
  const degraded = voters.filter((v) => v.status === 'degraded');
  const up = voters.filter((v) => v.status === 'operational');
  const need = quorumNeed(quorum, voters.length);
  let status: LocationState;
  if (voters.length === 0) status = 'unknown';
  else if (down.length >= need) status = 'down';
  else if (down.length > 0 || degraded.length > 0) status = 'degraded';
  else status = 'operational';
  return { status, need, voting: voters.length, down, degraded, up, absent };
}

/** "Frankfurt", "Frankfurt and Virginia", "Frankfurt, Virginia and Tokyo" */
export function namesText(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Where a monitor is down, as an alert says it after "is down ": "from Frankfurt and Virginia,
 * 2 of 3 locations; Singapore sees it up". Locations that count neither way are named last.
 */
export function whereText(v: Verdict): string {
  const total = v.voting + v.absent.length;
  const parts = [`from ${namesText(v.down.map((d) => d.name))}, ${v.down.length} of ${total} location${total === 1 ? '' : 's'}`];
  const fine = [...v.up, ...v.degraded];
  if (fine.length > 0) parts.push(`${namesText(fine.map((f) => f.name))} ${fine.length === 1 ? 'sees' : 'see'} it up`);
  if (v.absent.length > 0) parts.push(`no result from ${namesText(v.absent.map((a) => a.name))}`);
  return parts.join('; ');
}
