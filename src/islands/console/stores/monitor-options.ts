// The monitors a person picks from in the incident and maintenance filters and forms (id and name):
// one list shared by both screens, loaded for the chosen tenant; a failure is only logged.
import { atom } from 'nanostores';
import type { components } from '../../../api/schema.d.ts';
import { api } from '../api.ts';
import { dataOrLog } from './remote.ts';

export type MonitorOption = Pick<components['schemas']['Monitor'], 'id' | 'name'>;

export const $monitorOptions = atom<MonitorOption[]>([]);

export async function loadMonitorOptions(tenant: string | null): Promise<void> {
  const data = await dataOrLog(
    () => api.GET('/api/v1/monitors', { params: { query: { tenant: tenant ?? undefined, limit: 200 } } }),
    'Failed to load monitors for the incident form',
  );
  if (data) $monitorOptions.set(data.map((m) => ({ id: m.id, name: m.name })));
}
