// Every timed job of the product, in one table. A new job is one file exporting a `Job` plus
// its line here; the runner gives it a lease and a schedule.
import type { Job } from './job.ts';
import { alertDelivery } from './alert-delivery.ts';
import { checkCompaction } from './check-compaction.ts';
import { checkResultsRetention } from './check-results-retention.ts';
import { domainChecks } from './domain-checks.ts';
import { customDomains } from './custom-domains.ts';
import { dayPartitions } from './day-partitions.ts';
import { escalation } from './escalation.ts';
import { maintenanceNotices } from './maintenance-notices.ts';
import { probeHealth } from './probe-health.ts';
import { probeInbox } from './probe-inbox.ts';
import { sessionSweep } from './session-sweep.ts';
import { securityVerification } from './security-verification.ts';
import { slaReports } from './sla-reports.ts';
import { spanRetention } from './span-retention.ts';
import { tlsAnalysis } from './tls-analysis.ts';
import { vulnerabilityScans } from './vulnerability-scans.ts';
import { threatFeeds } from './threat-feeds.ts';
import { threatIntel } from './threat-intel.ts';
import { probeResultIds } from './probe-result-ids.ts';
import { browserScreenshots } from './browser-screenshots.ts';
import { incidentEvidence } from './incident-evidence.ts';
import { anomalyWatch } from './anomaly-watch.ts';

export const JOBS: readonly Job[] = [
  dayPartitions,
  checkResultsRetention,
  checkCompaction,
  spanRetention,
  sessionSweep,
  alertDelivery,
  maintenanceNotices,
  escalation,
  securityVerification,
  domainChecks,
  tlsAnalysis,
  vulnerabilityScans,
  threatFeeds,
  threatIntel,
  slaReports,
  customDomains,
  probeResultIds,
  probeHealth,
  probeInbox,
  browserScreenshots,
  incidentEvidence,
  anomalyWatch,
];
