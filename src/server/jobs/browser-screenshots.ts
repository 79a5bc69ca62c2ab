// Browser checks' screenshots past BROWSER_SCREENSHOT_DAYS are deleted, then each company's
// oldest past its plan's screenshot bytes (src/lib/plans.ts).
import { HOUR_MS } from '../../lib/timeline.ts';
import { pruneScreenshots } from '../domain/monitors/screenshots.ts';
import type { Job } from './job.ts';

export const browserScreenshots: Job = {
  name: 'browser-screenshots',
  periodMs: HOUR_MS,
  async run(services, now) {
    const { byAge, byBudget } = await pruneScreenshots(services, now, services.config.browser.screenshotDays);
    if (byAge + byBudget === 0) return undefined;
    return `pruned ${byAge} screenshots past their days and ${byBudget} past their company's budget`;
  },
};
