// Monitors' small numbers (monitors.num, migration 0114), which key the rollup and chunk rows.
import type { DbScope } from '../scope.ts';

/** id → number of the monitors among `ids` that exist (a deleted monitor is simply absent). */
export async function monitorNumbers({ k }: DbScope, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await k.selectFrom('monitors').select(['id', 'num']).where('id', 'in', ids).execute();
  return new Map(rows.map((m) => [m.id, Number(m.num)]));
}
