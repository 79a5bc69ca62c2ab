// Anomaly watching, one run (issue 33, item 2; the anomaly-watch job calls it): for every active
// company, what is anomalous now (latency.ts, divergence.ts) against the episodes it has open.
// A new finding opens an episode and sends one `anomaly` notification with its evidence; a
// finding still there keeps its episode's evidence current and sends nothing; an open episode no
// longer found is resolved and says so once. Each step is one transaction with its notification
// (notify.ts), and at most one episode is open per subject (migration 0133's unique index), so a
// retried or doubled run sends nothing twice.
import { HOUR_MS, SENSITIVITY_OPTIONS, type Sensitivity } from '../../../lib/latency-anomaly.ts';
import { DIVERGENCE_OPTIONS } from '../../../lib/traffic-divergence.ts';
import { anomaliesRepo, type AnomalyEpisodeRow } from '../../db/repositories/anomalies-repo.ts';
import type { AnomalyKind } from '../../db/schema/anomalies.ts';
import { withTransaction } from '../../db/scope.ts';
import { notifyIn, type NotificationDraft } from '../../notify/notify.ts';
import type { Services } from '../context.ts';
import { newId } from '../ids.ts';
import { divergenceFindings } from './divergence.ts';
import { endedTitle, type Finding } from './finding.ts';
import { latencyFindings } from './latency.ts';
import { levelOf } from './settings.ts';

/**
 * Latency is judged per completed hour, so it is read in the first quarter of each hour only
 * (three runs of the job: one missed run is made up by the next), not every 5 minutes: reading
 * four weeks of hourly rollups per series is the costly part. A later hour's run finds what a
 * skipped one would have (the detector looks back two days).
 */
const LATENCY_SLOT_MS = 15 * 60_000;

export interface WatchCounts {
  opened: number;
  resolved: number;
}

function openedDraft(episodeId: string, f: Finding): NotificationDraft {
  return {
    type: 'anomaly',
    severity: f.severity,
    title: f.title,
    message: f.evidence.map((e) => e.summary).join(' '),
    details: null,
    metadata: { event: 'opened', episode_id: episodeId, kind: f.kind, subject: f.subject, monitor_id: f.monitorId, evidence: f.evidence },
    actionUrl: f.href,
    dedupeKey: `anomaly:${episodeId}:opened`,
  };
}

function resolvedDraft(row: AnomalyEpisodeRow): NotificationDraft {
  const evidence = JSON.parse(row.evidence) as Finding['evidence'];
  const title = endedTitle(row.kind, row.title);
  return {
    type: 'anomaly',
    severity: 'info',
    title,
    message: `${title}. What was seen: ${evidence.map((e) => e.summary).join(' ')}`,
    details: null,
    metadata: { event: 'resolved', episode_id: row.id, kind: row.kind, subject: row.subject, monitor_id: row.monitor_id, evidence },
    // The monitor's page, or for an endpoint where the evidence points (API intelligence).
    actionUrl: row.monitor_id ? `/monitors/${row.monitor_id}` : (evidence[0]?.source.href ?? '/api-intelligence'),
    dedupeKey: `anomaly:${row.id}:resolved`,
  };
}

/** Opens, keeps and resolves one company's episodes of one kind against what was found now. */
async function keepEpisodes(services: Services, companyId: string, kind: AnomalyKind, found: Finding[], now: number): Promise<WatchCounts> {
  const counts = { opened: 0, resolved: 0 };
  const open = new Map((await anomaliesRepo(services.db).openEpisodes(companyId, kind)).map((r) => [r.subject, r]));
  for (const f of found) {
    const row = open.get(f.subject);
    open.delete(f.subject);
    if (row) {
      await anomaliesRepo(services.db).update(row.id, companyId, JSON.stringify(f.evidence), now);
      continue;
    }
    const id = newId();
    await withTransaction(services.db, async (tx) => {
      const opened = await anomaliesRepo(tx).open({
        id,
        company_id: companyId,
        kind,
        subject: f.subject,
        monitor_id: f.monitorId,
        title: f.what.slice(0, 300),
        started_at: f.startedAt,
        resolved_at: null,
        evidence: JSON.stringify(f.evidence),
        updated_at: now,
      });
      if (!opened) return;
      await notifyIn(tx, now)(companyId, openedDraft(id, f));
      counts.opened += 1;
    });
  }
  for (const row of open.values()) {
    await withTransaction(services.db, async (tx) => {
      if (!(await anomaliesRepo(tx).resolve(row.id, companyId, now, now))) return;
      await notifyIn(tx, now)(companyId, resolvedDraft(row));
      counts.resolved += 1;
    });
  }
  return counts;
}

/** One run over every active company at `now`; the caller checks ENABLE_ADVANCED_ANALYTICS. */
export async function watchAnomalies(services: Services, now: number): Promise<WatchCounts> {
  const total = { opened: 0, resolved: 0 };
  const add = (c: WatchCounts) => {
    total.opened += c.opened;
    total.resolved += c.resolved;
  };
  for (const company of await anomaliesRepo(services.db).companies()) {
    const latency = levelOf(company.latency);
    const divergence = levelOf(company.divergence);
    if (now % HOUR_MS < LATENCY_SLOT_MS) {
      const found =
        latency === 'off' ? [] : await latencyFindings(services.db, company.id, now, SENSITIVITY_OPTIONS[latency as Sensitivity]);
      add(await keepEpisodes(services, company.id, 'latency', found, now));
    }
    const divergenceFound =
      divergence === 'off' ? [] : await divergenceFindings(services.db, company.id, now, DIVERGENCE_OPTIONS[divergence as Sensitivity]);
    add(await keepEpisodes(services, company.id, 'divergence', divergenceFound, now));
  }
  return total;
}
