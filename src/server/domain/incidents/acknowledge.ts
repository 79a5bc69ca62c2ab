// Acknowledging an incident: someone is on it. From the console (company admins and super
// admins; viewers never write) or from the signed one-time link in an alert message (no sign-in:
// the link is the credential, bound to one incident and the delivery it came in). The first
// acknowledgement is recorded with who and how, stops escalation (jobs/escalation.ts) and is
// announced as `incident.acknowledged` through notify; a second one is refused with 409.
import { classifyHost } from '../../../lib/hosts.ts';
import type { AckLinkView } from '../../../lib/page-services.ts';
import { alertChannelsRepo } from '../../db/repositories/alert-channels-repo.ts';
import { alertDeliveriesRepo } from '../../db/repositories/alert-deliveries-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { incidentsRepo, type IncidentWithTenant } from '../../db/repositories/incidents-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { notifyIn } from '../../notify/notify.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx, Services } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { toIso } from '../ids.ts';
import { readAckToken } from './ack-token.ts';
import { getIncident } from './service.ts';

export async function acknowledgeIncident(ctx: Ctx, id: string) {
  const actor = requirePermission(ctx, 'update', 'monitors', 'acknowledge incidents');
  const i = await incidentsRepo(ctx.services.db).findById(id, companyScope(ctx, null));
  if (!i) throw notFound('Incident');
  const user = await usersRepo(ctx.services.db).findById(actor.userId);
  await recordAcknowledgement(ctx.services, i, { userId: actor.userId, via: 'console', who: user?.full_name || 'A user' });
  return getIncident(ctx, id);
}

async function recordAcknowledgement(services: Services, i: IncidentWithTenant, by: { userId: string | null; via: string; who: string }) {
  if (i.acknowledged_at !== null) throw alreadyAcknowledged(i);
  if (i.resolved_at !== null) throw new DomainError('conflict', 'This incident is resolved; there is nothing to acknowledge.');
  const now = services.now();
  await withTransaction(services.db, async (tx) => {
    if (!(await incidentsRepo(tx).acknowledge(i.id, { at: now, userId: by.userId, via: by.via }))) {
      const current = await incidentsRepo(tx).findById(i.id, i.company_id);
      throw current?.acknowledged_at
        ? alreadyAcknowledged(current)
        : new DomainError('conflict', 'This incident is resolved; there is nothing to acknowledge.');
    }
    await notifyIn(tx, now)(i.company_id, {
      type: 'monitor_incident',
      severity: i.severity,
      title: `Acknowledged: ${i.title}`,
      message: `${by.who} acknowledged "${i.title}"${by.via === 'console' ? ' in the console' : ` through the link in ${by.via}`}.`,
      details: null,
      metadata: { monitor_id: i.monitor_id, incident_id: i.id, event: 'acknowledged' },
      actionUrl: `/monitors/incidents/${i.id}`,
      dedupeKey: `incident:${i.id}:acknowledged`,
    });
  });
}

const alreadyAcknowledged = (i: IncidentWithTenant) =>
  new DomainError(
    'conflict',
    `This incident was already acknowledged${i.acknowledged_by_name ? ` by ${i.acknowledged_by_name}` : ''} at ${toIso(i.acknowledged_at!)}.`,
  );

interface LinkTarget {
  incident: IncidentWithTenant;
  company: string;
  expired: boolean;
  deliveryUserId: string | null;
  via: string;
}

/** The incident behind a token on its company's host; null when forged, moved or about nothing that exists. */
async function linkTarget(services: Services, token: string, host: string): Promise<LinkTarget | null> {
  const claims = readAckToken(services.config.sessionSecret, token);
  if (!claims) return null;
  const h = classifyHost(host, services.config.productDomain);
  const incident = await incidentsRepo(services.db).findById(claims.incidentId, null);
  if (!incident) return null;
  const company = await companiesRepo(services.db).findById(incident.company_id);
  if (!company || h.kind !== 'tenant' || h.subdomain !== company.subdomain) return null;
  const delivery = await alertDeliveriesRepo(services.db).find(claims.deliveryId, incident.company_id);
  if (!delivery) return null;
  let via = 'an alert message';
  if (delivery.channel_id) {
    const channel = await alertChannelsRepo(services.db).find(delivery.channel_id, incident.company_id);
    if (channel) via = `"${channel.name}"`;
  } else if (delivery.target) via = delivery.target === 'sms' ? 'a personal SMS' : 'a personal e-mail';
  return { incident, company: company.name, expired: services.now() >= claims.expiresAt, deliveryUserId: delivery.user_id, via };
}

function viewOf(t: LinkTarget): AckLinkView {
  const i = t.incident;
  const state = i.acknowledged_at !== null ? 'acknowledged' : i.resolved_at !== null ? 'resolved' : t.expired ? 'expired' : 'ready';
  return {
    state,
    company: t.company,
    incident: {
      title: i.title,
      severity: i.severity,
      monitorName: i.monitor_name,
      startedAt: toIso(i.started_at),
      acknowledgedAt: i.acknowledged_at === null ? null : toIso(i.acknowledged_at),
    },
  };
}

/** The page's GET: reading a link never acknowledges (mail scanners open links). */
export async function viewAckLink(services: Services, token: string, host: string): Promise<AckLinkView> {
  const t = await linkTarget(services, token, host);
  return t ? viewOf(t) : { state: 'invalid' };
}

/** The page's POST: acknowledges when the link is valid, unexpired and the incident still open. */
export async function acknowledgeByLink(services: Services, token: string, host: string): Promise<AckLinkView> {
  const t = await linkTarget(services, token, host);
  if (!t) return { state: 'invalid' };
  if (viewOf(t).state !== 'ready') return viewOf(t);
  const user = t.deliveryUserId ? await usersRepo(services.db).findById(t.deliveryUserId) : undefined;
  try {
    await recordAcknowledgement(services, t.incident, {
      userId: user?.id ?? null,
      via: t.via,
      who: user?.full_name || 'Someone',
    });
  } catch (e) {
    if (!(e instanceof DomainError && e.code === 'conflict')) throw e;
  }
  return viewAckLink(services, token, host);
}
