// Alert channel verbs: list, get, create, update (disable instead of delete), delete (super
// admins), rotate a webhook's secret and send a test. Company admins manage their own company's
// channels; viewers see none (a channel's config holds URLs and tokens). Tenant-supplied URLs
// pass the SSRF guard here when they are literal addresses, and again before every send.
import { randomBytes } from 'node:crypto';
import type { AlertChannelRow } from '../../db/repositories/alert-channels-repo.ts';
import { alertChannelsRepo } from '../../db/repositories/alert-channels-repo.ts';
import { alertDeliveriesRepo } from '../../db/repositories/alert-deliveries-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import { literalTarget, TargetRefused } from '../../net/ssrf.ts';
import { ChannelConfigError, type AlertSeverity, type Channel } from '../../notify/channels/channel.ts';
import { channelOf } from '../../notify/channels/index.ts';
import { CHANNEL_EVENTS, SEVERITIES } from '../../notify/outbox/alert-event.ts';
import { newDelivery } from '../../notify/outbox/payload.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { companyScope, requirePermission, requireSuperAdmin } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso } from '../ids.ts';
import { deliveriesWritten } from '../../notify/outbox/wake.ts';

export interface ChannelInput {
  name?: string;
  type?: string;
  config?: Record<string, unknown>;
  events?: string[];
  monitor_ids?: string[] | null;
  min_severity?: AlertSeverity;
  enabled?: boolean;
  company_id?: string | null;
}

const invalid = (field: string, message: string) => new DomainError('validation', message, { fields: { [field]: message } });

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function presentChannel(row: AlertChannelRow) {
  const channel = channelOf(row.type);
  const config = JSON.parse(row.config) as Record<string, unknown>;
  for (const f of channel?.secretFields ?? []) delete config[f];
  return {
    id: row.id,
    company_id: row.company_id,
    name: row.name,
    type: row.type,
    config,
    events: JSON.parse(row.events) as string[],
    monitor_ids: row.monitor_ids ? (JSON.parse(row.monitor_ids) as string[]) : null,
    min_severity: row.min_severity,
    enabled: row.enabled,
    has_secret: row.secret !== null,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

export async function listChannels(ctx: Ctx, q: { tenant?: string }) {
  requirePermission(ctx, 'view', 'settings', 'view alert channels');
  const rows = await alertChannelsRepo(ctx.services.db).list(companyScope(ctx, q.tenant));
  return rows.map(presentChannel);
}

/** The channel when the actor's company owns it (any company for super admins); else 404. */
export async function ownChannel(ctx: Ctx, id: string): Promise<AlertChannelRow> {
  const row = await alertChannelsRepo(ctx.services.db).find(id, companyScope(ctx, null));
  if (!row) throw notFound('Alert channel');
  return row;
}

export async function getChannel(ctx: Ctx, id: string) {
  requirePermission(ctx, 'view', 'settings', 'view alert channels');
  return presentChannel(await ownChannel(ctx, id));
}

export async function createChannel(ctx: Ctx, input: ChannelInput) {
  const actor = requirePermission(ctx, 'create', 'settings', 'create alert channels');
  const s = ctx.services;
  const companyId = actor.role === 'super_admin' ? input.company_id : companyScope(ctx, null);
  if (!companyId) throw invalid('company_id', 'Choose the company this channel belongs to');
  if (!(await companiesRepo(s.db).findById(companyId))) throw invalid('company_id', 'Company not found');
  const channel = input.type ? channelOf(input.type) : null;
  if (!channel) throw invalid('type', 'Choose a channel type');
  const fields = await validFields(ctx, channel, companyId, input, null);
  const now = s.now();
  const row: AlertChannelRow = {
    id: newId(),
    company_id: companyId,
    name: fields.name ?? '',
    type: channel.type,
    config: JSON.stringify(fields.config),
    secret: channel.signingSecret ? newSecret() : null,
    events: JSON.stringify(fields.events ?? ['incident.opened', 'incident.resolved']),
    monitor_ids: fields.monitorIds === undefined || fields.monitorIds === null ? null : JSON.stringify(fields.monitorIds),
    min_severity: fields.minSeverity ?? 'info',
    enabled: input.enabled !== false,
    next_send_at: null,
    created_at: now,
    updated_at: now,
  };
  if (!row.name) throw invalid('name', 'Name is required');
  await alertChannelsRepo(s.db).insert(row);
  // The secret is shown once, here (and after a rotation).
  return { ...presentChannel(row), ...(row.secret ? { secret: row.secret } : {}) };
}

export async function updateChannel(ctx: Ctx, id: string, input: ChannelInput) {
  requirePermission(ctx, 'update', 'settings', 'change alert channels');
  const row = await ownChannel(ctx, id);
  const channel = channelOf(row.type);
  if (!channel) throw new DomainError('conflict', 'This channel type is no longer available');
  if (input.type !== undefined && input.type !== row.type)
    throw invalid('type', 'The type of a channel cannot change; create a new channel');
  const f = await validFields(ctx, channel, row.company_id, input, JSON.parse(row.config));
  const patch: Partial<AlertChannelRow> = { updated_at: ctx.services.now() };
  if (f.name !== undefined) {
    if (!f.name) throw invalid('name', 'Name is required');
    patch.name = f.name;
  }
  if (input.config !== undefined) patch.config = JSON.stringify(f.config);
  if (f.events !== undefined) patch.events = JSON.stringify(f.events);
  if (f.monitorIds !== undefined) patch.monitor_ids = f.monitorIds === null ? null : JSON.stringify(f.monitorIds);
  if (f.minSeverity !== undefined) patch.min_severity = f.minSeverity;
  if (input.enabled !== undefined) patch.enabled = input.enabled;
  await alertChannelsRepo(ctx.services.db).update(row.id, patch);
  return presentChannel({ ...row, ...patch });
}

export async function deleteChannel(ctx: Ctx, id: string): Promise<void> {
  requireSuperAdmin(ctx);
  const row = await ownChannel(ctx, id);
  await alertChannelsRepo(ctx.services.db).delete(row.id);
}

export async function rotateSecret(ctx: Ctx, id: string) {
  requirePermission(ctx, 'update', 'settings', 'change alert channels');
  const row = await ownChannel(ctx, id);
  if (row.secret === null) throw new DomainError('conflict', 'Only webhook channels have a signing secret');
  const secret = newSecret();
  const now = ctx.services.now();
  await alertChannelsRepo(ctx.services.db).update(row.id, { secret, updated_at: now });
  return { ...presentChannel({ ...row, secret, updated_at: now }), secret };
}

/** Puts a test alert for this channel alone in the outbox; the delivery job sends it. */
export async function testChannel(ctx: Ctx, id: string) {
  const actor = requirePermission(ctx, 'update', 'settings', 'test alert channels');
  const row = await ownChannel(ctx, id);
  const now = ctx.services.now();
  const delivery = newDelivery(
    row,
    `test:${newId()}`,
    {
      event: 'test',
      severity: 'info',
      title: `Test alert for "${row.name}"`,
      message: `${actor.fullName || actor.email} sent this test to check that alerts reach this channel.`,
      occurredAt: now,
      monitor: null,
      monitors: [],
      incident: null,
      maintenance: null,
    },
    now,
  );
  await alertDeliveriesRepo(ctx.services.db).insertIdempotent([delivery]);
  deliveriesWritten(ctx.services.db);
  return { delivery_id: delivery.id };
}

async function validFields(ctx: Ctx, channel: Channel, companyId: string, input: ChannelInput, previous: Record<string, unknown> | null) {
  const name = input.name?.trim();
  const problem = plainTextProblem('Name', name);
  if (problem) throw invalid('name', problem);
  let config: unknown = previous;
  if (input.config !== undefined || previous === null) {
    // Secret fields left out of an edit keep their stored values (they are never shown back).
    const kept = Object.fromEntries(channel.secretFields.filter((f) => previous && f in previous).map((f) => [f, previous![f]]));
    try {
      config = channel.parseConfig({ ...kept, ...(input.config ?? {}) });
    } catch (e) {
      if (e instanceof ChannelConfigError) throw invalid(`config.${e.field}`, e.message);
      throw e;
    }
    for (const url of channel.tenantUrls(config)) {
      try {
        literalTarget(new URL(url).hostname.replace(/^\[|\]$/g, ''), ctx.services.config.allowPrivateTargets);
      } catch (e) {
        // Named by the setting that holds it (server_url, homeserver_url, …), not always `url`.
        const field = Object.entries(config as Record<string, unknown>).find(([, v]) => v === url)?.[0] ?? 'url';
        if (e instanceof TargetRefused) throw invalid(`config.${field}`, e.message);
        throw e;
      }
    }
  }
  if (input.events !== undefined) {
    if (input.events.length === 0) throw invalid('events', 'Choose at least one event');
    const bad = input.events.find((e) => !CHANNEL_EVENTS.includes(e as never));
    if (bad) throw invalid('events', `Unknown event: ${bad}`);
  }
  if (input.monitor_ids) {
    const monitors = monitorsRepo(ctx.services.db);
    for (const m of input.monitor_ids) if (!(await monitors.findById(m, companyId))) throw invalid('monitor_ids', 'Monitor not found');
  }
  if (input.min_severity !== undefined && !SEVERITIES.includes(input.min_severity)) throw invalid('min_severity', 'Unknown severity');
  return {
    name,
    config,
    events: input.events ? [...new Set(input.events)] : undefined,
    monitorIds: input.monitor_ids === undefined ? undefined : input.monitor_ids === null ? null : [...new Set(input.monitor_ids)],
    minSeverity: input.min_severity,
  };
}
