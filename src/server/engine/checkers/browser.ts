// Browser journeys: the monitor's steps in a fresh context of this process's Chromium, after a
// turn in the browser queue (BROWSER_CONCURRENCY). The run's deadline is the monitor's time-out
// (at most BROWSER_MAX_TIMEOUT_SECONDS) less the time spent queued; the result names the failing
// step, carries each step's time (step_1..N) and the run (detail.run), with screenshots as PNGs
// for afterResult to keep and as data URLs for Test now.
import type { SyntheticRun } from '../kinds/synthetic-run.ts';
import { secretNames, stepTimingKey } from '../kinds/synthetic-run.ts';
import { runJourney } from './browser/journey.ts';
import { BrowserUnavailable, sharedBrowser } from './browser/launch.ts';
import { inBrowserQueue, QueueAbandoned } from './browser/queue.ts';
import { browserSettings } from './browser/settings.ts';
import type { BrowserStep } from './browser/steps.ts';
import { failed, type CheckEnv, type Checker, type CheckOutcome, type CheckTarget, type Timings } from './types.ts';

export interface BrowserConfig {
  steps: BrowserStep[];
  degraded_threshold_ms?: number | null;
}

/** Held back from the budget so the run ends (context closed) before the engine's own deadline. */
const CLOSE_MARGIN_MS = 500;

/** Only the company secrets the steps name are opened, for this run only. */
async function secretsOf(target: CheckTarget<BrowserConfig>, env: CheckEnv): Promise<Record<string, string>> {
  const names = [...new Set((target.config.steps ?? []).flatMap((s) => [...secretNames(s.url), ...secretNames(s.value)]))];
  return names.length && env.secrets ? await env.secrets(names) : {};
}

export const browserChecker: Checker<BrowserConfig> = async (target, env, signal) => {
  const settings = browserSettings();
  const steps = target.config.steps ?? [];
  const limitMs = Math.min(target.timeoutMs, settings.maxTimeoutSeconds * 1000);
  try {
    const secrets = await secretsOf(target, env);
    return await inBrowserQueue(target.id, settings.concurrency, signal, async (waitedMs) => {
      const budgetMs = Math.min(limitMs, target.timeoutMs - waitedMs) - CLOSE_MARGIN_MS;
      if (budgetMs < 1000) return failed(`Waited ${Math.round(waitedMs / 1000)} s for a browser slot; no time was left to run`);
      const browser = await sharedBrowser();
      const j = await runJourney(browser, steps, secrets, budgetMs, env, signal);
      const timings: Timings = { total: j.totalMs };
      for (const s of j.steps) if (s.duration_ms !== null) timings[stepTimingKey(s.index) as `step_${number}`] = s.duration_ms;
      const dataUrls = new Map(j.shots.map((s) => [s.index, `data:image/png;base64,${s.png.toString('base64')}`]));
      const run: SyntheticRun = {
        checked_at: new Date(env.now()).toISOString(),
        steps: j.steps.map((s) => ({ ...s, screenshot: dataUrls.get(s.index) ?? null })),
        web_vitals: j.webVitals,
        console_errors: j.consoleErrors,
        failed_requests: j.failedRequests,
      };
      const detail = { run, screenshots: j.shots };
      const outcome: CheckOutcome = {
        status: 'operational',
        responseTimeMs: j.totalMs,
        httpCode: null,
        error: null,
        timings,
        certExpiresAt: null,
        detail,
      };
      if (j.error) return { ...failed(j.error, timings), detail };
      const threshold = target.config.degraded_threshold_ms;
      if (threshold && j.totalMs > threshold)
        return { ...outcome, status: 'degraded', error: `Journey took ${Math.round(j.totalMs)} ms (threshold ${threshold} ms)` };
      return outcome;
    });
  } catch (e) {
    if (e instanceof QueueAbandoned)
      return failed(`Timed out after ${target.timeoutMs / 1000} s waiting for a browser slot (BROWSER_CONCURRENCY)`);
    if (e instanceof BrowserUnavailable) return failed(e.message);
    throw e;
  }
};
