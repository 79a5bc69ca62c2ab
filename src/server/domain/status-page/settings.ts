// Status page settings (issue 13 item 6): which monitors are public, the names visitors read,
// their order and component groups, read and saved as one layout. Company admins and super
// admins (for the company chosen in the selector) save; viewers read. Another company's monitor
// or group is not found, and nothing of the layout is saved.
import { statusPageSettingsRepo, type MonitorPlacement } from '../../db/repositories/status-page-settings-repo.ts';
import type { MonitorType } from '../../db/schema/monitoring.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { GROUP_NAME_MAX, PUBLIC_NAME_MAX, publicNameOf } from '../../../lib/public-name.ts';
import { auditFromCtx } from '../audit/record.ts';
import { withTransaction } from '../../db/scope.ts';
import { requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { publicTenantOrigin } from './public-links.ts';
import { monitorTarget, pageOrder } from './view.ts';
import { pageAccessOf } from './access-settings.ts';
import { companyOf } from './settings-company.ts';

interface PlacementInput {
  monitor_id: string;
  is_public: boolean;
  public_name: string | null;
  /** Absent: unchanged */
  show_locations?: boolean;
  /** Absent: unchanged */
  show_response_chart?: boolean;
}

export interface LayoutInput {
  ungrouped: PlacementInput[];
  groups: Array<{ id?: string; name: string; monitors: PlacementInput[] }>;
}

export async function getStatusPageSettings(ctx: Ctx, tenant?: string) {
  requirePermission(ctx, 'view', 'monitors', 'view the status page settings');
  return present(ctx, await companyOf(ctx, tenant));
}

async function present(ctx: Ctx, company: { id: string; subdomain: string | null }) {
  const repo = statusPageSettingsRepo(ctx.services.db);
  const [rows, groups, access] = await Promise.all([repo.monitorsOf(company.id), repo.groupsOf(company.id), pageAccessOf(ctx, company.id)]);
  const ordered = pageOrder(rows, groups);
  const shownPlace = new Map(ordered.filter((m) => m.is_public).map((m, i) => [m.id, i + 1]));
  return {
    company_id: company.id,
    preview_url: company.subdomain ? `${publicTenantOrigin(ctx.services.config, company.subdomain)}/` : null,
    access,
    groups: groups.map((g) => ({ id: g.id, name: g.name })),
    monitors: ordered.map((m) => {
      const target = monitorTarget(m);
      const place = shownPlace.get(m.id);
      return {
        id: m.id,
        name: m.name,
        type: m.type as MonitorType,
        target,
        is_public: m.is_public,
        is_paused: m.is_paused,
        status: m.status,
        public_name: m.public_name,
        shown_name: place === undefined ? null : publicNameOf({ name: m.name, publicName: m.public_name, target }, place),
        group_id: m.public_group_id,
        show_locations: m.public_locations,
        show_response_chart: m.public_response_chart,
      };
    }),
  };
}

const invalid = (field: string, text: string) => new DomainError('validation', text, { fields: { [field]: text } });

/** A trimmed public name, null when empty; plain text of at most PUBLIC_NAME_MAX characters. */
function cleanPublicName(value: string | null, field: string): string | null {
  const name = value?.trim() ?? '';
  if (!name) return null;
  if (name.length > PUBLIC_NAME_MAX) throw invalid(field, `A public name has at most ${PUBLIC_NAME_MAX} characters.`);
  const problem = plainTextProblem('Public name', name);
  if (problem) throw invalid(field, problem);
  return name;
}

function cleanGroupName(value: string, field: string): string {
  const name = value.trim();
  if (!name) throw invalid(field, 'A group needs a name.');
  if (name.length > GROUP_NAME_MAX) throw invalid(field, `A group name has at most ${GROUP_NAME_MAX} characters.`);
  const problem = plainTextProblem('Group name', name);
  if (problem) throw invalid(field, problem);
  return name;
}

export async function saveStatusPageSettings(ctx: Ctx, tenant: string | undefined, input: LayoutInput) {
  requirePermission(ctx, 'update', 'monitors', 'change the status page settings');
  const company = await companyOf(ctx, tenant);
  const repo = statusPageSettingsRepo(ctx.services.db);
  const [rows, groups] = await Promise.all([repo.monitorsOf(company.id), repo.groupsOf(company.id)]);
  const monitorById = new Map(rows.map((m) => [m.id, m]));
  const groupIds = new Set(groups.map((g) => g.id));

  const groupNames = new Set<string>();
  const newGroups = input.groups.map((g, i) => {
    const name = cleanGroupName(g.name, `groups.${i}.name`);
    if (groupNames.has(name.toLowerCase())) throw invalid(`groups.${i}.name`, `Two groups are named "${name}".`);
    groupNames.add(name.toLowerCase());
    if (g.id !== undefined && !groupIds.has(g.id)) throw notFound('Component group');
    return { id: g.id ?? newId(), name, isNew: g.id === undefined };
  });
  if (new Set(newGroups.map((g) => g.id)).size !== newGroups.length) throw invalid('groups', 'A group is listed twice.');

  const sections: Array<{ groupId: string | null; monitors: PlacementInput[]; field: string }> = [
    { groupId: null, monitors: input.ungrouped, field: 'ungrouped' },
    ...input.groups.map((g, i) => ({ groupId: newGroups[i].id, monitors: g.monitors, field: `groups.${i}.monitors` })),
  ];
  const seen = new Set<string>();
  const publicNames = new Map<string, string>();
  const placements: MonitorPlacement[] = [];
  for (const s of sections) {
    for (const [position, p] of s.monitors.entries()) {
      const field = `${s.field}.${position}`;
      if (!monitorById.has(p.monitor_id)) throw notFound('Monitor');
      if (seen.has(p.monitor_id)) throw invalid(field, 'A monitor is listed twice.');
      seen.add(p.monitor_id);
      const publicName = cleanPublicName(p.public_name, `${field}.public_name`);
      if (p.is_public && publicName) {
        const key = publicName.toLowerCase();
        if (publicNames.has(key)) throw invalid(`${field}.public_name`, `Two public monitors are named "${publicName}".`);
        publicNames.set(key, p.monitor_id);
      }
      placements.push({
        id: p.monitor_id,
        is_public: p.is_public,
        public_name: publicName,
        public_group_id: s.groupId,
        public_position: position,
        public_locations: p.show_locations ?? monitorById.get(p.monitor_id)!.public_locations,
        public_response_chart: p.show_response_chart ?? monitorById.get(p.monitor_id)!.public_response_chart,
      });
    }
  }
  // Only what changes is written (and stamped): an unchanged monitor keeps its updated_at.
  const changed = placements.filter((p) => {
    const m = monitorById.get(p.id)!;
    return (
      m.is_public !== p.is_public ||
      m.public_name !== p.public_name ||
      m.public_group_id !== p.public_group_id ||
      m.public_locations !== p.public_locations ||
      m.public_response_chart !== p.public_response_chart ||
      (m.public_position === null ? null : Number(m.public_position)) !== p.public_position
    );
  });
  // The layout and its audit row commit together.
  await withTransaction(ctx.services.db, async (tx) => {
    await statusPageSettingsRepo(tx).save(company.id, { groups: newGroups, monitors: changed }, ctx.services.now());
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { area: 'status_page', groups: newGroups.length, monitors_changed: changed.length },
      undefined,
      company.id,
    );
  });
  // This process shows the change at once; others see it by the page's fingerprint.
  if (company.subdomain) ctx.services.state.statusPageCache.invalidate(company.subdomain);
  return present(ctx, company);
}
