// The daily TLS analysis of every verified host asset and https monitor
// (domain/security/ssl-schedule.ts): every 10 minutes, the targets whose minute of the day has
// come; nothing while ENABLE_SSL_MONITORING is off.
import { flagOn } from '../domain/flags/flags.ts';
import { runDueTlsAnalyses } from '../domain/security/ssl-schedule.ts';
import type { Job } from './job.ts';

export const tlsAnalysis: Job = {
  name: 'tls-analysis',
  periodMs: 10 * 60_000,
  async run(services, now) {
    if (!(await flagOn(services, 'ENABLE_SSL_MONITORING'))) return undefined;
    const n = await runDueTlsAnalyses(services, now);
    return n > 0 ? `${n} TLS analyses` : undefined;
  },
};
