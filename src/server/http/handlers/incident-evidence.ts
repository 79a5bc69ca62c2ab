import type { HandlerMap } from '../handler-types.ts';
import { getIncidentEvidence } from '../../domain/incidents/evidence-service.ts';

export const incidentEvidenceHandlers = {
  getIncidentEvidence: async ({ ctx, params }) => getIncidentEvidence(ctx, params.id),
} satisfies HandlerMap;
