// What status-page subscribers read about components and an incident: the names the public page
// shows (lib/public-name.ts), never a monitor's internal name or the host it checks.
import { statusPageRepo } from '../../db/repositories/status-page-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import { monitorTarget, pageOrder, publicIncidentTitle } from '../../domain/status-page/view.ts';
import { publicNameOf } from '../../../lib/public-name.ts';

export type PublicComponent = { id: string; name: string };

/**
 * The public components among the monitors something is about, named as the page names them:
 * [] when it is about the whole company (no monitors), 'private' when none of them is shown.
 */
export async function publicComponents(
  tx: DbScope,
  companyId: string,
  monitorIds: readonly string[],
): Promise<PublicComponent[] | 'private'> {
  if (monitorIds.length === 0) return [];
  const repo = statusPageRepo(tx);
  const [monitors, groups] = await Promise.all([repo.publicMonitors(companyId), repo.publicGroups(companyId)]);
  const shown = pageOrder(monitors, groups).flatMap((m, i) =>
    monitorIds.includes(m.id)
      ? [{ id: m.id, name: publicNameOf({ name: m.name, publicName: m.public_name, target: monitorTarget(m) }, i + 1) }]
      : [],
  );
  return shown.length > 0 ? shown : 'private';
}

/** An incident's title as the public page shows it (the engine's 'X is down' names the public X). */
export function publicTitle(incident: Parameters<typeof publicIncidentTitle>[0], components: PublicComponent[]): string {
  return publicIncidentTitle(incident, components[0]?.name);
}
