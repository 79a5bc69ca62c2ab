// The steps of an api_flow or browser monitor as the console's step editor holds them: the contract's
// shapes (openapi/schemas/synthetic.yaml), a new step of each kind, moving and removing steps, the
// server's per-field messages of one step, and import/export as JSON or YAML. Pure: no React, no
// fetch. The server validates every field; these helpers only keep what was typed.

import type { components } from '../../../../../api/schema.d.ts';
import { t } from '../../../i18n.ts';
import {
  API_ASSERTION_COMPARISONS,
  API_ASSERTION_SOURCES,
  API_EXTRACTION_SOURCES,
  API_FLOW_MAX_STEPS,
  API_FLOW_METHODS,
  BROWSER_ACTIONS,
  BROWSER_MAX_STEPS,
} from '../../../../../lib/monitor-kinds.ts';

export type SyntheticKind = 'api_flow' | 'browser';

// The lists the server validates against (one place: src/lib/monitor-kinds.ts).
export {
  API_FLOW_METHODS as API_METHODS,
  API_ASSERTION_SOURCES as ASSERTION_SOURCES,
  API_ASSERTION_COMPARISONS as COMPARISONS,
  API_EXTRACTION_SOURCES as EXTRACTION_SOURCES,
  BROWSER_ACTIONS,
};

/** The most steps the server takes per kind (synthetic.yaml / monitors.yaml). */
export const MAX_STEPS: Record<SyntheticKind, number> = { api_flow: API_FLOW_MAX_STEPS, browser: BROWSER_MAX_STEPS };
export const MAX_ROWS = 20;

type Schemas = components['schemas'];
// The contract's shapes (openapi/schemas/synthetic.yaml), as generated.
export type ApiAssertion = Schemas['ApiAssertion'];
export type ApiExtraction = Schemas['ApiExtraction'];
export type ApiFlowStep = Schemas['ApiFlowStep'];
export type BrowserStep = Schemas['BrowserStep'];
export type BrowserAction = BrowserStep['action'];
export type Step = ApiFlowStep | BrowserStep;
export type StepResult = Schemas['StepResult'];
export type WebVitals = Schemas['WebVitals'];
export type SyntheticRun = Schemas['SyntheticRun'];

export const isSynthetic = (type: string): type is SyntheticKind => type === 'api_flow' || type === 'browser';
/** A browser journey's steps (else an API flow's requests). */
export const isJourney = (type: string): boolean => type === 'browser';

/** Which fields a browser action uses (the others are left out of the step it sends). */
export const ACTION_FIELDS: Record<BrowserAction, ReadonlyArray<'url' | 'selector' | 'value' | 'count'>> = {
  goto: ['url'],
  click: ['selector'],
  fill: ['selector', 'value'],
  select: ['selector', 'value'],
  press: ['selector', 'value'],
  wait_for_text: ['value'],
  wait_for_selector: ['selector'],
  assert_text: ['selector', 'value'],
  assert_url: ['value'],
  assert_title: ['value'],
  assert_count: ['selector', 'count'],
  screenshot: [],
};

/** A fresh step of the kind: the first one opens a page, a later one follows on. */
export function newStep(kind: SyntheticKind, position: number): Step {
  if (kind === 'browser') return position === 0 ? { action: 'goto', url: '' } : { action: 'click', selector: '' };
  return { name: `Step ${position + 1}`, method: 'GET', url: '', assertions: [{ source: 'status', comparison: 'equals', target: '200' }] };
}

/** The list with the step at `from` moved by `by` places (unchanged at either end). */
export function moveStep<T>(steps: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= steps.length) return [...steps];
  const out = [...steps];
  [out[from], out[to]] = [out[to] as T, out[from] as T];
  return out;
}

export function removeAt<T>(xs: readonly T[], at: number): T[] {
  return xs.filter((_, i) => i !== at);
}

export function replaceAt<T>(xs: readonly T[], at: number, x: T): T[] {
  return xs.map((y, i) => (i === at ? x : y));
}

/** A step as the run names it: its name, else its action and what it acts on. */
export function stepLabel(step: Step, index: number): string {
  if ('action' in step) {
    if (step.name) return step.name;
    const on = step.url || step.selector || step.value || '';
    return `${step.action.replace(/_/g, ' ')}${on ? ` ${on}` : ''}`;
  }
  return step.name || t('monitors.steps.stepN', { n: index + 1 });
}

/**
 * The server's messages of step `index` (0-based), keyed by the field inside the step
 * ("url", "assertions.0.target"): the request validator names fields `steps.0.url`, a domain
 * check may name them `steps[0].url`; both land on the same input.
 */
export function stepErrors(errors: Record<string, string>, index: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(errors)) {
    const m = /^steps\.(\d+)(?:\.(.+))?$/.exec(dotted(key));
    if (m && Number(m[1]) === index) out[m[2] ?? '_'] = text;
  }
  return out;
}

const dotted = (key: string) => key.replace(/\[(\d+)\]/g, '.$1');

/** Every error key that belongs to step `index`, to clear them when the step changes. */
export function stepErrorKeys(errors: Record<string, string>, index: number): string[] {
  return Object.keys(errors).filter((k) => {
    const m = /^steps\.(\d+)/.exec(dotted(k));
    return m !== null && Number(m[1]) === index;
  });
}

/** What the server is sent: a browser step without the fields its action does not use, blanks dropped. */
export function cleanStep(step: Step): Step {
  if ('action' in step) {
    const used = ACTION_FIELDS[step.action] ?? [];
    const out: BrowserStep = { action: step.action };
    if (step.name?.trim()) out.name = step.name.trim();
    for (const f of used) {
      const v = step[f];
      if (v !== undefined && v !== null && v !== '') (out as unknown as Record<string, unknown>)[f] = v;
    }
    return out;
  }
  const out: ApiFlowStep = { name: step.name, method: step.method ?? 'GET', url: step.url };
  if (step.headers && Object.keys(step.headers).length) out.headers = step.headers;
  if (step.body) out.body = step.body;
  if (step.assertions?.length) out.assertions = step.assertions;
  if (step.extract?.length) out.extract = step.extract;
  return out;
}

export type ImportOutcome = { ok: true; steps: Step[] } | { ok: false; error: string };

/**
 * Steps from pasted or uploaded text: JSON or YAML (YAML is a superset of JSON, so one parser
 * reads both), either a list of steps or an object with `steps` (a monitors-as-code entry). The
 * shape is checked only as far as needed to draw the editor; the server names anything else.
 */
export function importSteps(text: string, kind: SyntheticKind, parseYaml: (t: string) => unknown): ImportOutcome {
  if (!text.trim()) return { ok: false, error: t('monitors.io.pasteFirst') };
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    return { ok: false, error: t('monitors.io.neither', { why }) };
  }
  const list = Array.isArray(doc)
    ? doc
    : doc && typeof doc === 'object' && Array.isArray((doc as { steps?: unknown }).steps)
      ? (doc as { steps: unknown[] }).steps
      : null;
  if (!list) return { ok: false, error: t('monitors.io.expectedList') };
  if (list.length === 0) return { ok: false, error: t('monitors.io.noSteps') };
  if (list.length > MAX_STEPS[kind]) return { ok: false, error: t('monitors.io.tooMany', { max: MAX_STEPS[kind], count: list.length }) };
  for (const [i, s] of list.entries()) {
    if (!s || typeof s !== 'object' || Array.isArray(s)) return { ok: false, error: t('monitors.io.notObject', { n: i + 1 }) };
    const step = s as Record<string, unknown>;
    if (kind === 'browser') {
      if (!BROWSER_ACTIONS.includes(step.action as BrowserAction))
        return { ok: false, error: t('monitors.io.badAction', { n: i + 1, actions: BROWSER_ACTIONS.join(', ') }) };
    } else {
      if ('action' in step) return { ok: false, error: t('monitors.io.browserStep', { n: i + 1 }) };
      if (typeof step.url !== 'string') return { ok: false, error: t('monitors.io.missing', { n: i + 1, field: 'url' }) };
      if (typeof step.name !== 'string') return { ok: false, error: t('monitors.io.missing', { n: i + 1, field: 'name' }) };
    }
  }
  return { ok: true, steps: list as Step[] };
}

/** The steps as text to copy or save: JSON, or YAML through the given writer. */
export function exportSteps(steps: readonly Step[], format: 'json' | 'yaml', toYaml: (v: unknown) => string): string {
  const clean = steps.map(cleanStep);
  return format === 'json' ? `${JSON.stringify(clean, null, 2)}\n` : toYaml(clean);
}
