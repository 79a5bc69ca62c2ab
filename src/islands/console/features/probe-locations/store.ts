// Probe locations (issue 27): the list, one location's probes and tokens, and the verbs its
// managers have (create a location, mint a token shown once, revoke one, delete a location).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, refreshInto, serverOr } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type ProbeLocation = S['ProbeLocation'];
export type ProbeLocationDetail = S['ProbeLocationDetail'];
export type CreatedProbeToken = S['CreatedProbeToken'];

export type Outcome<T> = { ok: true; data: T } | { ok: false; text: string; fields: Record<string, string> };

export const $locations = atom<Load<ProbeLocation[]>>({ status: 'loading' });
/** The location whose probes and tokens are shown, or null */
export const $selectedId = atom<string | null>(null);
export const $detail = atom<Load<ProbeLocationDetail>>({ status: 'loading' });

export function loadLocations(): Promise<void> {
  return loadInto($locations, () => api.GET('/api/v1/probe-locations'), serverOr(t('probeLocations.load.list')));
}

export function loadDetail(id: string): Promise<void> {
  return loadInto(
    $detail,
    () => api.GET('/api/v1/probe-locations/{id}', { params: { path: { id } } }),
    serverOr(t('probeLocations.load.one')),
  );
}

/** The location again behind what is shown: a token shown once must not vanish with a reload. */
function refreshDetail(id: string): Promise<void> {
  return refreshInto(
    $detail,
    () => api.GET('/api/v1/probe-locations/{id}', { params: { path: { id } } }),
    () => $selectedId.get() === id,
  );
}

/** Shows a location; asked again for the one shown, reloads it behind the screen (a new probe appears, a token shown once stays). */
export function select(id: string | null): void {
  if (id !== null && id === $selectedId.get()) {
    void refreshDetail(id);
    // the list's probe counts too, so the two agree
    void refreshInto($locations, () => api.GET('/api/v1/probe-locations'));
    return;
  }
  $selectedId.set(id);
  if (id) void loadDetail(id);
}

async function outcome<T>(call: () => Promise<{ data?: T; error?: unknown }>, failed: string): Promise<Outcome<T>> {
  try {
    const { data, error } = await call();
    if (data !== undefined) return { ok: true, data };
    const fields = (error as { errors?: Record<string, string> } | undefined)?.errors ?? {};
    return { ok: false, text: errorText(error, failed), fields };
  } catch (e) {
    return { ok: false, text: errorText(e, failed), fields: {} };
  }
}

export async function createLocation(input: { name: string; slug: string; private: boolean }): Promise<Outcome<ProbeLocation>> {
  const r = await outcome(
    () => api.POST('/api/v1/probe-locations', { body: { name: input.name.trim(), slug: input.slug.trim(), private: input.private } }),
    t('probeLocations.fail.createLocation'),
  );
  if (r.ok) await loadLocations();
  return r;
}

export async function deleteLocation(id: string): Promise<Outcome<unknown>> {
  const r = await outcome(
    () => api.DELETE('/api/v1/probe-locations/{id}', { params: { path: { id } } }),
    t('probeLocations.fail.deleteLocation'),
  );
  if (r.ok && $selectedId.get() === id) $selectedId.set(null);
  await loadLocations();
  return r;
}

export async function createToken(locationId: string, name: string): Promise<Outcome<CreatedProbeToken>> {
  const r = await outcome(
    () => api.POST('/api/v1/probe-locations/{id}/tokens', { params: { path: { id: locationId } }, body: { name: name.trim() } }),
    t('probeLocations.fail.createToken'),
  );
  if (r.ok) await refreshDetail(locationId);
  return r;
}

export async function revokeToken(locationId: string, tokenId: string): Promise<Outcome<unknown>> {
  const r = await outcome(
    () => api.DELETE('/api/v1/probe-locations/{id}/tokens/{token_id}', { params: { path: { id: locationId, token_id: tokenId } } }),
    t('probeLocations.fail.revokeToken'),
  );
  await refreshDetail(locationId);
  return r;
}
