// The evidence panel of an automatic incident (issue 33 item 1): one module per kind of finding,
// in one table, most telling first. A new kind is its module and its line here (EvidenceKind in
// src/lib/incident-evidence.ts makes a missing line a type error).
import type { EvidenceItem, EvidenceKind, IncidentEvidence } from '../../../../lib/incident-evidence.ts';
import { incidentEvidenceRepo, type IncidentEvidenceRow } from '../../../db/repositories/incident-evidence-repo.ts';
import { incidentsRepo } from '../../../db/repositories/incidents-repo.ts';
import { monitorsRepo } from '../../../db/repositories/monitors-repo.ts';
import type { DbScope } from '../../../db/scope.ts';
import { KINDS } from '../../../engine/kinds/index.ts';
import type { DownWhere } from '../../../engine/ports.ts';
import { certificateChangeEvidence } from './certificate-change.ts';
import { deployEvidence } from './deploy.ts';
import { dnsChangeEvidence } from './dns-change.ts';
import { locationsEvidence } from './locations.ts';
import { maintenanceEndedEvidence } from './maintenance-ended.ts';
import type { EvidenceInput, EvidenceModule, Finding } from './module.ts';
import { phaseEvidence } from './phase.ts';
import { serviceErrorsEvidence } from './service-errors.ts';

/** Every kind's module; the panel lists findings in this order (the failing phase first, where it is seen last). */
export const EVIDENCE_MODULES: Record<EvidenceKind, EvidenceModule> = {
  phase: phaseEvidence,
  certificate_change: certificateChangeEvidence,
  dns_change: dnsChangeEvidence,
  deploy: deployEvidence,
  service_errors: serviceErrorsEvidence,
  maintenance_ended: maintenanceEndedEvidence,
  locations: locationsEvidence,
};

/** The alert's line holds the first few findings; the panel holds them all */
const LINE_FINDINGS = 3;
const LINE_MAX = 300;

export function lineOf(findings: Finding[]): string {
  const line = findings
    .slice(0, LINE_FINDINGS)
    .map((f) => f.short)
    .join('; ');
  const text = line ? `${line.charAt(0).toUpperCase()}${line.slice(1)}` : '';
  return text.length > LINE_MAX ? `${text.slice(0, LINE_MAX - 1)}…` : text;
}

/** The host a monitor's checks talk to, from its kind (null: push, group, unparsable config). */
function hostOf(type: string, config: string): string | null {
  const kind = KINDS[type as keyof typeof KINDS];
  if (!kind) return null;
  try {
    const target = kind.publicTarget(JSON.parse(config));
    return target
      ? target
          .replace(/^\[|\]$/g, '')
          .replace(/\.$/, '')
          .toLowerCase()
      : null;
  } catch {
    return null;
  }
}

function downWhereOf(text: string | null): DownWhere | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as DownWhere;
  } catch {
    return null;
  }
}

/** Builds the panel of one automatic incident now, without storing it; undefined for an incident without a monitor. */
export async function buildEvidence(db: DbScope, incidentId: string, now: number): Promise<BuiltEvidence | undefined> {
  const incident = await incidentsRepo(db).findById(incidentId, null);
  if (!incident?.monitor_id) return undefined;
  const monitor = await monitorsRepo(db).findById(incident.monitor_id, incident.company_id);
  if (!monitor) return undefined;
  const input: EvidenceInput = {
    db,
    incident: {
      id: incident.id,
      company_id: incident.company_id,
      started_at: Number(incident.started_at),
      down_where: downWhereOf(incident.down_where),
    },
    monitor: { id: monitor.id, name: monitor.name, type: monitor.type, host: hostOf(monitor.type, monitor.config) },
    now,
  };
  const findings: Finding[] = [];
  for (const module of Object.values(EVIDENCE_MODULES)) findings.push(...(await module.build(input)));
  const items: EvidenceItem[] = findings.map((f) => f.item);
  return {
    incident_id: incident.id,
    company_id: incident.company_id,
    monitor_id: monitor.id,
    built_at: now,
    updated_at: now,
    items: JSON.stringify(items),
    line: lineOf(findings),
    // the alert already says where it is down ("down from Frankfurt and Virginia, 2 of 3
    // locations"): its line leaves that finding out rather than say it twice
    alertLine: lineOf(findings.filter((f) => f.item.kind !== 'locations')),
  };
}

/** The stored row, and the line for the alert that opens the incident */
export type BuiltEvidence = IncidentEvidenceRow & { alertLine: string };

/** Builds and stores the panel (the first build's time is kept); answers the stored row. */
export async function refreshEvidence(db: DbScope, incidentId: string, now: number): Promise<BuiltEvidence | undefined> {
  const row = await buildEvidence(db, incidentId, now);
  if (row) {
    const { alertLine: _, ...stored } = row;
    await incidentEvidenceRepo(db).save(stored);
  }
  return row;
}

export function evidenceView(row: IncidentEvidenceRow): IncidentEvidence {
  return {
    incident_id: row.incident_id,
    monitor_id: row.monitor_id,
    built_at: new Date(Number(row.built_at)).toISOString(),
    updated_at: new Date(Number(row.updated_at)).toISOString(),
    items: JSON.parse(row.items) as EvidenceItem[],
    line: row.line,
  };
}
