// The links a subscriber's mails and webhooks carry, on the company's own host: the status page,
// the one-click unsubscribe link and the confirmation link (built from configuration, never
// from a request's Host header).
import type { Config } from '../../config.ts';
import { publicTenantOrigin, type PublicLinkConfig } from '../../domain/status-page/public-links.ts';
import { unsubscribeToken } from '../../domain/subscribers/tokens.ts';
import type { MailLinks } from './subscriber-mail.ts';

export function subscriberLinks(
  config: PublicLinkConfig & Pick<Config, 'sessionSecret'>,
  subdomain: string,
  subscriber: { id: string; unsubscribe_nonce: string },
): MailLinks {
  const origin = publicTenantOrigin(config, subdomain);
  return {
    statusPageUrl: `${origin}/`,
    unsubscribeUrl: `${origin}/unsubscribe/${unsubscribeToken(config.sessionSecret, subscriber.id, subscriber.unsubscribe_nonce)}`,
  };
}

export function confirmUrl(config: PublicLinkConfig, subdomain: string, token: string): string {
  return `${publicTenantOrigin(config, subdomain)}/subscribe/confirm/${token}`;
}
