// The URL a tenant gives a channel (webhook, chat incoming webhooks): http(s), bounded, no
// credentials in it. Whether its host may be reached is the SSRF guard's call, at create time
// for literal addresses and again before every send.
import { ChannelConfigError } from './channel.ts';

export function parseTenantUrl(raw: unknown, field: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ChannelConfigError(field, 'URL is required');
  if (raw.length > 2048) throw new ChannelConfigError(field, 'URL is longer than 2048 characters');
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new ChannelConfigError(field, 'Enter a full URL such as https://example.com/hooks/alerts');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new ChannelConfigError(field, 'The URL must start with https:// or http://');
  if (u.username || u.password) throw new ChannelConfigError(field, 'The URL must not contain a user name or password');
  return u.href;
}
