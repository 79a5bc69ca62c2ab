// The confirmation and unsubscribe links, opened on the company's host. Opening (GET) only
// reads: mail scanners fetch links ahead of their reader. The page's button (POST) acts, and so
// does a mail provider's RFC 8058 one-click POST. A link works only on its company's host;
// unsubscribing works even while ENABLE_NOTIFICATIONS is off (leaving is always possible).
import type { Services } from '../context.ts';
import { flagOn } from '../flags/flags.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { subscribersRepo, type SubscriberRow } from '../../db/repositories/subscribers-repo.ts';
import { classifyHost } from '../../../lib/hosts.ts';
import type { SubscriberLinkView } from '../../../lib/page-services.ts';
import { hashToken, subscriberIdOf, unsubscribeTokenValid } from './tokens.ts';

type Found = { row: SubscriberRow; company: { name: string; subdomain: string; primaryColor: string | null } };

async function companyOn(services: Services, host: string, row: SubscriberRow | undefined): Promise<Found | null> {
  if (!row) return null;
  const h = classifyHost(host, services.config.productDomain);
  const company = await companiesRepo(services.db).findById(row.company_id);
  if (h.kind !== 'tenant' || !company?.subdomain || company.subdomain !== h.subdomain) return null;
  return { row, company: { name: company.name, subdomain: company.subdomain, primaryColor: company.primary_color ?? null } };
}

async function confirmTarget(services: Services, host: string, token: string): Promise<Found | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  if (!(await flagOn(services, 'ENABLE_NOTIFICATIONS'))) return null;
  return companyOn(services, host, await subscribersRepo(services.db).byConfirmHash(hashToken(token)));
}

async function unsubscribeTarget(services: Services, host: string, token: string): Promise<Found | null> {
  const id = subscriberIdOf(token);
  if (!id) return null;
  const found = await companyOn(services, host, await subscribersRepo(services.db).find(id, null));
  if (!found || !unsubscribeTokenValid(services.config.sessionSecret, token, found.row.id, found.row.unsubscribe_nonce)) return null;
  return found;
}

/** Where notices go, as the link's page names it: the address, the number, or the webhook's host. */
const addressOf = (row: SubscriberRow) => row.email ?? row.phone ?? new URL(row.webhook_url ?? 'http://webhook').host;

const componentsOf = (row: SubscriberRow) => (row.component_ids ? (JSON.parse(row.component_ids) as string[]).length : null);

export async function viewConfirmLink(services: Services, host: string, token: string): Promise<SubscriberLinkView> {
  const f = await confirmTarget(services, host, token);
  if (f?.row.state !== 'pending') return { kind: 'invalid' };
  if (f.row.confirm_expires_at === null || Number(f.row.confirm_expires_at) <= services.now())
    return { kind: 'expired', company: f.company };
  return { kind: 'confirm', company: f.company, address: addressOf(f.row), components: componentsOf(f.row) };
}

/** Confirms once: the token is cleared in the same statement that moves pending to confirmed. */
export async function confirmLink(services: Services, host: string, token: string): Promise<SubscriberLinkView> {
  const view = await viewConfirmLink(services, host, token);
  if (view.kind !== 'confirm') return view;
  const f = (await confirmTarget(services, host, token))!;
  const now = services.now();
  const done = await subscribersRepo(services.db).transition(f.row.id, 'pending', {
    state: 'confirmed',
    confirm_token_hash: null,
    confirm_expires_at: null,
    confirmed_at: now,
    updated_at: now,
  });
  return done ? { kind: 'confirmed', company: f.company } : { kind: 'invalid' };
}

export async function viewUnsubscribeLink(services: Services, host: string, token: string): Promise<SubscriberLinkView> {
  const f = await unsubscribeTarget(services, host, token);
  if (!f) return { kind: 'invalid' };
  if (f.row.state === 'unsubscribed') return { kind: 'unsubscribed', company: f.company };
  return {
    kind: 'unsubscribe',
    company: f.company,
    address: addressOf(f.row),
    components: componentsOf(f.row),
  };
}

/** Unsubscribes (again, harmlessly, when already done); any pending confirmation link dies with it. */
export async function unsubscribeLink(services: Services, host: string, token: string): Promise<SubscriberLinkView> {
  const f = await unsubscribeTarget(services, host, token);
  if (!f) return { kind: 'invalid' };
  if (f.row.state !== 'unsubscribed') {
    const now = services.now();
    await subscribersRepo(services.db).update(f.row.id, {
      state: 'unsubscribed',
      confirm_token_hash: null,
      confirm_expires_at: null,
      updated_at: now,
    });
  }
  return { kind: 'unsubscribed', company: f.company };
}
