// The queue in front of the browser (BROWSER_CONCURRENCY runs at once per process): engine checks
// and the console's Test now wait their turn here, so a burst of due journeys never starts more
// Chromium renderers than the box bears. Its depth and each run's wait are the operator's metrics
// (metrics/platform.ts reads `browserQueueStats`).

export interface QueueStats {
  /** Runs waiting for a slot now */
  waiting: number;
  /** Runs holding a slot now */
  running: number;
  /** Seconds each finished wait lasted, since the last read (the metrics drain them) */
  waits: number[];
}

/** What a run did in the queue, in order (tests read overlap from it; never timing). */
export interface QueueEvent {
  id: string;
  event: 'queued' | 'started' | 'finished';
}

const stats: QueueStats = { waiting: 0, running: 0, waits: [] };
const waiters: Array<() => void> = [];
const journal: QueueEvent[] = [];
const JOURNAL_MAX = 200;

export function browserQueueStats(): QueueStats {
  return stats;
}

export function queueJournal(): readonly QueueEvent[] {
  return journal;
}

function record(id: string, event: QueueEvent['event']): void {
  journal.push({ id, event });
  if (journal.length > JOURNAL_MAX) journal.splice(0, journal.length - JOURNAL_MAX);
}

export class QueueAbandoned extends Error {}

/**
 * Runs `work` once a slot is free (at most `limit` at once), answering how long it waited.
 * A signal that aborts while waiting leaves the queue without running it.
 */
export async function inBrowserQueue<T>(
  id: string,
  limit: number,
  signal: AbortSignal,
  work: (waitedMs: number) => Promise<T>,
): Promise<T> {
  const queuedAt = performance.now();
  record(id, 'queued');
  if (stats.running < limit) stats.running++;
  else {
    // The slot is handed over by the run that frees it (`running` stays counted), so a run
    // arriving meanwhile cannot take it too.
    stats.waiting++;
    try {
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          const i = waiters.indexOf(go);
          if (i >= 0) waiters.splice(i, 1);
          reject(new QueueAbandoned('timed out waiting for a browser slot'));
        };
        if (signal.aborted) return leave();
        signal.addEventListener('abort', leave, { once: true });
        waiters.push(go);
      });
    } finally {
      stats.waiting--;
    }
  }
  const waitedMs = performance.now() - queuedAt;
  stats.waits.push(waitedMs / 1000);
  if (stats.waits.length > 1000) stats.waits.splice(0, stats.waits.length - 1000);
  record(id, 'started');
  try {
    return await work(waitedMs);
  } finally {
    record(id, 'finished');
    const next = waiters.shift();
    if (next) next();
    else stats.running--;
  }
}
