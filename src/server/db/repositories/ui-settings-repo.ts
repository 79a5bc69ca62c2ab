// SQL for each user's console look and language. A user without a row has the spec's defaults.
import type { DbScope } from '../scope.ts';
import { uiSettingsOf, type UiSettings } from '../../../lib/ui-settings.ts';

export function uiSettingsRepo(db: DbScope) {
  const k = db.k;
  return {
    async get(userId: string): Promise<UiSettings> {
      const row = await k
        .selectFrom('ui_settings')
        .select(['theme', 'font', 'light_version', 'language'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return uiSettingsOf(row);
    },
    async put(userId: string, s: UiSettings, now: number): Promise<void> {
      const values = { theme: s.theme, font: s.font, light_version: s.light_version, language: s.language, updated_at: now };
      await k
        .insertInto('ui_settings')
        .values({ user_id: userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },
  };
}
