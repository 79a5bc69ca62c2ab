// Rebuilds the evidence panels of open automatic incidents (the incident-evidence job). Each
// panel is written in its own transaction: one incident's failure does not hold back the rest.
// The first run after an incident opens also writes its model summary, where one is wanted.
import { incidentEvidenceRepo } from '../../db/repositories/incident-evidence-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import type { Services } from '../context.ts';
import { refreshEvidence } from './evidence/index.ts';
import { summarizeOnEvidence } from './summary/service.ts';

/** Open incidents rebuilt per run: far more than are ever open at once on one platform */
const PER_RUN = 500;

/** Panels rebuilt, and why a summary was not written where one was wanted (for the job's log line) */
export async function refreshOpenEvidence(services: Services, now: number): Promise<{ done: number; notes: string[] }> {
  const open = await incidentEvidenceRepo(services.db).openAutomatic(PER_RUN);
  let done = 0;
  const notes: string[] = [];
  for (const i of open) {
    const row = await withTransaction(services.db, (tx) => refreshEvidence(tx, i.id, now));
    if (!row) continue;
    done++;
    // the language model's summary (issue 33, item 3) follows the panel, outside its transaction:
    // nothing is sent unless the company opted in and a finding changed since the last summary
    const refused = await summarizeOnEvidence(services, row.company_id, row.incident_id);
    if (refused) notes.push(refused);
  }
  return { done, notes };
}
