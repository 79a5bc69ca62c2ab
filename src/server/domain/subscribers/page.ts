// What the Astro pages ask of subscriptions (PageServices): the subscribe form, posted without
// JavaScript, and what a confirmation or unsubscribe link shows. Errors come back as text.
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { classifyHost } from '../../../lib/hosts.ts';
import type { OtherSubscribeInput, SubscribeFormResult, SubscriberLinkView } from '../../../lib/page-services.ts';
import { viewConfirmLink, viewUnsubscribeLink } from './links.ts';
import { confirmSmsSubscription, subscribe } from './service.ts';
import { smsOffered } from './sms.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';

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

async function formAnswer(run: () => Promise<unknown>): Promise<SubscribeFormResult> {
  try {
    await run();
    return { ok: true };
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    const field = e.fields ? Object.keys(e.fields)[0] : undefined;
    return { ok: false, error: e.detail, field, retryAfterSeconds: e.retryAfter, status: STATUS[e.code] ?? 503 };
  }
}

const NOT_TENANT: SubscribeFormResult = { ok: false, error: 'Status pages live on company subdomains.', status: 404 };

export async function smsOfferedOnHost(services: Services, host: string): Promise<boolean> {
  const h = classifyHost(host, services.config.productDomain);
  if (h.kind !== 'tenant') return false;
  const company = await companiesRepo(services.db).findBySubdomain(h.subdomain);
  return company ? smsOffered(services, company.id) : false;
}

export async function subscribeOtherFromPage(
  services: Services,
  host: string,
  clientIp: string,
  input: OtherSubscribeInput,
): Promise<SubscribeFormResult> {
  const h = classifyHost(host, services.config.productDomain);
  if (h.kind !== 'tenant') return NOT_TENANT;
  return formAnswer(() =>
    subscribe({ services, actor: null, host, ip: clientIp, userAgent: '' }, h.subdomain, {
      kind: input.kind,
      ...(input.kind === 'sms' ? { phone: input.phone } : { webhook_url: input.webhookUrl }),
      component_ids: input.componentIds,
    }),
  );
}

export async function confirmSmsFromPage(
  services: Services,
  host: string,
  clientIp: string,
  input: { phone: string; code: string },
): Promise<SubscribeFormResult> {
  const h = classifyHost(host, services.config.productDomain);
  if (h.kind !== 'tenant') return NOT_TENANT;
  return formAnswer(() => confirmSmsSubscription({ services, actor: null, host, ip: clientIp, userAgent: '' }, h.subdomain, input));
}
