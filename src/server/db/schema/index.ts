// The whole database as Kysely sees it: one interface per product area, merged here.
import type { AlertsTables } from './alerts.ts';
import type { CustomDomainTables } from './custom-domains.ts';
import type { IdentityTables } from './identity.ts';
import type { MonitoringTables } from './monitoring.ts';
import type { PlatformTables } from './platform.ts';
import type { ProbeTables } from './probes.ts';
import type { PublicTables } from './public.ts';
import type { SecurityTables } from './security.ts';
import type { SecurityScanTables } from './security-scans.ts';
import type { ThreatTables } from './threat.ts';
import type { TelemetryTables } from './telemetry.ts';
import type { OnCallTables } from './oncall.ts';
import type { IncomingTables } from './incoming.ts';
import type { ScimTables } from './scim.ts';
import type { SsoTables } from './sso.ts';
import type { IncidentSummaryTables } from './incident-summaries.ts';
import type { AnomalyTables } from './anomalies.ts';

export interface Database
  extends IdentityTables,
    MonitoringTables,
    TelemetryTables,
    PlatformTables,
    AlertsTables,
    PublicTables,
    SecurityTables,
    SecurityScanTables,
    ThreatTables,
    CustomDomainTables,
    ProbeTables,
    OnCallTables,
    IncomingTables,
    ScimTables,
    SsoTables,
    IncidentSummaryTables,
    AnomalyTables {}
