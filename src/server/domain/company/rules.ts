// Validation of the tenant form (section 5 of the spec): required fields, email and URL format,
// subdomain rules, #rrggbb colours, logos sniffed by content (PNG, JPEG, WebP; 512 KB at most).
import { isEmail, isHexColour } from '../../../lib/formats.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { subdomainProblem } from '../../../lib/hosts.ts';
import { DEFAULT_SERVICES, MAX_LOGO_BYTES } from '../../../lib/company.ts';
import type { PlanName } from '../../../lib/plans.ts';
import { parseServices } from './present.ts';

const PHONE_RE = /^\+?[0-9 ()./-]{3,30}$/;

export type LogoKind = 'png' | 'jpeg' | 'webp';

/** The image type of a logo's bytes, by magic number (not by what the client says). */
export function sniffImage(bytes: Uint8Array): LogoKind | null {
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 12 &&
    String.fromCharCode(...bytes.subarray(0, 4)) === 'RIFF' &&
    String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP'
  )
    return 'webp';
  return null;
}

const MIME: Record<LogoKind, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/**
 * A logo as base64 (optionally a data: URL). Returns the normalised data URL to store, or a
 * problem text. The declared type of a data URL must match the content.
 */
export function checkLogo(value: string, label: string): { ok: string } | { problem: string } {
  let b64 = value.trim();
  let declared: string | null = null;
  const m = /^data:([a-z/+.-]+);base64,(.*)$/is.exec(b64);
  if (m) {
    declared = m[1].toLowerCase();
    b64 = m[2];
  }
  b64 = b64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64) || b64.length === 0)
    return { problem: `${label} must be a base64-encoded PNG, JPEG or WebP image.` };
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length > MAX_LOGO_BYTES) return { problem: `${label} must be at most 512 KB.` };
  const kind = sniffImage(bytes);
  if (!kind) return { problem: `${label} must be a PNG, JPEG or WebP image.` };
  if (declared && declared !== MIME[kind] && !(declared === 'image/jpg' && kind === 'jpeg')) {
    return { problem: `${label} must be a PNG, JPEG or WebP image.` };
  }
  return { ok: `data:${MIME[kind]};base64,${bytes.toString('base64')}` };
}

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

export interface CompanyFormInput {
  name?: string;
  email?: string;
  url?: string | null;
  phone?: string | null;
  subdomain?: string;
  slug?: string | null;
  status?: 'active' | 'inactive';
  primary_color?: string;
  secondary_color?: string;
  services?: { monitor?: boolean; security?: boolean; data_breach?: boolean };
  company_metadata?: string | null;
  is_active?: boolean;
  max_users?: number;
  max_workers?: number;
  threat_feed_enabled?: boolean;
  horizontal_logo_base64?: string | null;
  logo_base64?: string | null;
  plan?: PlanName;
}

export interface CleanCompany {
  name: string;
  email: string;
  subdomain: string;
  slug: string | null;
  /** absent: unchanged on update, none on create */
  url?: string | null;
  phone?: string | null;
  primary_color?: string;
  secondary_color?: string;
  services?: string;
  company_metadata?: string | null;
  is_active?: boolean;
  max_users?: number;
  max_workers?: number;
  threat_feed_enabled?: boolean;
  horizontal_logo_base64?: string | null;
  logo_base64?: string | null;
  plan?: string;
}

/**
 * Checks every field; collects one message per field. Optional fields left out stay as stored
 * (`stored`, on update): a partial `services` object changes only the keys it names.
 */
export function validateCompany(
  input: CompanyFormInput,
  stored?: { services: string },
): { value: CleanCompany; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const name = (input.name ?? '').trim();
  const email = (input.email ?? '').trim().toLowerCase();
  const subdomain = (input.subdomain ?? '').trim();
  if (!name) fields.name = 'Company Name is required.';
  // The name is published on the status page, in its feeds and in alert messages.
  const nameProblem = plainTextProblem('Company Name', name);
  if (nameProblem) fields.name = nameProblem;
  if (!email) fields.email = 'Email is required.';
  else if (!isEmail(email)) fields.email = 'Please enter a valid email address.';
  const sp = subdomainProblem(subdomain);
  if (sp) fields.subdomain = sp;
  const url = input.url === undefined ? undefined : input.url?.trim() || null;
  if (url && !isHttpUrl(url)) fields.url = 'Website URL must be a valid URL, for example https://example.com.';
  const phone = input.phone === undefined ? undefined : input.phone?.trim() || null;
  if (phone && !PHONE_RE.test(phone)) fields.phone = 'Phone must be a valid phone number.';
  const slug = input.slug?.trim() || null;
  if (slug && subdomainProblem(slug) && slug !== subdomain) fields.slug = 'Slug may contain only lowercase letters, digits and hyphens.';
  for (const key of ['primary_color', 'secondary_color'] as const) {
    const v = input[key];
    if (v !== undefined && !isHexColour(v))
      fields[key] = `${key === 'primary_color' ? 'Primary' : 'Secondary'} colour must be a hex colour such as #007bff.`;
  }
  if (input.max_users !== undefined && (!Number.isInteger(input.max_users) || input.max_users < 1))
    fields.max_users = 'Max Users must be at least 1.';
  if (input.max_users !== undefined && input.max_users > 100_000) fields.max_users = 'Max Users must be at most 100000.';
  if (input.max_workers !== undefined && (!Number.isInteger(input.max_workers) || input.max_workers < 1 || input.max_workers > 100_000))
    fields.max_workers = 'Max Workers must be between 1 and 100000.';
  const value: CleanCompany = { name, email, subdomain, slug };
  if (url !== undefined) value.url = url;
  if (phone !== undefined) value.phone = phone;
  for (const key of ['logo_base64', 'horizontal_logo_base64'] as const) {
    const v = input[key];
    if (v === undefined) continue;
    if (v === null || v === '') {
      value[key] = null;
      continue;
    }
    const r = checkLogo(v, key === 'logo_base64' ? 'Logo' : 'Horizontal logo');
    if ('problem' in r) fields[key] = r.problem;
    else value[key] = r.ok;
  }
  if (input.primary_color !== undefined) value.primary_color = input.primary_color.toLowerCase();
  if (input.secondary_color !== undefined) value.secondary_color = input.secondary_color.toLowerCase();
  if (input.services !== undefined) {
    const base = stored ? parseServices(stored.services) : DEFAULT_SERVICES;
    const { monitor, security, data_breach } = input.services;
    value.services = JSON.stringify({
      monitor: monitor ?? base.monitor,
      security: security ?? base.security,
      data_breach: data_breach ?? base.data_breach,
    });
  }
  if (input.company_metadata !== undefined) value.company_metadata = input.company_metadata;
  const active = input.is_active ?? (input.status !== undefined ? input.status === 'active' : undefined);
  if (active !== undefined) value.is_active = active;
  if (input.max_users !== undefined) value.max_users = input.max_users;
  if (input.max_workers !== undefined) value.max_workers = input.max_workers;
  if (input.threat_feed_enabled !== undefined) value.threat_feed_enabled = input.threat_feed_enabled;
  if (input.plan !== undefined) value.plan = input.plan;
  return { value, fields };
}
