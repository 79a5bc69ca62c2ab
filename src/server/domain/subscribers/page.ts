// What the Astro pages ask of subscriptions (PageServices): the subscribe form, posted without
// JavaScript, and what a confirmation or unsubscribe link shows. Errors come back as text.
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { classifyHost } from '../../../lib/hosts.ts';
import type { SubscribeFormResult, SubscriberLinkView } from '../../../lib/page-services.ts';
import { viewConfirmLink, viewUnsubscribeLink } from './links.ts';
import { subscribe } from './service.ts';

const STATUS: Partial<Record<DomainError['code'], number>> = { validation: 400, not_found: 404, rate_limited: 429, limit_exceeded: 422 };

export async function subscribeFromPage(
  services: Services,
  host: string,
  clientIp: string,
  input: { email: string; componentIds: string[] | null; language?: string; acceptLanguage?: string | null },
): Promise<SubscribeFormResult> {
  const h = classifyHost(host, services.config.productDomain);
  if (h.kind !== 'tenant') return { ok: false, error: 'Status pages live on company subdomains.', status: 404 };
  try {
    await subscribe(
      { services, actor: null, host, ip: clientIp, userAgent: '' },
      h.subdomain,
      {
        email: input.email,
        component_ids: input.componentIds,
        // the form's hidden field (the page's language); a form without it: the browser's
        ...(input.language ? { language: input.language } : {}),
      },
      input.acceptLanguage,
    );
    return { ok: true };
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    const field = e.fields ? Object.keys(e.fields)[0] : undefined;
    return { ok: false, error: e.detail, field, retryAfterSeconds: e.retryAfter, status: STATUS[e.code] ?? 503 };
  }
}

export function subscriberLinkForPage(
  services: Services,
  kind: 'confirm' | 'unsubscribe',
  token: string,
  host: string,
): Promise<SubscriberLinkView> {
  return kind === 'confirm' ? viewConfirmLink(services, host, token) : viewUnsubscribeLink(services, host, token);
}
