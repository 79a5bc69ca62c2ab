// Probe results taken by a process that stopped before storing them (domain/probes/inbox.ts): a
// delivery call kicks its own process's drainer at once, so this sweep finds work only after a
// crash or a failed drain. Where the process drains in a thread (jobs/probe-drain.ts), the sweep
// hands that thread the work.
import { sweepInbox } from '../domain/probes/inbox.ts';
import type { Job } from './job.ts';

export const probeInbox: Job = {
  name: 'probe-inbox',
  periodMs: 15_000,
  async run(services) {
    const n = await sweepInbox(services);
    return n ? `stored ${n} probe results left in the inbox` : undefined;
  },
};
