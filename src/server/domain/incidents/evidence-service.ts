// Reading an incident's evidence panel (GET /api/v1/incidents/{id}/evidence, MCP): the stored
// panel; an automatic incident not built yet (opened before migration 0132) is built for the
// answer without being stored; a manual incident has an empty panel (nothing the engine saw).
import type { IncidentEvidence } from '../../../lib/incident-evidence.ts';
import { incidentEvidenceRepo } from '../../db/repositories/incident-evidence-repo.ts';
import { incidentsRepo } from '../../db/repositories/incidents-repo.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx, Services } from '../context.ts';
import { notFound } from '../errors.ts';
import { buildEvidence, evidenceView } from './evidence/index.ts';

export async function getIncidentEvidence(ctx: Ctx, id: string): Promise<IncidentEvidence> {
  requirePermission(ctx, 'view', 'monitors', 'view incidents');
  const db = ctx.services.db;
  const incident = await incidentsRepo(db).findById(id, companyScope(ctx, null));
  if (!incident) throw notFound('Incident');
  const stored = await storedEvidence(db, incident.company_id, incident.id);
  if (stored) return stored;
  const now = ctx.services.now();
  const built = incident.created_by === null ? await buildEvidence(db, incident.id, now) : undefined;
  if (built) return evidenceView(built);
  const at = new Date(now).toISOString();
  return { incident_id: incident.id, monitor_id: incident.monitor_id, built_at: at, updated_at: at, items: [], line: '' };
}

/** The stored panel of a company's incident (the language model's only source), null when none. */
export async function storedEvidence(db: Services['db'], companyId: string, incidentId: string): Promise<IncidentEvidence | null> {
  const row = await incidentEvidenceRepo(db).get(incidentId, companyId);
  return row ? evidenceView(row) : null;
}
