// PostgreSQL's day partitions (migration 0410): hourly, and at start so a fresh database has its
// days, every partitioned table gets today and the week ahead (rows that waited in the DEFAULT
// partition move into their new day) and drops the days past the longest retention of any
// company's plan, and the past days compaction emptied. Nothing on SQLite.
import { HOUR_MS } from '../../lib/timeline.ts';
import { dropEmptiedDays, dropExpiredDays, ensureComingDays } from '../db/day-partitions.ts';
import type { Job } from './job.ts';

export const dayPartitions: Job = {
  name: 'day-partitions',
  periodMs: HOUR_MS,
  async run(services, now) {
    const { created, moved } = await ensureComingDays(services.db, now);
    const dropped = await dropExpiredDays(services.db, now);
    const emptied = await dropEmptiedDays(services.db, now);
    const done: string[] = [];
    if (created) done.push(`created ${created} day partitions${moved ? `, moving ${moved} rows out of the default partitions` : ''}`);
    if (dropped) done.push(`dropped ${dropped} day partitions past retention`);
    if (emptied) done.push(`dropped ${emptied} past days of results emptied by compaction`);
    return done.length ? done.join('; ') : undefined;
  },
};
