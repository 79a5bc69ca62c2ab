// Public status verbs: no sign-in, public monitors only, served from the snapshot cache.
// Every caller gets the snapshot itself: its ETag and time are the validators HTTP answers with.
import type { Ctx, Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { toIso } from '../ids.ts';
import { classifyHost } from '../../../lib/hosts.ts';
import type { StatusPageView } from '../../../lib/status.ts';
import type { StatusPageLookup } from '../../../lib/page-services.ts';
import type { Lookup } from './cache.ts';
import { statuspageDocument, type StatuspageDoc } from './statuspage-json.ts';
import { incidentFeedText } from './feeds.ts';
import { publicTenantOrigin } from './public-links.ts';
import { BADGE_METRICS, badgeContent, badgeSvg, shieldsEndpoint, type BadgeMetric } from './badges.ts';

export const STATUS_PAGE_NOT_FOUND = 'Company not found or inactive';
const SUBDOMAIN_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The snapshot of a company's page; not_found for unknown or inactive companies. */
export function lookupStatusPage(services: Services, subdomain: string): Promise<Lookup> {
  if (!SUBDOMAIN_RE.test(subdomain.toLowerCase())) return Promise.resolve({ kind: 'not_found' });
  return services.state.statusPageCache.lookup(subdomain);
}

async function viewOf(services: Services, subdomain: string): Promise<StatusPageView> {
  let found: Lookup;
  try {
    found = await lookupStatusPage(services, subdomain);
  } catch {
    throw new DomainError('unavailable', 'Failed to load status page');
  }
  if (found.kind !== 'ok') throw new DomainError('not_found', STATUS_PAGE_NOT_FOUND);
  return found.view;
}

/** The tenant subdomain of the request's host, or not_found ('Invalid subdomain' off-domain). */
export function tenantOfHost(ctx: Ctx): string {
  const h = classifyHost(ctx.host, ctx.services.config.productDomain);
  if (h.kind === 'tenant') return h.subdomain;
  throw new DomainError('not_found', h.kind === 'invalid' ? 'Invalid subdomain' : 'Status pages live on company subdomains.');
}

/** The spec's public status payload (section 3) plus the tenant login's public monitor list. */
export function publicStatusPayload(view: StatusPageView) {
  return {
    company: {
      name: view.company.name,
      subdomain: view.company.subdomain,
      primary_color: view.company.primaryColor,
      secondary_color: view.company.secondaryColor,
      logo_base64: view.company.logo,
      horizontal_logo_base64: null,
    },
    monitors: view.monitors.map((m) => ({
      id: m.id,
      monitor_name: m.name,
      group: m.groupId === null ? null : (view.groups.find((g) => g.id === m.groupId)?.name ?? null),
      current_status: m.status,
      last_checked_at: m.lastCheckedAt == null ? null : toIso(m.lastCheckedAt),
      last_response_time: m.lastResponseTimeMs,
      ...(m.locations.length > 0
        ? {
            locations: m.locations.map((l) => ({
              name: l.name,
              response_time: l.responseTimeMs,
              status: l.status as 'operational' | 'degraded' | 'down' | null,
            })),
          }
        : {}),
      ...(m.children ? { children: m.children.map((c) => ({ id: c.id, name: c.name, status: c.status })) } : {}),
      timeline: m.timeline.map((b) => ({ start: toIso(b.start), end: toIso(b.end), status: b.status, http_code: b.httpCode })),
    })),
    overall_status: view.overall.status,
    overall_description: view.overall.text,
    // The spec's 'domain' of the login list is the public name: the target host may be internal.
    // Kinds without an HTTP code (tcp, dns, ssl, push) are shown by their state.
    public_monitors: view.monitors.map((m) => ({
      id: m.id,
      domain: m.name,
      status: m.lastHttpCode,
      current_status: m.status,
      reports_http_code: m.reportsHttpCode,
    })),
  };
}

export async function getPublicStatus(ctx: Ctx, subdomain: string) {
  const view = await viewOf(ctx.services, subdomain);
  return { view, body: publicStatusPayload(view) };
}

export async function getStatuspageJson(ctx: Ctx, doc: StatuspageDoc) {
  const view = await viewOf(ctx.services, tenantOfHost(ctx));
  return { view, body: statuspageDocument(doc, view, publicTenantOrigin(ctx.services.config, view.company.subdomain)) };
}

export async function getIncidentFeed(ctx: Ctx, format: 'rss' | 'atom') {
  const view = await viewOf(ctx.services, tenantOfHost(ctx));
  const origin = publicTenantOrigin(ctx.services.config, view.company.subdomain);
  return { view, body: incidentFeedText(view, origin, ctx.services.config.productName, format) };
}

/** A badge of the page (monitorId null) or of one public monitor; private ids are not found. */
export async function getBadge(ctx: Ctx, monitorId: string | null, metric: string, format: 'svg' | 'json') {
  if (!(BADGE_METRICS as readonly string[]).includes(metric) || (monitorId === null && metric !== 'status')) {
    throw new DomainError('not_found', 'Unknown badge');
  }
  const view = await viewOf(ctx.services, tenantOfHost(ctx));
  const monitor = monitorId === null ? null : view.monitors.find((m) => m.id === monitorId);
  if (monitor === undefined) throw new DomainError('not_found', 'Monitor not found');
  const content = badgeContent(view, monitor, metric as BadgeMetric);
  return { view, body: format === 'svg' ? badgeSvg(content) : shieldsEndpoint(content) };
}

/** PageServices.getStatusPage: the snapshot for the Astro page, never throwing. */
export async function statusPageForPages(services: Services, subdomain: string): Promise<StatusPageLookup> {
  try {
    return await lookupStatusPage(services, subdomain);
  } catch {
    return { kind: 'unavailable' };
  }
}
