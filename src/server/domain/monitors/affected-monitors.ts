// The monitors an incident or a maintenance window is about, as a request names them: the list
// `monitor_ids`, or the single `monitor_id` older clients send.
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';

/**
 * The monitors an incident or window is about, from `monitor_ids` (or the older single
 * `monitor_id`), each one of the company's; none when the input names none.
 */
export async function affectedMonitors(
  ctx: Ctx,
  companyId: string,
  input: { monitor_id?: string | null; monitor_ids?: string[] },
): Promise<string[]> {
  const ids = input.monitor_ids ?? (input.monitor_id ? [input.monitor_id] : []);
  const unique = [...new Set(ids)];
  const repo = monitorsRepo(ctx.services.db);
  for (const id of unique)
    if (!(await repo.findById(id, companyId)))
      throw new DomainError('validation', 'Monitor not found', {
        fields: { monitor_ids: 'Monitor not found', monitor_id: 'Monitor not found' },
      });
  return unique;
}
