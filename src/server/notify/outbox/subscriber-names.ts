// What status-page subscribers read about components and an incident: the names the public page
// shows (lib/public-name.ts), never a monitor's internal name or the host it checks.
import { statusPageRepo } from '../../db/repositories/status-page-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import { monitorTarget, pageOrder, publicIncidentTitle } from '../../domain/status-page/view.ts';
import { publicNameOf } from '../../../lib/public-name.ts';
import { parseTranslations } from '../../../lib/i18n/company-text.ts';
import type { NoticeTranslations } from './subscriber-notice.ts';

export type PublicComponent = { id: string; name: string };
/** A component with the company's versions of its public name per language (issue 32) */
export type NamedComponent = PublicComponent & { nameTranslations: Record<string, string> };

/**
 * The public components among the monitors something is about, named as the page names them:
 * [] when it is about the whole company (no monitors), 'private' when none of them is shown.
 */
export async function publicComponents(
  tx: DbScope,
  companyId: string,
  monitorIds: readonly string[],
): Promise<NamedComponent[] | 'private'> {
  if (monitorIds.length === 0) return [];
  const repo = statusPageRepo(tx);
  const [monitors, groups] = await Promise.all([repo.publicMonitors(companyId), repo.publicGroups(companyId)]);
  const shown = pageOrder(monitors, groups).flatMap((m, i) =>
    monitorIds.includes(m.id)
      ? [
          {
            id: m.id,
            name: publicNameOf({ name: m.name, publicName: m.public_name, target: monitorTarget(m) }, i + 1),
            nameTranslations: parseTranslations(m.public_name_translations),
          },
        ]
      : [],
  );
  return shown.length > 0 ? shown : 'private';
}

/** An incident's title as the public page shows it (the engine's 'X is down' names the public X). */
export function publicTitle(incident: Parameters<typeof publicIncidentTitle>[0], components: PublicComponent[]): string {
  return publicIncidentTitle(incident, components[0]?.name);
}

/**
 * What a notice stores of components and of the company's texts per language: the components as
 * the page names them, and beside them every translation there is (none: no `translations`).
 */
export function noticeTexts(
  components: NamedComponent[],
  texts: { title?: string | null; message?: string | null },
): { components: PublicComponent[]; translations?: NoticeTranslations } {
  const out: NoticeTranslations = {};
  const title = parseTranslations(texts.title);
  const message = parseTranslations(texts.message);
  if (Object.keys(title).length) out.title = title;
  if (Object.keys(message).length) out.message = message;
  const named = components.filter((c) => Object.keys(c.nameTranslations).length > 0);
  if (named.length) out.components = Object.fromEntries(named.map((c) => [c.id, c.nameTranslations]));
  return {
    components: components.map((c) => ({ id: c.id, name: c.name })),
    ...(Object.keys(out).length ? { translations: out } : {}),
  };
}
