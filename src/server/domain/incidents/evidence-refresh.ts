// Rebuilds the evidence panels of open automatic incidents (the incident-evidence job). Each
// panel is written in its own transaction: one incident's failure does not hold back the rest.
import { incidentEvidenceRepo } from '../../db/repositories/incident-evidence-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import type { Services } from '../context.ts';
import { refreshEvidence } from './evidence/index.ts';

/** Open incidents rebuilt per run: far more than are ever open at once on one platform */
const PER_RUN = 500;

export async function refreshOpenEvidence(services: Services, now: number): Promise<number> {
  const open = await incidentEvidenceRepo(services.db).openAutomatic(PER_RUN);
  let done = 0;
  for (const i of open) {
    const row = await withTransaction(services.db, (tx) => refreshEvidence(tx, i.id, now));
    if (row) done++;
  }
  return done;
}
