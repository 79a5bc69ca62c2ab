// Builds the process's services once: configuration, database (migrated), page services.
// main.ts, the worker, the admin CLI and the tests all start here.
import { getHistoryPage, getIncidentPage, getUptimePage, onTenantHost } from './domain/status-page/history.ts';
import { readFileSync } from 'node:fs';
import type { Config } from './config.ts';
import { openDb, type Db } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Services } from './domain/context.ts';
import type { PageServices } from '../lib/page-services.ts';
import { createSuperAdmin, needsSetup } from './domain/setup/first-admin.ts';
import { firstAdminSessionCookies } from './domain/setup/first-admin-session.ts';
import { monitorIncidents } from './domain/incidents/automatic.ts';
import { acknowledgeByLink, viewAckLink } from './domain/incidents/acknowledge.ts';
import { DomainError } from './domain/errors.ts';
import { currentPageUser } from './domain/auth/page-user.ts';
import { uiSettingsForPage } from './domain/auth/ui-settings.ts';
import { DEFAULT_UI_SETTINGS } from '../lib/ui-settings.ts';
import { resolveHost } from './domain/tenants/resolve-host.ts';
import { statusPageForPages } from './domain/status-page/service.ts';
import { publicMainOrigin } from './domain/status-page/public-links.ts';
import {
  confirmSmsFromPage,
  smsOfferedOnHost,
  subscribeFromPage,
  subscribeOtherFromPage,
  subscriberLinkForPage,
} from './domain/subscribers/page.ts';
import { withProcessState } from './process-state.ts';
import { configureBrowser } from './engine/checkers/browser/settings.ts';
import { storedEvidence } from './domain/incidents/evidence-service.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * The configured database. `secondConnection`: another thread's of this process (the probe ingest
 * thread): a smaller pool, and on SQLite no checkpointer of its own (the main connection's runs).
 */
export function openConfiguredDb(config: Config, opts: { secondConnection?: boolean } = {}): Db {
  // Lost connections are reported on stderr (one line with a code), unless logging is off.
  const log = config.logLevel === 'silent' ? () => {} : undefined;
  const second = opts.secondConnection ?? false;
  return config.databaseUrl
    ? openDb({ kind: 'postgres', url: config.databaseUrl, log, ...(second ? { max: 4 } : {}) })
    : openDb({ kind: 'sqlite', file: config.sqlitePath, log, backgroundCheckpoints: !second, checkpointedElsewhere: second });
}

export async function createServices(config: Config, opts: { db?: Db; now?: () => number } = {}): Promise<Services> {
  const db = opts.db ?? openConfiguredDb(config);
  await migrateToLatest(db);
  // The process's one browser (browser checks) takes the operator's settings here, the one place
  // every process (platform, worker, tests) builds its services.
  configureBrowser(config.browser);
  const services = withProcessState({
    config,
    db,
    now: opts.now ?? Date.now,
    ready: false,
    version: pkg.version,
    monitorIncidents,
    // the language model's summaries are written from the stored evidence panel only
    loadEvidence: (companyId: string, incidentId: string) => storedEvidence(db, companyId, incidentId),
  });
  if (config.adminEmail && config.adminPassword && (await needsSetup(services))) {
    await createSuperAdmin(services, { email: config.adminEmail, password: config.adminPassword }, { onlyIfNoUsers: true });
  }
  services.ready = true;
  return services;
}

export function createPageServices(services: Services): PageServices {
  return {
    productName: services.config.productName,
    productDomain: services.config.productDomain,
    mainSiteUrl: publicMainOrigin(services.config),
    pseudoLocale: services.config.i18nPseudoLocale === true,
    needsSetup: () => needsSetup(services),
    currentUser: (cookieHeader, host) => currentPageUser(services, cookieHeader, host),
    uiSettings: async (userId) => (userId ? uiSettingsForPage(services, userId) : DEFAULT_UI_SETTINGS),
    resolveHost: (host) => resolveHost(services, host),
    getStatusPage: (subdomain) => statusPageForPages(services, subdomain),
    getHistory: (host, month) => onTenantHost(services, host, (sub) => getHistoryPage(services, sub, month)),
    getIncident: (host, id) => onTenantHost(services, host, (sub) => getIncidentPage(services, sub, id)),
    getUptime: (host, months) => onTenantHost(services, host, (sub) => getUptimePage(services, sub, months)),
    subscriberLink: (kind, token, host) => subscriberLinkForPage(services, kind, token, host),
    subscribe: (host, clientIp, input) => subscribeFromPage(services, host, clientIp, input),
    viewAckLink: (token, host) => viewAckLink(services, token, host),
    acknowledgeByLink: (token, host) => acknowledgeByLink(services, token, host),
    smsSubscribeOffered: (host) => smsOfferedOnHost(services, host),
    subscribeOther: (host, clientIp, input) => subscribeOtherFromPage(services, host, clientIp, input),
    confirmSmsCode: (host, clientIp, input) => confirmSmsFromPage(services, host, clientIp, input),
    async createFirstAdmin(input, request) {
      try {
        return { cookies: await firstAdminSessionCookies(services, input, request) };
      } catch (e) {
        if (e instanceof DomainError) return { error: e.detail };
        throw e;
      }
    },
  };
}
