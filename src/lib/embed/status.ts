// The embeds' data (issue 32): what /embed/status.json carries and the badge and banner draw.
// Made from the page's snapshot (StatusPageView), so the embeds say what the page says. Only
// what a visitor of the public page already reads: the overall state, and the incidents and
// maintenance going on now (title, impact, link). Pure; imports only src/lib.
import type { Indicator, Impact, Status, StatusPageView } from '../status.ts';

export type EmbedImpact = Impact | 'maintenance';

export interface EmbedEvent {
  id: string;
  kind: 'incident' | 'maintenance';
  title: string;
  impact: EmbedImpact;
  url: string;
  started_at: string;
  updated_at: string;
}

export interface EmbedStatus {
  page: { name: string; url: string };
  /** the page's colour: operational, degraded, down, maintenance or unknown */
  status: Status;
  /** Statuspage's indicator of the whole page: none, minor, major, critical or maintenance */
  indicator: Indicator;
  /** the page's own words for it (English); the embeds show their catalogue's words */
  description: string;
  ongoing: EmbedEvent[];
  /** when the snapshot was read */
  updated_at: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const IMPACT_RANK: Record<EmbedImpact, number> = { maintenance: 0, minor: 1, major: 2, critical: 3 };

/**
 * The embeds' document of a page served at `origin`: open incidents (worst impact first, then
 * newest) before maintenance running now. Maintenance that is only planned is not "ongoing".
 */
export function embedStatus(view: StatusPageView, origin: string): EmbedStatus {
  const incidents: EmbedEvent[] = view.activeIncidents.map((i) => ({
    id: i.id,
    kind: 'incident',
    title: i.title,
    impact: i.impact,
    url: `${origin}/incidents/${encodeURIComponent(i.id)}`,
    started_at: iso(i.startedAt),
    updated_at: iso(i.updatedAt),
  }));
  incidents.sort((a, b) => IMPACT_RANK[b.impact] - IMPACT_RANK[a.impact] || b.started_at.localeCompare(a.started_at));
  const maintenance: EmbedEvent[] = view.maintenance
    .filter((w) => w.active)
    .map((w) => ({
      id: w.id,
      kind: 'maintenance',
      title: w.title,
      impact: 'maintenance',
      url: `${origin}/#maintenance-${encodeURIComponent(w.id)}`,
      started_at: iso(w.startsAt),
      updated_at: iso(Math.max(w.updatedAt, w.startsAt)),
    }));
  return {
    page: { name: view.company.name, url: `${origin}/` },
    status: view.overall.status,
    indicator: view.overall.indicator,
    description: view.overall.text,
    ongoing: [...incidents, ...maintenance],
    updated_at: iso(view.generatedAt),
  };
}
