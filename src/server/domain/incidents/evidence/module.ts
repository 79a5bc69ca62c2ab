// What one evidence module is given and answers (issue 33 item 1). Each kind of finding is one
// module (phase.ts, locations.ts, ...) registered in index.ts; a module answers nothing unless
// its finding stands out by the thresholds it states, so the panel holds nothing unrelated.
import type { EvidenceItem, EvidenceKind } from '../../../../lib/incident-evidence.ts';
import type { DbScope } from '../../../db/scope.ts';
import type { DownWhere } from '../../../engine/ports.ts';

export interface EvidenceIncident {
  id: string;
  company_id: string;
  started_at: number;
  /** Where it was down at opening (monitors checked from several locations), else null */
  down_where: DownWhere | null;
}

export interface EvidenceMonitor {
  id: string;
  name: string;
  type: string;
  /** The host its checks talk to (lower case, no brackets), or null (push, group) */
  host: string | null;
}

export interface EvidenceInput {
  db: DbScope;
  incident: EvidenceIncident;
  monitor: EvidenceMonitor;
  now: number;
}

/** A finding: the item shown, and its few words for the alert's one line. */
export interface Finding {
  item: EvidenceItem;
  short: string;
}

export interface EvidenceModule {
  kind: EvidenceKind;
  build(input: EvidenceInput): Promise<Finding[]>;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const iso = (ms: number) => new Date(ms).toISOString();
/** "40 min", "3 h 5 min": how long before the incident started */
export function agoText(ms: number): string {
  const min = Math.max(0, Math.round(ms / MINUTE_MS));
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
}
