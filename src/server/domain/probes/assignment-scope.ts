// Which monitors a location's probes check (issue 27, item 6): one rule, used by the assignments
// a probe reads and by the results it sends back. A monitor is assigned when it is active (not
// paused, not archived, its company active), is not a push monitor (a push monitor is not checked
// from anywhere: its heartbeats arrive at the platform), and its effective locations (its own,
// else its company's default set, else `local`) name the location's slug as the company resolves
// it: a private location's probes only ever see their company's monitors, and for a company that
// has a private location of a slug, the slug names that one, never a public one.
import type { AssignmentCandidate } from '../../db/repositories/probe-assignments-repo.ts';
import type { ProbeTokenAuthRow } from '../../db/repositories/probe-locations-repo.ts';

export interface ScopedLocation {
  slug: string;
  /** null: a public location */
  companyId: string | null;
  /** For a public location: companies whose own private location has this slug */
  shadowedFor: Set<string>;
}

function slugs(json: string | null): string[] | null {
  if (json === null) return null;
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : null;
  } catch {
    return null;
  }
}

/** The monitor's effective location slugs. */
export function effectiveSlugs(m: Pick<AssignmentCandidate, 'locations' | 'default_locations'>): string[] {
  return slugs(m.locations) ?? slugs(m.default_locations) ?? ['local'];
}

export function isAssigned(loc: ScopedLocation, m: AssignmentCandidate): boolean {
  if (m.is_paused || m.archived_at !== null || !m.company_active || m.type === 'push') return false;
  if (loc.companyId !== null ? m.company_id !== loc.companyId : loc.shadowedFor.has(m.company_id)) return false;
  return effectiveSlugs(m).includes(loc.slug);
}

export const scopeFilter = (token: Pick<ProbeTokenAuthRow, 'slug' | 'company_id'>) => ({ slug: token.slug, companyId: token.company_id });
