// The daily TLS analyses: each target once a day at its own minute (lib/daily-slot.ts), so a
// thousand targets spread over the day; a run takes at most RUN_LIMIT due targets, PARALLEL at
// a time, so one run fits in the job's period even when every probe hits its deadline.
import { dailyDue } from '../../../lib/daily-slot.ts';
import { securityFindingsRepo } from '../../db/repositories/security-findings-repo.ts';
import { tlsAnalysesRepo } from '../../db/repositories/tls-analyses-repo.ts';
import type { Services } from '../context.ts';
import { analyseTlsTarget } from './ssl-analysis.ts';
import { tlsTargets, type TlsTarget } from './ssl-targets.ts';

export const RUN_LIMIT = 32;
export const PARALLEL = 4;

/** When each target was last analysed (asset results and monitor analyses). */
async function lastAnalysed(services: Services): Promise<Map<string, number>> {
  const last = new Map<string, number>();
  for (const r of await securityFindingsRepo(services.db).listResults(null, 'ssl')) last.set(r.asset_id, Number(r.checked_at));
  for (const r of await tlsAnalysesRepo(services.db).list(null)) last.set(r.monitor_id, Number(r.checked_at));
  return last;
}

export async function dueTlsTargets(services: Services, now: number): Promise<TlsTarget[]> {
  const last = await lastAnalysed(services);
  return (await tlsTargets(services.db, null)).filter((t) => dailyDue(t.id, last.get(t.id) ?? null, now));
}

/** Analyses the targets due at `now` (at most RUN_LIMIT); answers how many were analysed. */
export async function runDueTlsAnalyses(services: Services, now: number): Promise<number> {
  const queue = (await dueTlsTargets(services, now)).slice(0, RUN_LIMIT);
  let done = 0;
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      try {
        await analyseTlsTarget(services, t);
        done++;
      } catch {
        // A target deleted mid-run (its row gone) or a database hiccup: the next run tries again.
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return done;
}
