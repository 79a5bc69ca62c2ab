// Keeps the evidence panels of open automatic incidents current while they run: each minute,
// every open one is rebuilt (domain/incidents/evidence). A job rather than a step of the result
// writer: the panel reads a week of check history and the company's spans, which must not
// lengthen the engine's result transactions; the opening build happens there once
// (automatic.ts), the updates here, one incident per transaction.
const MINUTE_MS = 60_000;
import { refreshOpenEvidence } from '../domain/incidents/evidence-refresh.ts';
import type { Job } from './job.ts';

export const incidentEvidence: Job = {
  name: 'incident-evidence',
  periodMs: MINUTE_MS,
  async run(services, now) {
    const { done: n, notes } = await refreshOpenEvidence(services, now);
    const line = n ? `evidence of ${n} open incident${n === 1 ? '' : 's'} updated` : '';
    return [line, ...notes].filter(Boolean).join('; ') || undefined;
  },
};
