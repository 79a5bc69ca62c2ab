// The probe locations a monitor or a company's default set may name (issue 27): one list shared
// by the monitor dialog and the company settings, loaded once; a failure is only logged (the
// pickers then offer the built-in engine alone).
import { atom } from 'nanostores';
import type { components } from '../../../api/schema.d.ts';
import { api } from '../api.ts';
import { dataOrLog } from './remote.ts';

export type LocationOption = Pick<components['schemas']['ProbeLocation'], 'slug' | 'name' | 'private' | 'company'>;

export const $locationOptions = atom<LocationOption[]>([]);

export async function loadLocationOptions(): Promise<void> {
  const data = await dataOrLog(() => api.GET('/api/v1/probe-locations'), 'Failed to load probe locations for the location picker');
  if (data) $locationOptions.set(data.map((l) => ({ slug: l.slug, name: l.name, private: l.private, company: l.company })));
}

/**
 * What one company's monitors may name: the public locations and its own private ones (a super
 * admin's list holds every company's private locations; `companyId` picks one company's).
 */
export function locationsOf(all: LocationOption[], companyId: string | null): LocationOption[] {
  return all.filter((l) => !l.private || companyId === null || l.company?.id === companyId);
}
