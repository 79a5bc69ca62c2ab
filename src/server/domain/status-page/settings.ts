// Status page settings (issue 13 item 6): which monitors are public, the names visitors read,
// their order and component groups, read and saved as one layout. Company admins and super
// admins (for the company chosen in the selector) save; viewers read. Another company's monitor
// or group is not found, and nothing of the layout is saved.
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { isPublicLocale, LOCALE_NAMES, PUBLIC_LOCALES } from '../../../lib/i18n/index.ts';
import { isTimeZone, pageLanguagesOf } from '../../../lib/page-locale.ts';
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
import { cleanTranslations, presentTranslations } from '../text-translations.ts';

interface PlacementInput {
  monitor_id: string;
  is_public: boolean;
  public_name: string | null;
  /** Absent: unchanged */
  show_locations?: boolean;
  /** The public name per language; absent: unchanged */
  public_name_translations?: Record<string, string>;
  /** Absent: unchanged */
  show_response_chart?: boolean;
}

export interface LayoutInput {
  ungrouped: PlacementInput[];
  groups: Array<{ id?: string; name: string; monitors: PlacementInput[]; name_translations?: Record<string, string> }>;
  /** the languages the page offers (absent: unchanged); they include the company's default */
  languages?: string[];
  /** the page's IANA time zone (absent: unchanged; null: UTC) */
  time_zone?: string | null;
}

export async function getStatusPageSettings(ctx: Ctx, tenant?: string) {
  requirePermission(ctx, 'view', 'monitors', 'view the status page settings');
  return present(ctx, await companyOf(ctx, tenant));
}

type SettingsCompany = {
  id: string;
  subdomain: string | null;
  default_language: string;
  status_page_languages: string | null;
  status_page_time_zone: string | null;
};

async function present(ctx: Ctx, company: SettingsCompany) {
  const langs = pageLanguagesOf(company.default_language, company.status_page_languages, company.status_page_time_zone);
  const repo = statusPageSettingsRepo(ctx.services.db);
  const [rows, groups, access] = await Promise.all([repo.monitorsOf(company.id), repo.groupsOf(company.id), pageAccessOf(ctx, company.id)]);
  const ordered = pageOrder(rows, groups);
  const shownPlace = new Map(ordered.filter((m) => m.is_public).map((m, i) => [m.id, i + 1]));
  return {
    company_id: company.id,
    preview_url: company.subdomain ? `${publicTenantOrigin(ctx.services.config, company.subdomain)}/` : null,
    access,
    groups: groups.map((g) => ({ id: g.id, name: g.name, name_translations: presentTranslations(g.name_translations) })),
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
        public_name_translations: presentTranslations(m.public_name_translations),
        show_response_chart: m.public_response_chart,
      };
    }),
    default_language: langs.defaultLanguage,
    languages: langs.offered,
    time_zone: langs.timeZone,
  };
}

/**
 * The page's languages and zone as stored (JSON list in PUBLIC_LOCALES order; null zone for UTC),
 * or a problem per field: an unknown language, a list without the company's default, an unknown zone.
 */
function cleanLanguages(
  input: LayoutInput,
  company: SettingsCompany,
): { status_page_languages?: string; status_page_time_zone?: string | null } {
  const out: { status_page_languages?: string; status_page_time_zone?: string | null } = {};
  if (input.languages !== undefined) {
    for (const [i, l] of input.languages.entries())
      if (!isPublicLocale(l))
        throw invalid(`languages.${i}`, `"${l}" is not a language the pages are written in (${PUBLIC_LOCALES.join(', ')}).`);
    if (new Set(input.languages).size !== input.languages.length) throw invalid('languages', 'A language is listed twice.');
    const def = isPublicLocale(company.default_language) ? company.default_language : 'en';
    if (!input.languages.includes(def))
      throw invalid('languages', `The page always offers the company's default language (${LOCALE_NAMES[def]}): keep it in the list.`);
    out.status_page_languages = JSON.stringify(PUBLIC_LOCALES.filter((l) => input.languages!.includes(l)));
  }
  if (input.time_zone !== undefined) {
    const tz = input.time_zone?.trim() || null;
    if (tz !== null && !isTimeZone(tz)) throw invalid('time_zone', `"${tz}" is not a time zone (an IANA name such as Europe/Berlin).`);
    out.status_page_time_zone = tz === 'UTC' ? null : tz;
  }
  return out;
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
  const languages = cleanLanguages(input, company);
  const repo = statusPageSettingsRepo(ctx.services.db);
  const [rows, groups] = await Promise.all([repo.monitorsOf(company.id), repo.groupsOf(company.id)]);
  const monitorById = new Map(rows.map((m) => [m.id, m]));
  const groupIds = new Set(groups.map((g) => g.id));
  const groupById = new Map(groups.map((g) => [g.id, g]));

  const groupNames = new Set<string>();
  const newGroups = input.groups.map((g, i) => {
    const name = cleanGroupName(g.name, `groups.${i}.name`);
    if (groupNames.has(name.toLowerCase())) throw invalid(`groups.${i}.name`, `Two groups are named "${name}".`);
    groupNames.add(name.toLowerCase());
    if (g.id !== undefined && !groupIds.has(g.id)) throw notFound('Component group');
    const translations = cleanTranslations(`groups.${i}.name_translations`, 'Group name', g.name_translations, GROUP_NAME_MAX);
    const kept = g.id === undefined ? null : (groupById.get(g.id)?.name_translations ?? null);
    return { id: g.id ?? newId(), name, nameTranslations: translations === undefined ? kept : translations, isNew: g.id === undefined };
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
      const translations = cleanTranslations(
        `${field}.public_name_translations`,
        'Public name',
        p.public_name_translations,
        PUBLIC_NAME_MAX,
      );
      if (p.is_public && publicName) {
        const key = publicName.toLowerCase();
        if (publicNames.has(key)) throw invalid(`${field}.public_name`, `Two public monitors are named "${publicName}".`);
        publicNames.set(key, p.monitor_id);
      }
      placements.push({
        id: p.monitor_id,
        is_public: p.is_public,
        public_name: publicName,
        public_name_translations: translations === undefined ? monitorById.get(p.monitor_id)!.public_name_translations : translations,
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
      m.public_name_translations !== p.public_name_translations ||
      m.public_group_id !== p.public_group_id ||
      m.public_locations !== p.public_locations ||
      m.public_response_chart !== p.public_response_chart ||
      (m.public_position === null ? null : Number(m.public_position)) !== p.public_position
    );
  });
  // The layout and its audit row commit together.
  await withTransaction(ctx.services.db, async (tx) => {
    await statusPageSettingsRepo(tx).save(company.id, { groups: newGroups, monitors: changed }, ctx.services.now());
    // languages and zone live on the company row: its updated_at moves the page's fingerprint
    const languagesChanged =
      (languages.status_page_languages !== undefined && languages.status_page_languages !== company.status_page_languages) ||
      (languages.status_page_time_zone !== undefined && languages.status_page_time_zone !== company.status_page_time_zone);
    if (languagesChanged) await companiesRepo(tx).update(company.id, { ...languages, updated_at: ctx.services.now() });
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      {
        area: 'status_page',
        groups: newGroups.length,
        monitors_changed: changed.length,
        ...(languagesChanged
          ? {
              languages: languages.status_page_languages ?? company.status_page_languages,
              time_zone: languages.status_page_time_zone ?? company.status_page_time_zone,
            }
          : {}),
      },
      undefined,
      company.id,
    );
  });
  // This process shows the change at once; others see it by the page's fingerprint.
  if (company.subdomain) ctx.services.state.statusPageCache.invalidate(company.subdomain);
  return present(ctx, { ...company, ...languages });
}
