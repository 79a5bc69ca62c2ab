// Webhook channel: the alert as JSON, signed per the Standard Webhooks specification with the
// channel's whsec_ secret (the standardwebhooks package signs; nothing is hand-rolled). The
// webhook-id is the delivery id, the same on every retry, so a receiver drops repeats by it.
// Payload (documented in openapi/schemas/alerts.yaml AlertWebhookPayload and docs/features/alerts.md):
// { type, timestamp, data: { delivery_id, event, severity, title, message, ... } }.
import { Webhook } from 'standardwebhooks';
import type { Alert, HttpChannel } from './channel.ts';
import { parseTenantUrl } from './tenant-url.ts';
import { webhookForm } from '../../../lib/channel-forms/webhook.ts';

export interface WebhookConfig {
  url: string;
  /** Added by the outbox from the channel's secret column at send time; never part of the tenant's input */
  secret?: string;
}

export const USER_AGENT = 'StatusWatch-Webhooks/1.0';

export function webhookPayload(a: Alert) {
  return {
    type: a.event,
    timestamp: new Date(a.occurredAt).toISOString(),
    data: {
      delivery_id: a.deliveryId,
      event: a.event,
      severity: a.severity,
      title: a.title,
      message: a.message,
      occurred_at: new Date(a.occurredAt).toISOString(),
      company: { id: a.company.id, name: a.company.name, subdomain: a.company.subdomain },
      monitor: a.monitor,
      monitors: a.monitors,
      incident: a.incident,
      // Payloads stored before the field existed have none: null, as for any other event.
      maintenance: a.maintenance
        ? {
            id: a.maintenance.id,
            title: a.maintenance.title,
            starts_at: new Date(a.maintenance.starts_at).toISOString(),
            ends_at: new Date(a.maintenance.ends_at).toISOString(),
          }
        : null,
      console_url: a.consoleUrl,
      status_page_url: a.statusPageUrl,
      acknowledge_url: a.acknowledgeUrl,
    },
  };
}

export const webhook: HttpChannel<WebhookConfig> = {
  type: 'webhook',
  label: webhookForm.label,
  transport: 'http',
  secretFields: ['secret'],
  signingSecret: true,
  grouping: 'never',
  // Machine receivers are the tenant's own servers: one event per incident for their dedup, no limit.
  minGapMs: () => 0,
  parseConfig(raw) {
    const c = (raw ?? {}) as Record<string, unknown>;
    return { url: parseTenantUrl(c.url, 'url') };
  },
  tenantUrls: (c) => [c.url],
  build(alert, config) {
    if (!config.secret) throw new Error('webhook channel without its secret');
    const body = JSON.stringify(webhookPayload(alert));
    // The signing time is the wall clock (receivers check it against theirs to refuse replays).
    const sentAt = new Date();
    const signature = new Webhook(config.secret).sign(alert.deliveryId, sentAt, body);
    return {
      url: config.url,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': alert.deliveryId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
    };
  },
};
