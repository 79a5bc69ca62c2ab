// The security panel switch of the status page (issue 32): read it with a preview of what the
// page shows (or would show) of the company's verified domains, and turn it on or off. Company
// admins and super admins (for the company chosen in the selector) change it; viewers read.
// Every change is audited.
import { daysUntil, type PanelDomain } from '../../../lib/security-panel.ts';
import { hourStart } from '../../../lib/timeline.ts';
import { pagePanelsRepo } from '../../db/repositories/page-panels-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { auditFromCtx } from '../audit/record.ts';
import { requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { toIso, toIsoOrNull } from '../ids.ts';
import { securityPanelOf } from './panels.ts';
import { companyOf } from './settings-company.ts';

/** One domain as the API shows it; days count from the hour, as the page does. */
function presentDomain(d: PanelDomain, at: number) {
  const days = (t: number | null) => (t === null ? null : daysUntil(t, at));
  return {
    hostname: d.hostname,
    kind: d.kind,
    ...(d.tls !== undefined && {
      tls: d.tls && {
        measured_at: toIso(d.tls.measuredAt),
        grade: d.tls.grade,
        hsts: { present: d.tls.hsts.present, max_age: d.tls.hsts.maxAge, preload: d.tls.hsts.preload },
        cert_expires_at: toIsoOrNull(d.tls.certExpiresAt),
        cert_days_left: days(d.tls.certExpiresAt),
      },
    }),
    ...(d.dns !== undefined && {
      dns: d.dns && {
        measured_at: toIso(d.dns.measuredAt),
        spf: d.dns.spf,
        dmarc: d.dns.dmarc,
        registration_expires_at: toIsoOrNull(d.dns.registrationExpiresAt),
        registration_days_left: days(d.dns.registrationExpiresAt),
      },
    }),
  };
}

async function present(ctx: Ctx, companyId: string) {
  const [on, panel] = await Promise.all([
    pagePanelsRepo(ctx.services.db).securityPanelOn(companyId),
    securityPanelOf(ctx.services, companyId),
  ]);
  const at = hourStart(ctx.services.now());
  return { security_panel: on, preview: panel.domains.map((d) => presentDomain(d, at)) };
}

export async function getStatusPagePanels(ctx: Ctx, tenant?: string) {
  requirePermission(ctx, 'view', 'monitors', 'view the status page settings');
  return present(ctx, (await companyOf(ctx, tenant)).id);
}

export async function saveStatusPagePanels(ctx: Ctx, tenant: string | undefined, input: { security_panel: boolean }) {
  requirePermission(ctx, 'update', 'monitors', 'change the status page settings');
  const company = await companyOf(ctx, tenant);
  await withTransaction(ctx.services.db, async (tx) => {
    await pagePanelsRepo(tx).setSecurityPanel(company.id, input.security_panel, ctx.services.now());
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { area: 'status_page_security_panel', security_panel: input.security_panel },
      undefined,
      company.id,
    );
  });
  // This process shows the change at once; others see it by the page's fingerprint (the company row is stamped).
  if (company.subdomain) ctx.services.state.statusPageCache.invalidate(company.subdomain);
  return present(ctx, company.id);
}
