// Where a user's personal alerts go besides their sign-in address: their phone (personal SMS)
// and their own webhook (signed per Standard Webhooks with a whsec_ secret of their own, shown
// once in the answer that sets a new URL). Both are set with the notification preferences.
// A webhook URL passes the same checks as a webhook channel's: http(s), no credentials, and no
// internal literal address unless ALLOW_PRIVATE_TARGETS opens it (names are checked at send).
import { randomBytes } from 'node:crypto';
import { personalContactsRepo } from '../../db/repositories/personal-contacts-repo.ts';
import { literalTarget, TargetRefused } from '../../net/ssrf.ts';
import { ChannelConfigError } from '../../notify/channels/channel.ts';
import { parseTenantUrl } from '../../notify/channels/tenant-url.ts';
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';

export interface PersonalAddresses {
  phone: string | null;
  webhook_url: string | null;
}

const invalid = (field: string, message: string) => new DomainError('validation', message, { fields: { [field]: message } });

export async function personalAddresses(services: Services, userId: string): Promise<PersonalAddresses> {
  const c = await personalContactsRepo(services.db).contact(userId);
  return { phone: c?.phone ?? null, webhook_url: c?.webhook_url ?? null };
}

/** The webhook URL as stored; refuses what a webhook channel would refuse. */
export function checkWebhookUrl(services: Services, raw: string): string {
  let url: string;
  try {
    url = parseTenantUrl(raw, 'webhook_url');
    literalTarget(new URL(url).hostname.replace(/^\[|\]$/g, ''), services.config.allowPrivateTargets);
  } catch (e) {
    if (e instanceof ChannelConfigError || e instanceof TargetRefused) throw invalid('webhook_url', e.message);
    throw e;
  }
  return url;
}

/** Saves what the input names; answers the new signing secret when the webhook URL changed. */
export async function setPersonalAddresses(
  services: Services,
  userId: string,
  input: { phone?: string | null; webhook_url?: string | null },
): Promise<{ webhook_secret?: string }> {
  const repo = personalContactsRepo(services.db);
  const now = services.now();
  const url = input.webhook_url ? checkWebhookUrl(services, input.webhook_url) : input.webhook_url;
  if (input.phone !== undefined) await repo.setPhone(userId, input.phone, now);
  if (url === undefined) return {};
  const current = await repo.contact(userId);
  if (url === null) {
    await repo.setWebhook(userId, null, null, now);
    return {};
  }
  if (current?.webhook_url === url && current.webhook_secret) return {};
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  await repo.setWebhook(userId, url, secret, now);
  return { webhook_secret: secret };
}
