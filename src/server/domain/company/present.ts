// Company rows as the API shows them (section 3 of the spec).
import { isPublicLocale, type PublicLocale } from '../../../lib/i18n/index.ts';
import type { CompanyRow } from '../../db/repositories/companies-repo.ts';
import { toIso } from '../ids.ts';

import { DEFAULT_SERVICES } from '../../../lib/company.ts';
import { isPlanName, type PlanName } from '../../../lib/plans.ts';
import { parseSlugList } from '../../../lib/monitor-locations.ts';

export interface CompanyView {
  id: string;
  name: string;
  email: string;
  url: string | null;
  phone: string | null;
  subdomain: string | null;
  slug: string | null;
  status: 'active' | 'inactive';
  primary_color: string;
  secondary_color: string;
  services: { monitor: boolean; security: boolean; data_breach: boolean };
  company_metadata: string | null;
  is_active: boolean;
  max_users: number;
  max_workers: number;
  threat_feed_enabled: boolean;
  horizontal_logo_base64: string | null;
  logo_base64: string | null;
  plan: PlanName;
  user_count?: number;
  /** the location slugs its monitors without their own set use; null: local */
  default_locations: string[] | null;
  created_at: string;
  /** the public pages' default language (issue 32) */
  default_language: PublicLocale;
}

/** The stored services JSON, every key present (defaults for missing or broken ones). */
export function parseServices(text: string): CompanyView['services'] {
  try {
    const v = JSON.parse(text) as Partial<CompanyView['services']>;
    return {
      monitor: typeof v.monitor === 'boolean' ? v.monitor : DEFAULT_SERVICES.monitor,
      security: typeof v.security === 'boolean' ? v.security : DEFAULT_SERVICES.security,
      data_breach: typeof v.data_breach === 'boolean' ? v.data_breach : DEFAULT_SERVICES.data_breach,
    };
  } catch {
    return { ...DEFAULT_SERVICES };
  }
}

export function toCompanyView(c: CompanyRow, userCount?: number): CompanyView {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    url: c.url,
    phone: c.phone,
    subdomain: c.subdomain,
    slug: c.slug,
    status: c.is_active ? 'active' : 'inactive',
    primary_color: c.primary_color,
    secondary_color: c.secondary_color,
    services: parseServices(c.services),
    company_metadata: c.company_metadata,
    is_active: c.is_active,
    max_users: c.max_users,
    max_workers: c.max_workers,
    threat_feed_enabled: c.threat_feed_enabled,
    horizontal_logo_base64: c.horizontal_logo_base64,
    logo_base64: c.logo_base64,
    plan: isPlanName(c.plan) ? c.plan : 'starter',
    ...(userCount !== undefined ? { user_count: userCount } : {}),
    default_locations: parseSlugList(c.default_locations),
    created_at: toIso(c.created_at),
    default_language: isPublicLocale(c.default_language) ? c.default_language : 'en',
  };
}

/** The short company reference carried by the current user. */
export function toCompanyRef(c: CompanyRow) {
  return {
    id: c.id,
    name: c.name,
    subdomain: c.subdomain,
    primary_color: c.primary_color,
    secondary_color: c.secondary_color,
    logo_base64: c.logo_base64,
  };
}
