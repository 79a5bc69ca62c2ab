// The signed-in user's console look: theme, font and light version. Personal, so every
// signed-in user reads and changes only their own; the body is validated against the OpenAPI
// enums before it gets here, and a partial body keeps the omitted fields.
import type { Ctx, Services } from '../context.ts';
import { requireActor } from '../authz.ts';
import { uiSettingsRepo } from '../../db/repositories/ui-settings-repo.ts';
import { uiSettingsOf, type UiSettings } from '../../../lib/ui-settings.ts';

export async function getUiSettings(ctx: Ctx): Promise<UiSettings> {
  const actor = requireActor(ctx);
  return uiSettingsRepo(ctx.services.db).get(actor.userId);
}

export async function updateUiSettings(ctx: Ctx, input: Partial<UiSettings>): Promise<UiSettings> {
  const actor = requireActor(ctx);
  const repo = uiSettingsRepo(ctx.services.db);
  const current = await repo.get(actor.userId);
  const next = uiSettingsOf({ ...current, ...input });
  await repo.put(actor.userId, next, ctx.services.now());
  return next;
}

/** For the console page's first paint (no request of its own): the user's look, or the defaults. */
export function uiSettingsForPage(services: Services, userId: string): Promise<UiSettings> {
  return uiSettingsRepo(services.db).get(userId);
}
