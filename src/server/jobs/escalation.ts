// Escalation: every 15 s, sends the due steps of the companies' escalation policies for open
// incidents nobody has acknowledged (domain/alerts/escalation.ts). A step is due within one
// period of its minute; each is sent once, also with several processes.
import { runEscalations } from '../domain/alerts/escalation.ts';
import type { Job } from './job.ts';

export const escalation: Job = {
  name: 'escalation',
  periodMs: 15_000,
  async run(services, now) {
    const sent = await runEscalations(services, now);
    return sent > 0 ? `${sent} escalation steps sent` : undefined;
  },
};
