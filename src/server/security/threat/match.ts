// Matching hosts and addresses against the imported feeds: a name matches an indicator for
// itself or any parent domain, an address one for itself or any network enclosing it. Exact
// lookups by primary key only, so a company's assets and trace peers match in milliseconds
// whatever the feeds' size.
import type { DbScope } from '../../db/scope.ts';
import { threatRepo, type IndicatorRow } from '../../db/repositories/threat-repo.ts';
import { domainAndParents, enclosingNetworks, normalizeIp } from './addresses.ts';

export interface FeedMatch {
  /** The host or address asked about */
  subject: string;
  /** The indicator that matched it (the subject, a parent domain, or a range) */
  indicator: string;
  feed: string;
  threat: string;
  tags: string;
  first_seen_at: number;
}

/** The feed indicators matching each subject (host names or addresses), by subject. */
export async function matchFeeds(db: DbScope, subjects: readonly string[]): Promise<Map<string, FeedMatch[]>> {
  const unique = [...new Set(subjects)];
  const out = new Map<string, FeedMatch[]>();
  const asked = new Map<string, string[]>(); // value -> subjects it stands for
  const repo = threatRepo(db);
  const prefixes = await repo.cidrPrefixes();
  for (const s of unique) {
    const values = normalizeIp(s) ? [s, ...enclosingNetworks(s, prefixes)] : domainAndParents(s);
    for (const v of values) {
      const list = asked.get(v);
      if (list) list.push(s);
      else asked.set(v, [s]);
    }
  }
  const add = (subject: string, row: IndicatorRow) => {
    const list = out.get(subject) ?? [];
    list.push({
      subject,
      indicator: row.value,
      feed: row.feed,
      threat: row.threat,
      tags: row.tags,
      first_seen_at: Number(row.first_seen_at),
    });
    out.set(subject, list);
  };
  if (asked.size) for (const row of await repo.byValues([...asked.keys()])) for (const s of asked.get(row.value) ?? []) add(s, row);
  return out;
}
