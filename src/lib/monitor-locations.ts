// Where a monitor is checked from (issue 27), the rules shared by the server and the console: a
// monitor names location slugs (null: its company's default set, itself null: the built-in engine
// alone) and a quorum (null: a majority of the online locations). Pure; imports only src/lib.
import { LOCAL_LOCATION } from './probe-locations.ts';
import { namesText } from './quorum.ts';

/** The most locations one monitor (or a company's default set) may name. */
export const MAX_MONITOR_LOCATIONS = 16;

/** The set a monitor uses when neither it nor its company names one. */
export const FALLBACK_LOCATIONS: readonly string[] = [LOCAL_LOCATION.slug];

/** A stored JSON array of slugs, or null (absent, not an array, or empty). */
export function parseSlugList(text: string | null | undefined): string[] | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    if (!Array.isArray(v)) return null;
    const slugs = v.filter((s): s is string => typeof s === 'string');
    return slugs.length ? slugs : null;
  } catch {
    return null;
  }
}

/**
 * A monitor's effective slugs from parsed lists: its own, else its company's default, else the
 * built-in engine (quorum.ts effectiveSlugs reads the same from the stored texts).
 */
export function effectiveList(own: readonly string[] | null, companyDefault: readonly string[] | null): string[] {
  return [...(own ?? companyDefault ?? FALLBACK_LOCATIONS)];
}

/**
 * Why a list of slugs is refused, in words for the form, or null when it is fine. `known` is the
 * set the company sees (`local`, the public slugs and its own private ones); another company's
 * private slug is not in it, so it reads as unknown, exactly like a slug that does not exist.
 */
export function slugListProblem(slugs: readonly string[], known: ReadonlySet<string>): string | null {
  if (slugs.length === 0) return 'Choose at least one location, or none to use the company default.';
  if (slugs.length > MAX_MONITOR_LOCATIONS) return `At most ${MAX_MONITOR_LOCATIONS} locations.`;
  const seen = new Set<string>();
  for (const s of slugs) {
    if (seen.has(s)) return `"${s}" is named twice.`;
    seen.add(s);
    if (!known.has(s)) return `"${s}" is not a location of yours.`;
  }
  return null;
}

/** Why a quorum is refused for a set of `count` locations, or null when it is fine (null: majority). */
export function quorumProblem(quorum: number | null, count: number): string | null {
  if (quorum === null) return null;
  if (!Number.isInteger(quorum) || quorum < 1 || quorum > count)
    return count === 1 ? 'With one location the quorum is 1.' : `The quorum is from 1 to ${count} (the number of locations).`;
  return null;
}

/** How the console names a location: the built-in engine reads "Platform (built-in)". */
export function locationLabel(l: { slug: string; name: string }): string {
  return l.slug === LOCAL_LOCATION.slug ? 'Platform (built-in)' : l.name;
}

/**
 * Where a monitor checked from several locations fails, for the list ("Down in Frankfurt;
 * degraded in Virginia (2 of 3)"), or null when it has one location or none fails. An offline
 * location's last state is stale and counts neither way in the quorum, so it is not named.
 */
export function failingText(entries: ReadonlyArray<{ slug: string; name: string; status: string; online: boolean }>): string | null {
  if (entries.length < 2) return null;
  const down = entries.filter((e) => e.online && e.status === 'down').map(locationLabel);
  const degraded = entries.filter((e) => e.online && e.status === 'degraded').map(locationLabel);
  const parts = [down.length ? `down in ${namesText(down)}` : '', degraded.length ? `degraded in ${namesText(degraded)}` : ''].filter(
    Boolean,
  );
  if (!parts.length) return null;
  const text = parts.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)} (${down.length + degraded.length} of ${entries.length})`;
}
