// Status page settings (issue 13 item 6): the saved layout, the one being edited, and Save,
// which sends the whole layout at once (the server saves it in one transaction).
import { atom } from 'nanostores';
import { api, errorText } from '../../api.ts';
import { serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import { t } from '../../i18n.ts';
import { inputOf, layoutOf, layoutProblem, type Layout, type Settings } from './layout.ts';

export const $settings = atom<Load<Settings>>({ status: 'loading' });
/** The layout on screen; equal to the saved one until edited */
export const $draft = atom<Layout | null>(null);
export const $statusPageAlert = atom<Alert | null>(null);
export const $saving = atom(false);

// read when it fails, so the message is in the language of that moment
const failedLoad = (e: unknown) => serverOr(t('statusPage.store.settingsLoadFailed'))(e);

function show(s: Settings): void {
  $settings.set({ status: 'ready', data: s });
  $draft.set(layoutOf(s));
}

export async function loadSettings(tenant: string | null): Promise<void> {
  $settings.set({ status: 'loading' });
  $draft.set(null);
  try {
    const { data, error, response } = await api.GET('/api/v1/status-page/settings', { params: { query: { tenant: tenant ?? undefined } } });
    if (data) show(data);
    else $settings.set({ status: 'error', message: failedLoad(error), httpStatus: response?.status });
  } catch (e) {
    $settings.set({ status: 'error', message: failedLoad(e) });
  }
}

/** Whether the layout on screen differs from the saved one. */
export function isDirty(draft: Layout | null, saved: Load<Settings>): boolean {
  if (!draft || saved.status !== 'ready') return false;
  return JSON.stringify(inputOf(draft)) !== JSON.stringify(inputOf(layoutOf(saved.data)));
}

export function discardChanges(): void {
  const s = $settings.get();
  if (s.status === 'ready') $draft.set(layoutOf(s.data));
  $statusPageAlert.set(null);
}

export async function saveLayout(tenant: string | null): Promise<void> {
  const draft = $draft.get();
  if (!draft) return;
  const problem = layoutProblem(draft);
  if (problem) {
    $statusPageAlert.set({ ok: false, text: problem });
    return;
  }
  $saving.set(true);
  try {
    const { data, error } = await api.PUT('/api/v1/status-page/settings', {
      params: { query: { tenant: tenant ?? undefined } },
      body: inputOf(draft),
    });
    if (data) {
      show(data);
      $statusPageAlert.set({ ok: true, text: t('statusPage.store.saved') });
    } else $statusPageAlert.set({ ok: false, text: errorText(error, t('statusPage.store.saveFailed')) });
  } catch (e) {
    $statusPageAlert.set({ ok: false, text: errorText(e, t('statusPage.store.saveFailed')) });
  } finally {
    $saving.set(false);
  }
}
