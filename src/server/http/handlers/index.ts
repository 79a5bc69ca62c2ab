// Every operation's handler, one map per product area (one file each, owned by that area).
// An operationId missing here answers 501 (the contract harness lists those).
// `satisfies HandlerMap` ties names and types to the generated OpenAPI types.
import type { HandlerMap } from '../handler-types.ts';
import { systemHandlers } from './system.ts';
import { authHandlers } from './auth.ts';
import { adminHandlers } from './admin.ts';
import { companyHandlers } from './company.ts';
import { auditHandlers } from './audit.ts';
import { publicHandlers } from './public.ts';
import { monitorsHandlers } from './monitors.ts';
import { incidentsHandlers } from './incidents.ts';
import { notificationsHandlers } from './notifications.ts';
import { intelligenceHandlers } from './intelligence.ts';
import { metricsHandlers } from './metrics.ts';
import { alertsHandlers } from './alerts.ts';
import { statusPageHandlers } from './status-page.ts';
import { customDomainHandlers } from './custom-domains.ts';
import { liveHandlers } from './live.ts';
import { subscribersHandlers } from './subscribers.ts';
import { settingsHandlers } from './settings.ts';
import { accountHandlers } from './account.ts';
import { securityHandlers } from './security.ts';
import { securityDomainsHandlers } from './security-domains.ts';
import { securitySslHandlers } from './security-ssl.ts';
import { securityScansHandlers } from './security-scans.ts';
import { threatIntelligenceHandlers } from './threat-intelligence.ts';
import { reportsHandlers } from './reports.ts';
import { destinationBudgetHandlers } from './destination-budget.ts';
import { probesHandlers } from './probes.ts';
import { secretsHandlers } from './secrets.ts';
import { onCallHandlers } from './oncall.ts';
import { incomingAlertsHandlers } from './incoming-alerts.ts';
import { incidentTemplatesHandlers } from './incident-templates.ts';
import { scimHandlers } from './scim.ts';
import { mcpHandlers } from './mcp.ts';
import { passkeysHandlers } from './passkeys.ts';
import { ssoHandlers } from './sso.ts';
import { statusPagePanelHandlers } from './status-page-panels.ts';
import { incidentEvidenceHandlers } from './incident-evidence.ts';
import { incidentSummaryHandlers } from './incident-summary.ts';
import { anomaliesHandlers } from './anomalies.ts';
import { importsHandlers } from './imports.ts';

export const handlers = {
  ...systemHandlers,
  ...authHandlers,
  ...adminHandlers,
  ...companyHandlers,
  ...auditHandlers,
  ...publicHandlers,
  ...monitorsHandlers,
  ...incidentsHandlers,
  ...notificationsHandlers,
  ...intelligenceHandlers,
  ...metricsHandlers,
  ...alertsHandlers,
  ...statusPageHandlers,
  ...customDomainHandlers,
  ...liveHandlers,
  ...subscribersHandlers,
  ...settingsHandlers,
  ...accountHandlers,
  ...securityHandlers,
  ...securityDomainsHandlers,
  ...securitySslHandlers,
  ...securityScansHandlers,
  ...threatIntelligenceHandlers,
  ...reportsHandlers,
  ...destinationBudgetHandlers,
  ...probesHandlers,
  ...secretsHandlers,
  ...onCallHandlers,
  ...incomingAlertsHandlers,
  ...incidentTemplatesHandlers,
  ...scimHandlers,
  ...passkeysHandlers,
  ...ssoHandlers,
  ...mcpHandlers,
  ...statusPagePanelHandlers,
  ...incidentEvidenceHandlers,
  ...incidentSummaryHandlers,
  ...anomaliesHandlers,
  ...importsHandlers,
} satisfies HandlerMap;
