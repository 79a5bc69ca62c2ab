// What status-page subscribers read about a component and an incident: the names the public page
// shows (lib/public-name.ts), never a monitor's internal name or the host it checks.
import { statusPageRepo } from '../../db/repositories/status-page-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import { monitorTarget, pageOrder, publicIncidentTitle } from '../../domain/status-page/view.ts';
import { publicNameOf } from '../../../lib/public-name.ts';

export type PublicComponent = { id: string; name: string };

/** The public component a monitor is on its company's page; 'private' when it is not shown there. */
export async function publicComponent(
  tx: DbScope,
  companyId: string,
  monitorId: string | null,
): Promise<PublicComponent | null | 'private'> {
  if (monitorId === null) return null;
  const repo = statusPageRepo(tx);
  const [monitors, groups] = await Promise.all([repo.publicMonitors(companyId), repo.publicGroups(companyId)]);
  const ordered = pageOrder(monitors, groups);
  const at = ordered.findIndex((m) => m.id === monitorId);
  if (at < 0) return 'private';
  const m = ordered[at]!;
  return { id: m.id, name: publicNameOf({ name: m.name, publicName: m.public_name, target: monitorTarget(m) }, at + 1) };
}

/** An incident's title as the public page shows it (the engine's 'X is down' names the public X). */
export function publicTitle(incident: Parameters<typeof publicIncidentTitle>[0], component: PublicComponent | null): string {
  return publicIncidentTitle(incident, component?.name);
}
