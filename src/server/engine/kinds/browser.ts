// Browser journeys: declarative steps (go to, click, fill, assert, screenshot, …) run in a fresh
// context of the process's Chromium (checkers/browser.ts). Each step's fields are validated here
// with the step named; the first step opens a page, whose host is the monitor's target (the
// literal-address check and the destination budget judge it). The run is kept as the monitor's
// last_answers (its screenshots in check_screenshots) and shown as `last_run`.
import { BROWSER_ACTIONS, BROWSER_FIELDS, BROWSER_MAX_STEPS } from '../../../lib/monitor-kinds.ts';
import { hasControlCharacters } from '../../../lib/plain-text.ts';
import { normalizeTargetHost } from '../../../lib/target-host.ts';
import { browserChecker, type BrowserConfig } from '../checkers/browser.ts';
import { browserSettings } from '../checkers/browser/settings.ts';
import { NEEDS, type BrowserStep } from '../checkers/browser/steps.ts';
import type { Kind } from './kind.ts';
import { keptRun, runStateView, variableNames } from './synthetic-run.ts';

const HIDDEN = '(hidden)';
/** Key names Playwright presses: Enter, Tab, ArrowDown, Control+A, a, … */
const KEY = /^([A-Za-z]+\+){0,3}[A-Za-z0-9]{1,20}$|^([A-Za-z]+\+){0,3}[!-~]$/;

/** The URL of a goto step with its templates stood in for (a secret may fill the path or query). */
function gotoUrl(raw: string): URL | null {
  try {
    return new URL(raw.replace(/\{\{[^}]*\}\}/g, 'x'));
  } catch {
    return null;
  }
}

/** Why step `i` (from 1) is not valid, or null. */
export function stepProblem(step: BrowserStep, i: number): string | null {
  const at = `Step ${i}`;
  if (typeof step !== 'object' || step === null) return `${at} is not a step`;
  if (!BROWSER_ACTIONS.includes(step.action)) return `${at}: action must be one of ${BROWSER_ACTIONS.join(', ')}`;
  for (const f of NEEDS[step.action]) {
    const v = step[f];
    if (v === null || v === undefined || v === '') return `${at} (${step.action}) needs a ${f}`;
  }
  if (step.name != null && (step.name.length > 80 || hasControlCharacters(step.name)))
    return `${at}: the name must be plain text of at most 80 characters`;
  if (step.selector != null && (step.selector.length > 500 || hasControlCharacters(step.selector)))
    return `${at}: the selector must be plain text of at most 500 characters`;
  if (step.value != null && step.value.length > 2000) return `${at}: the value must be at most 2000 characters`;
  for (const text of [step.url, step.value]) {
    const vars = variableNames(text);
    if (vars.length) return `${at}: {{${vars[0]}}} is not known; browser steps take only {{secrets.NAME}}`;
  }
  if (step.action === 'goto') {
    const url = gotoUrl(step.url ?? '');
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return `${at}: the URL must start with http:// or https://`;
    if (url.username || url.password) return `${at}: put credentials in a fill step with {{secrets.NAME}}, not in the URL`;
    const authority = (step.url ?? '').replace(/^[a-z]+:\/\//i, '').split(/[/?#]/)[0];
    if (authority.includes('{{')) return `${at}: the URL's host must be written out (templates only in its path or query)`;
    if (!normalizeTargetHost(url.hostname)) return `${at}: the URL host must be a host name like example.com or an IP address`;
  }
  if (step.action === 'press' && !KEY.test(step.value ?? ''))
    return `${at}: "${(step.value ?? '').slice(0, 40)}" is not a key name (Enter, Tab, ArrowDown, Control+A)`;
  if (step.action === 'assert_count' && !(Number.isInteger(step.count) && (step.count ?? -1) >= 0 && (step.count ?? 0) <= 10_000))
    return `${at}: the count must be a whole number from 0 to 10000`;
  return null;
}

/** Only the fields a step's action reads are kept, so a stored journey says what it does. */
function cleanStep(s: BrowserStep): BrowserStep {
  const out: BrowserStep = { action: s.action, name: s.name ?? null };
  for (const f of NEEDS[s.action] ?? []) (out as unknown as Record<string, unknown>)[f] = s[f];
  if (s.action === 'press' || s.action === 'assert_text') out.selector = s.selector ?? null;
  return out;
}

export const browserKind: Kind<BrowserConfig> = {
  fields: BROWSER_FIELDS,
  // Configurable (BROWSER_MIN_INTERVAL_SECONDS): a journey costs a second or more of CPU.
  get minIntervalSeconds() {
    return browserSettings().minIntervalSeconds;
  },
  needsBrowser: true,
  planLimit: (plan) => plan.browserMonitors,
  validate(pick) {
    const problems: Record<string, string> = {};
    const raw = pick('steps');
    const steps: BrowserStep[] = Array.isArray(raw) ? raw : [];
    let target: { host: string; field: 'steps' } | null = null;
    if (!Array.isArray(raw) || steps.length === 0) problems.steps = 'A browser journey needs at least one step (the first goes to a URL)';
    else if (steps.length > BROWSER_MAX_STEPS) problems.steps = `A browser journey has at most ${BROWSER_MAX_STEPS} steps`;
    else if (steps[0]?.action !== 'goto') problems.steps = 'Step 1 must be goto: a journey starts by opening a page';
    else {
      const problem = steps.map((s, i) => stepProblem(s, i + 1)).find((p) => p !== null);
      if (problem) problems.steps = problem;
      else target = { host: gotoUrl(steps[0].url ?? '')!.hostname.replace(/^\[|\]$/g, ''), field: 'steps' };
    }
    const config: BrowserConfig = {
      steps: problems.steps ? steps : steps.map(cleanStep),
      degraded_threshold_ms: pick('degraded_threshold_ms') ?? null,
    };
    return { config, problems, target };
  },
  check: browserChecker,
  async afterResult(r) {
    const run = r.outcome.detail?.run;
    if (!run) return;
    const shots = r.outcome.detail?.screenshots ?? [];
    const ids = shots.length && r.keepScreenshots ? await r.keepScreenshots(shots) : [];
    const idOf = new Map(shots.map((s, i) => [s.index, ids[i] ?? null]));
    return { last_answers: keptRun({ ...run, steps: run.steps.map((s) => ({ ...s, screenshot_id: idOf.get(s.index) ?? null })) }) };
  },
  present(config, { secrets }) {
    // Typed-in values (a password filled without {{secrets.NAME}}) are seen only by those who may change the monitor.
    const steps = config.steps?.map((s) => (!secrets && s.action === 'fill' && s.value ? { ...s, value: HIDDEN } : s)) ?? null;
    return { steps, degraded_threshold_ms: config.degraded_threshold_ms ?? null };
  },
  stateView: runStateView,
  publicTarget: (config) => gotoUrl(config.steps?.[0]?.url ?? '')?.hostname.replace(/^\[|\]$/g, '') || null,
};
