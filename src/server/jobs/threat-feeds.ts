// The operator's threat feeds (THREAT_FEEDS) imported hourly, one after another; feeds no longer
// configured are dropped. Nothing is fetched while ENABLE_THREAT_INTELLIGENCE is off.
import { HOUR_MS } from '../../lib/timeline.ts';
import { threatRepo } from '../db/repositories/threat-repo.ts';
import { flagOn } from '../domain/flags/flags.ts';
import { FeedError, importFeed } from '../security/threat/feed-import.ts';
import type { Job } from './job.ts';

export const threatFeeds: Job = {
  name: 'threat-feeds',
  periodMs: HOUR_MS,
  async run(services, now) {
    const { feeds, feedMaxBytes, feedTimeoutMs } = services.config.threat;
    if (!(await flagOn(services, 'ENABLE_THREAT_INTELLIGENCE'))) return undefined;
    const repo = threatRepo(services.db);
    await repo.dropFeedsExcept(feeds.map((f) => f.name));
    const lines: string[] = [];
    for (const feed of feeds) {
      try {
        const n = await importFeed(services.db, feed, { maxBytes: feedMaxBytes, timeoutMs: feedTimeoutMs }, now);
        lines.push(`${feed.name} ${n}`);
      } catch (e) {
        if (!(e instanceof FeedError)) throw e;
        await repo.feedFailed(feed.name, feed.url, feed.format, e.message, now);
        lines.push(`${feed.name} failed: ${e.message}`);
      }
    }
    return lines.length ? `threat feeds: ${lines.join('; ')}` : undefined;
  },
};
