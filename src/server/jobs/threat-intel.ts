// Threat intelligence for each company with threat_feed_enabled, hourly, while
// ENABLE_THREAT_INTELLIGENCE is on (security/threat/run.ts); peers not called for 30 days are
// forgotten. A company without it is never looked at.
import { DAY_MS, HOUR_MS } from '../../lib/timeline.ts';
import { spanPeersRepo } from '../db/repositories/span-peers-repo.ts';
import { threatRepo } from '../db/repositories/threat-repo.ts';
import { flagOn } from '../domain/flags/flags.ts';
import { dnsResolver } from '../net/dns-lookup.ts';
import { threatDns } from '../security/threat/dns.ts';
import { runCompanyThreatIntel, type ThreatRunDeps } from '../security/threat/run.ts';
import type { Job } from './job.ts';

export const threatIntel: Job = {
  name: 'threat-intel',
  periodMs: HOUR_MS,
  async run(services, now) {
    await spanPeersRepo(services.db).prune(now - 30 * DAY_MS);
    if (!(await flagOn(services, 'ENABLE_THREAT_INTELLIGENCE'))) return undefined;
    const deps: ThreatRunDeps = {
      config: services.config,
      dns: threatDns(services.config.dnsResolvers),
      resolve: dnsResolver(services.config.dnsResolvers),
    };
    const found: string[] = [];
    for (const company of await threatRepo(services.db).enabledCompanies()) {
      const r = await runCompanyThreatIntel(services.db, deps, company, now);
      if (r.listed || r.newlyRegistered.length) found.push(`${company.id}: ${r.listed} listed, ${r.newlyRegistered.length} new lookalikes`);
    }
    return found.length ? `threat intel: ${found.join('; ')}` : undefined;
  },
};
