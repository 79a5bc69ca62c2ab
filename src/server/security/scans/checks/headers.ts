// Security headers of the host's front page: each missing (or ineffective) one is a finding,
// with the value seen (or its absence) as evidence. Severities are documented in docs/features/vulnerability-scans.md.
import type { FindingSeverity } from '../../../db/schema/security.ts';
import type { ScanCheck, ScanFinding } from '../types.ts';
import { headerValue, quote } from './evidence.ts';

interface HeaderRule {
  key: string;
  severity: FindingSeverity;
  title: string;
  /** null when the headers are fine, else what is wrong */
  problem(h: Record<string, string | undefined>, https: boolean): string | null;
}

const RULES: HeaderRule[] = [
  {
    key: 'header.csp',
    severity: 'medium',
    title: 'No Content-Security-Policy',
    problem: (h) => (h['content-security-policy'] ? null : 'Content-Security-Policy: (absent)'),
  },
  {
    key: 'header.hsts',
    severity: 'medium',
    title: 'No Strict-Transport-Security (HSTS)',
    problem: (h, https) => {
      if (!https) return 'page served over plain http: no HSTS possible';
      const v = h['strict-transport-security'];
      if (!v) return 'Strict-Transport-Security: (absent)';
      const age = /max-age\s*=\s*"?(\d+)/i.exec(v);
      return age && Number(age[1]) >= 15_552_000 ? null : `Strict-Transport-Security: ${quote(v)} (max-age under 180 days)`;
    },
  },
  {
    key: 'header.x_content_type_options',
    severity: 'low',
    title: 'No X-Content-Type-Options: nosniff',
    problem: (h) => {
      const v = h['x-content-type-options'];
      if (v?.trim().toLowerCase() === 'nosniff') return null;
      return v ? `X-Content-Type-Options: ${quote(v)}` : 'X-Content-Type-Options: (absent)';
    },
  },
  {
    key: 'header.framing',
    severity: 'medium',
    title: 'Page may be framed (no frame-ancestors or X-Frame-Options): clickjacking',
    problem: (h) => {
      if (/(^|;)\s*frame-ancestors\s/i.test(h['content-security-policy'] ?? '')) return null;
      const xfo = h['x-frame-options']?.trim().toUpperCase();
      if (xfo === 'DENY' || xfo === 'SAMEORIGIN') return null;
      return xfo ? `X-Frame-Options: ${quote(xfo)}` : 'Content-Security-Policy frame-ancestors: (absent); X-Frame-Options: (absent)';
    },
  },
  {
    key: 'header.referrer_policy',
    severity: 'low',
    title: 'No Referrer-Policy',
    problem: (h) => {
      const v = h['referrer-policy'];
      if (!v) return 'Referrer-Policy: (absent)';
      return /unsafe-url/i.test(v) ? `Referrer-Policy: ${quote(v)}` : null;
    },
  },
  {
    key: 'header.permissions_policy',
    severity: 'low',
    title: 'No Permissions-Policy',
    problem: (h) => (h['permissions-policy'] ? null : 'Permissions-Policy: (absent)'),
  },
];

export const securityHeaders: ScanCheck = {
  label: 'security headers',
  async run(ctx) {
    const page = await ctx.home();
    if (!page) return [];
    const h: Record<string, string | undefined> = {};
    for (const [name, v] of Object.entries(page.headers)) h[name] = headerValue(v);
    const https = page.origin.startsWith('https:');
    const out: ScanFinding[] = [];
    for (const rule of RULES) {
      const problem = rule.problem(h, https);
      if (problem) out.push({ key: rule.key, severity: rule.severity, title: rule.title, evidence: `${page.url}: ${problem}` });
    }
    return out;
  },
};
