// Domains and DNS (domain/security/domain-check-run.ts): every verified domain is checked once a
// day at its own time of day (spread by its id, so a thousand domains do not all ask at
// midnight). Every 5 minutes the due ones are checked one after another, at most
// DOMAINS_PER_RUN, so one run fits its period even when every server is slow.
import { dueDomains, runDomainCheck } from '../domain/security/domain-check-run.ts';
import { flagOn } from '../domain/flags/flags.ts';
import type { Job } from './job.ts';

/** Each domain's check ends within 30 s; 8 of them fit the 5-minute lease */
export const DOMAINS_PER_RUN = 8;

export const domainChecks: Job = {
  name: 'domain-checks',
  periodMs: 5 * 60_000,
  async run(services, now) {
    if (!(await flagOn(services, 'ENABLE_DOMAIN_CHECKS'))) return undefined;
    let checked = 0;
    for (const id of await dueDomains(services, now, DOMAINS_PER_RUN)) if (await runDomainCheck(services, id)) checked += 1;
    return checked > 0 ? `${checked} domains checked` : undefined;
  },
};
