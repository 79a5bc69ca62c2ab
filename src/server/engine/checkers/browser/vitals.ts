// Core Web Vitals of the journey's last page, measured by the page's own PerformanceObserver
// (an init script added before any page script): LCP, CLS, Total Blocking Time from long tasks
// and INP from event timings once the journey clicked or typed. A page may overwrite the record;
// it only spoils its own figures.
import type { Page } from 'playwright-core';
import type { WebVitals } from '../../kinds/synthetic-run.ts';

const KEY = '__statuswatchVitals';

export const VITALS_SCRIPT = `(() => {
  const v = { lcp: null, cls: 0, tbt: 0, inp: null };
  Object.defineProperty(window, '${KEY}', { value: v, enumerable: false });
  const observe = (type, fn, extra) => {
    try { new PerformanceObserver((list) => list.getEntries().forEach(fn)).observe({ type, buffered: true, ...extra }); } catch {}
  };
  observe('largest-contentful-paint', (e) => { v.lcp = e.startTime; });
  observe('layout-shift', (e) => { if (!e.hadRecentInput) v.cls += e.value; });
  observe('longtask', (e) => { v.tbt += Math.max(0, e.duration - 50); });
  observe('event', (e) => { if (e.interactionId) v.inp = Math.max(v.inp ?? 0, e.duration); }, { durationThreshold: 16 });
})();`;

const num = (x: unknown, digits: number): number | null =>
  typeof x === 'number' && Number.isFinite(x) && x >= 0 ? Math.round(x * 10 ** digits) / 10 ** digits : null;

/** The figures of the page now (null when it is gone or never painted). */
export async function readVitals(page: Page, interacted: boolean, waitMs: number): Promise<WebVitals | null> {
  // A page still committing its navigation has no context to evaluate in: evaluate would wait for one.
  let timer: NodeJS.Timeout | undefined;
  // The last page's LCP entry comes after its first paint, which a loaded machine may not have
  // made yet when the last step ends: the page is given until `waitMs` to report it.
  const raw = await Promise.race([
    page
      .evaluate(
        async ({ key, waitMs }) => {
          const v = (window as unknown as Record<string, { lcp: number | null } | undefined>)[key];
          const until = performance.now() + waitMs;
          while (v && v.lcp === null && performance.now() < until) await new Promise((r) => setTimeout(r, 25));
          return v ?? null;
        },
        { key: KEY, waitMs: Math.max(0, waitMs - 200) },
      )
      .catch(() => null),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
    }),
  ]);
  clearTimeout(timer);
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  return {
    lcp_ms: num(r.lcp, 1),
    cls: num(r.cls, 4),
    tbt_ms: num(r.tbt, 1),
    // No interaction, no INP; interactions under 16 ms record no entry (null: none slow enough to time).
    inp_ms: interacted ? num(r.inp, 1) : null,
  };
}
