// One run of a browser journey in a fresh context of the shared browser: the steps in order
// under one deadline, each request through the guard (guard.ts), a screenshot of the failing
// step and of `screenshot` steps, the last page's Web Vitals, console errors and failed requests.
// The context is closed in `finally`, whatever happened, so nothing of a run outlives it.
import type { Browser, Page } from 'playwright-core';
import { RE2JS } from 're2js';
import {
  expandTemplate,
  redactSecrets,
  type StepResult,
  type TemplateContext,
  TemplateError,
  type WebVitals,
} from '../../kinds/synthetic-run.ts';
import type { CheckEnv } from '../types.ts';
import { shownUrl, startGuardProxy, USER_AGENT, type GuardRecord } from './guard.ts';
import { stepName, type BrowserStep } from './steps.ts';
import { readVitals, VITALS_SCRIPT } from './vitals.ts';

/**
 * Actions wait this long (at most) for their element, and assertions retry this long for a page
 * still settling, then fail naming what they looked for; wait_for_* steps wait up to the deadline.
 */
const STEP_WAIT_MS = 5_000;
/** Kept for the failing step's screenshot after the steps' deadline. */
const SHOT_RESERVE_MS = 1_500;
/** A screenshot larger than this is dropped (a viewport PNG is ~50-300 KB). */
export const MAX_SCREENSHOT_BYTES = 1536 * 1024;
const MAX_CONSOLE = 20;
const MAX_TEXT = 500;
export const VIEWPORT = { width: 1280, height: 800 };

export interface Shot {
  index: number;
  png: Buffer;
}

export interface JourneyResult {
  steps: StepResult[];
  shots: Shot[];
  webVitals: WebVitals | null;
  consoleErrors: string[];
  failedRequests: Array<{ url: string; error: string }>;
  /** "Step 3 (Add to cart): …", null when every step passed */
  error: string | null;
  /** The run stopped at its deadline */
  timedOut: boolean;
  totalMs: number;
}

class StepFailure extends Error {}

const ms = (n: number) => Math.round(n * 10) / 10;
const seconds = (n: number) => `${Math.round(n / 100) / 10} s`;
const quoted = (s: string) => `"${s.length > 80 ? `${s.slice(0, 80)}…` : s}"`;

/** `/…/` is an RE2 expression (linear time, see http-assertions.ts), anything else a substring. */
function textMatches(actual: string, expected: string): boolean {
  const m = /^\/(.+)\/$/s.exec(expected);
  if (!m) return actual.includes(expected);
  try {
    return RE2JS.compile(m[1])
      .matcher(actual.slice(0, 128 * 1024))
      .find();
  } catch {
    return false;
  }
}

export async function runJourney(
  browser: Browser,
  steps: readonly BrowserStep[],
  secrets: Readonly<Record<string, string>>,
  budgetMs: number,
  env: CheckEnv,
  signal: AbortSignal,
): Promise<JourneyResult> {
  const started = performance.now();
  const reserveMs = Math.min(SHOT_RESERVE_MS, budgetMs * 0.15);
  const stepsDeadline = started + budgetMs - reserveMs;
  const remaining = () => Math.max(1, Math.round(stepsDeadline - performance.now()));
  const expired = () => signal.aborted || performance.now() >= stepsDeadline - 5;
  const redact = (s: string) => redactSecrets(s, secrets);
  const runAbort = new AbortController();
  const onAbort = () => runAbort.abort();
  signal.addEventListener('abort', onAbort, { once: true });

  const records: GuardRecord[] = [];
  const consoleErrors: string[] = [];
  const noteConsole = (text: string) => {
    if (consoleErrors.length < MAX_CONSOLE) consoleErrors.push(redact(text).slice(0, MAX_TEXT));
  };
  const results: StepResult[] = steps.map((s, i) => ({
    index: i + 1,
    name: redact(stepName(s)).slice(0, 200),
    status: 'skipped',
    duration_ms: null,
    error: null,
    screenshot_id: null,
  }));
  const shots: Shot[] = [];
  let error: string | null = null;
  let timedOut = false;
  let interacted = false;
  let webVitals: WebVitals | null = null;

  const proxy = await startGuardProxy(env, runAbort.signal, records);
  const context = await browser.newContext({
    // The run's own guard proxy (guard.ts); Playwright adds <-loopback> so loopback goes through it too.
    proxy: { server: proxy.server },
    acceptDownloads: false,
    permissions: [],
    serviceWorkers: 'block',
    viewport: VIEWPORT,
    userAgent: USER_AGENT,
    locale: 'en-US',
    timezoneId: 'UTC',
    javaScriptEnabled: true,
    ignoreHTTPSErrors: false,
  });
  try {
    await context.addInitScript({ content: VITALS_SCRIPT });
    const page = await context.newPage();
    // A journey has one tab: pages it opens (window.open, target=_blank) are closed at once.
    context.on('page', (p) => {
      if (p !== page) void p.close().catch(() => {});
    });
    page.on('console', (m) => {
      // Chromium's own "Failed to load resource" lines repeat the failed requests listed apart.
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource:')) noteConsole(m.text());
    });
    page.on('pageerror', (e) => noteConsole(`Uncaught ${e.name}: ${e.message}`));
    // A refused request is listed once, as refused (the guard's own 403 or closed tunnel is not news).
    const refusedOrigin = (url: string) => records.some((x) => x.refused && sameOrigin(x.url, url));
    page.on('response', (r) => {
      if (r.status() >= 400 && !refusedOrigin(r.url())) records.push({ url: r.url(), error: `HTTP ${r.status()}`, refused: false });
    });
    page.on('requestfailed', (r) => {
      const why = r.failure()?.errorText ?? 'failed';
      if (!refusedOrigin(r.url()) && !/ERR_ABORTED/.test(why))
        records.push({ url: r.url(), error: `failed (${why.replace(/^net::/, '')})`, refused: false });
    });

    // Run now shows each step as it ends (CheckEnv.onStep), with its screenshot when it has one.
    const told = (r: StepResult) => {
      // the engine's runs are not streamed: no screenshot is encoded for nobody
      if (!env.onStep) return;
      const shot = shots.find((x) => x.index === r.index);
      env.onStep?.({ ...r, screenshot: shot ? `data:image/png;base64,${shot.png.toString('base64')}` : null });
    };
    const shoot = async (index: number, until: number) => {
      const png = await page
        .screenshot({
          type: 'png',
          fullPage: false,
          animations: 'disabled',
          caret: 'hide',
          timeout: Math.max(200, Math.round(until - performance.now())),
        })
        .catch(() => null);
      if (png && png.length <= MAX_SCREENSHOT_BYTES) shots.push({ index, png });
    };

    for (const [i, step] of steps.entries()) {
      const r = results[i];
      const t0 = performance.now();
      const seenBefore = records.length;
      try {
        if (expired()) throw deadlineReached();
        await runStep(page, step, secrets, remaining, () => {
          interacted = true;
        });
        // A step done only after the limit did not pass within it: on a loaded machine the run's
        // abort (which ends the page's hanging requests) can let a navigation finish just before
        // its own time-out fires, and the next step would take the blame.
        if (expired()) throw deadlineReached();
        const refused = records.slice(seenBefore).find((x) => x.refused);
        if (refused) throw new StepFailure(`${shownUrl(refused.url)} was ${refused.error}`);
        const scheme = /^([a-z-]+):/i.exec(page.url())?.[1]?.toLowerCase();
        if (scheme && !['http', 'https', 'about'].includes(scheme)) throw new StepFailure(`the page went to a ${scheme}: address`);
        r.status = 'passed';
        r.duration_ms = ms(performance.now() - t0);
        if (step.action === 'screenshot') await shoot(r.index, performance.now() + 3000);
        told(r);
      } catch (e) {
        r.status = 'failed';
        r.duration_ms = ms(performance.now() - t0);
        timedOut = expired() || (isTimeout(e) && remaining() <= 5);
        const refused = records.slice(seenBefore).find((x) => x.refused);
        const why = refused
          ? `${shownUrl(refused.url)} was ${refused.error}`
          : timedOut
            ? `timed out at step ${r.index} (the run's limit is ${seconds(budgetMs)})`
            : describe(e, step, secrets, remaining);
        r.error = redact(why).slice(0, MAX_TEXT);
        error = redact(`Step ${r.index} (${r.name}): ${why}`).slice(0, MAX_TEXT);
        if (!signal.aborted) await shoot(r.index, Math.min(stepsDeadline + reserveMs - 100, performance.now() + 3000));
        told(r);
        break;
      }
    }
    // up to 3 s for the last page to report its paint, within what is left of the run (steps and reserve)
    const vitalsMs = timedOut ? 300 : Math.max(300, Math.min(3000, Math.round(stepsDeadline + reserveMs - 200 - performance.now())));
    if (!signal.aborted) webVitals = await readVitals(page, interacted, vitalsMs);
  } finally {
    runAbort.abort();
    signal.removeEventListener('abort', onAbort);
    await context.close().catch(() => {});
    proxy.close();
  }
  const failedRequests = records.slice(0, 20).map((x) => ({ url: redact(shownUrl(x.url)).slice(0, MAX_TEXT), error: redact(x.error) }));
  return { steps: results, shots, webVitals, consoleErrors, failedRequests, error, timedOut, totalMs: ms(performance.now() - started) };
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).host === new URL(b).host;
  } catch {
    return false;
  }
}

function fill(text: string | null | undefined, secrets: Readonly<Record<string, string>>, context?: TemplateContext): string {
  return expandTemplate(text ?? '', {}, secrets, context);
}

async function runStep(
  page: Page,
  step: BrowserStep,
  secrets: Readonly<Record<string, string>>,
  remaining: () => number,
  interacted: () => void,
): Promise<void> {
  const sel = step.selector ?? '';
  const el = () => page.locator(sel).first();
  const wait = () => Math.min(STEP_WAIT_MS, remaining());
  switch (step.action) {
    case 'goto': {
      const res = await page.goto(fill(step.url, secrets, 'url'), { timeout: remaining(), waitUntil: 'load' });
      if (res && res.status() >= 400) throw new StepFailure(`the page answered HTTP ${res.status()}`);
      return;
    }
    case 'click':
      interacted();
      return el().click({ timeout: wait() });
    case 'fill':
      interacted();
      return el().fill(fill(step.value, secrets), { timeout: wait() });
    case 'select':
      interacted();
      await el().selectOption(fill(step.value, secrets), { timeout: wait() });
      return;
    case 'press':
      interacted();
      return step.selector ? el().press(step.value ?? '', { timeout: wait() }) : page.keyboard.press(step.value ?? '');
    case 'wait_for_text':
      return page.getByText(fill(step.value, secrets)).first().waitFor({ state: 'visible', timeout: remaining() });
    case 'wait_for_selector':
      return el().waitFor({ state: 'visible', timeout: remaining() });
    case 'assert_text': {
      const expected = fill(step.value, secrets);
      const read = async () =>
        step.selector
          ? ((await el()
              .textContent({ timeout: 1000 })
              .catch(() => null)) ?? '')
          : // The page's rendered text (what a visitor reads), not the markup's text nodes (scripts, hidden parts).
            // biome-ignore lint/performance/useDomNodeTextContent: Playwright's page.innerText, not a DOM node's
            await page.innerText('body').catch(() => '');
      return settle(
        page,
        remaining,
        read,
        (t) => textMatches(t, expected),
        (t) =>
          step.selector
            ? `text of ${step.selector} does not contain ${quoted(expected)}: got ${quoted(t.trim())}`
            : `the page does not contain ${quoted(expected)}`,
      );
    }
    case 'assert_url': {
      const expected = fill(step.value, secrets);
      return settle(
        page,
        remaining,
        async () => page.url(),
        (u) => textMatches(u, expected),
        (u) => `URL does not match ${quoted(expected)}: got ${quoted(shownUrl(u))}`,
      );
    }
    case 'assert_title': {
      const expected = fill(step.value, secrets);
      return settle(
        page,
        remaining,
        () => page.title().catch(() => ''),
        (t) => textMatches(t, expected),
        (t) => `title does not match ${quoted(expected)}: got ${quoted(t)}`,
      );
    }
    case 'assert_count': {
      const want = step.count ?? 0;
      return settle(
        page,
        remaining,
        () => page.locator(sel).count(),
        (n) => n === want,
        (n) => `${sel} matches ${n} elements, expected ${want}`,
      );
    }
    case 'screenshot':
      return;
  }
}

/** Reads until `ok` holds or the assertion's wait ends; then fails with what it read last. */
async function settle<T>(
  page: Page,
  remaining: () => number,
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  why: (v: T) => string,
): Promise<void> {
  const until = performance.now() + Math.min(STEP_WAIT_MS, remaining());
  for (;;) {
    const v = await read();
    if (ok(v)) return;
    if (performance.now() + 100 >= until) throw new StepFailure(why(v));
    // Polling the page while it settles (not a test's sleep): the run's deadline bounds it.
    await page.waitForTimeout(100);
  }
}

/**
 * Playwright's TimeoutError, told by its name: Playwright itself is imported only when the first
 * browser check launches Chromium (launch.ts).
 */
function isTimeout(e: unknown): boolean {
  return e instanceof Error && e.name === 'TimeoutError';
}

function deadlineReached(): Error {
  const e = new Error('deadline');
  e.name = 'TimeoutError';
  return e;
}

/** A step's failure in our words: Playwright's own messages carry call logs and the page's markup. */
function describe(e: unknown, step: BrowserStep, secrets: Readonly<Record<string, string>>, remaining: () => number): string {
  if (e instanceof StepFailure || e instanceof TemplateError) return e.message;
  const msg = e instanceof Error ? e.message : String(e);
  if (isTimeout(e)) {
    if (step.action === 'goto') return `the page did not finish loading`;
    if (step.action === 'wait_for_text') return `text ${quoted(fill(step.value, secrets))} did not appear`;
    return `no visible element matches ${step.selector ?? ''}`;
  }
  const net = /net::(ERR_[A-Z_]+)/.exec(msg);
  if (net) return `the page could not be loaded (${net[1]})`;
  if (/did not find some options/i.test(msg)) return `${step.selector} has no option ${quoted(step.value ?? '')}`;
  if (/Unknown key/i.test(msg)) return `${quoted(step.value ?? '')} is not a key name`;
  if (/(not a valid selector|Unexpected token|selector)/i.test(msg) && remaining() > 5)
    return `${step.selector ?? ''} is not a valid selector`;
  if (/not an? (input|<select>|select)|Element is not/i.test(msg)) return `${step.selector ?? ''} cannot take this action (${step.action})`;
  return 'the step could not be completed';
}
