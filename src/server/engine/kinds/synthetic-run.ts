// What the two synthetic kinds (api_flow, browser) share: the shape of one run (steps, Web Vitals,
// console errors, failed requests; openapi/schemas/synthetic.yaml), kept as the monitor's
// `last_answers` by the kind's afterResult and shown as the monitor view's `last_run`; the
// `{{variable}}` / `{{secrets.NAME}}` templates; and the redaction that keeps secret values out of
// every stored or returned text (results, errors, logs).

export type StepStatus = 'passed' | 'failed' | 'skipped';

/** One step's result, in the API's field names (stored as such in last_answers). */
export interface StepResult {
  index: number;
  name: string;
  status: StepStatus;
  duration_ms: number | null;
  /** Names the step's failing assertion; secret values already redacted */
  error: string | null;
  /** A kept screenshot (browser runs by the engine), else null */
  screenshot_id: string | null;
  /** Test runs of browser journeys: a data:image/png;base64 URL (never stored) */
  screenshot?: string | null;
}

export interface WebVitals {
  lcp_ms: number | null;
  cls: number | null;
  tbt_ms: number | null;
  inp_ms: number | null;
}

export interface FailedRequest {
  url: string;
  error: string;
}

/** What one run saw (CheckOutcome.detail.run). */
export interface SyntheticRun {
  checked_at: string;
  steps: StepResult[];
  web_vitals: WebVitals | null;
  console_errors: string[];
  failed_requests: FailedRequest[];
}

/** Timings keys of the steps: step_1 … step_N (ms), next to `total`, charted like phases. */
export const stepTimingKey = (index: number): string => `step_${index}`;

/** The monitor view's `last_run` from the kept state (null before the first run). */
export function runStateView(lastAnswers: string | null): { last_run: SyntheticRun | null } {
  if (!lastAnswers) return { last_run: null };
  try {
    const v = JSON.parse(lastAnswers) as SyntheticRun;
    return { last_run: Array.isArray(v?.steps) ? v : null };
  } catch {
    return { last_run: null };
  }
}

/** The stored form of a run: no data URLs (screenshots are kept in their own table). */
export function keptRun(run: SyntheticRun): string {
  return JSON.stringify({ ...run, steps: run.steps.map(({ screenshot: _drop, ...s }) => s) });
}

const TEMPLATE = /\{\{\s*(secrets\.)?([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The secret names a text refers to ({{secrets.NAME}}). */
export function secretNames(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...text.matchAll(TEMPLATE)].filter((m) => m[1]).map((m) => m[2] as string);
}

/** The variable names a text refers to ({{name}}, not secrets). */
export function variableNames(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...text.matchAll(TEMPLATE)].filter((m) => !m[1]).map((m) => m[2] as string);
}

export class TemplateError extends Error {}

/**
 * Where a filled value lands, which decides how it is written so that it stays one value (an
 * extracted value comes from the target, which may be hostile):
 * - `text`: as it is (a header value, a typed-in field, an assertion's target);
 * - `url`: percent-encoded in the path, query or fragment; as it is at the start of the URL or in
 *   its scheme and host (a variable holding a whole URL, such as a `next` link, still works);
 * - `json`: inside a JSON string escaped for it (a quote cannot close the string and add fields);
 *   elsewhere as it is (`{"n": {{count}}}` puts a number).
 */
export type TemplateContext = 'text' | 'url' | 'json';

/** Whether position `at` of a JSON text is inside a string literal. */
function insideJsonString(text: string, at: number): boolean {
  let inside = false;
  for (let i = 0; i < at; i++) {
    const c = text[i];
    if (inside && c === '\\') i++;
    else if (c === '"') inside = !inside;
  }
  return inside;
}

/** Whether position `at` of a URL template is past its host (path, query or fragment). */
function pastHost(text: string, at: number): boolean {
  const scheme = text.indexOf('://');
  const hostStart = scheme >= 0 && scheme < at ? scheme + 3 : 0;
  const pathStart = text.slice(hostStart).search(/[/?#]/);
  return pathStart >= 0 && hostStart + pathStart < at;
}

/**
 * The text with its templates filled. An unknown variable or secret is an error naming it (the
 * step fails with it) rather than an empty string sent to the target.
 */
export function expandTemplate(
  text: string,
  vars: Readonly<Record<string, string>>,
  secrets: Readonly<Record<string, string>>,
  context: TemplateContext = 'text',
): string {
  return text.replace(TEMPLATE, (_all, isSecret: string | undefined, name: string, at: number) => {
    const v = isSecret ? secrets[name] : vars[name];
    if (v === undefined) throw new TemplateError(isSecret ? `secret ${name} is not defined` : `variable ${name} has no value yet`);
    if (context === 'url' && pastHost(text, at)) return encodeURIComponent(v);
    if (context === 'json' && insideJsonString(text, at)) return JSON.stringify(v).slice(1, -1);
    return v;
  });
}

/**
 * The text with every secret value replaced by [secret NAME]: longest values first, so a value
 * that contains another is hidden whole. Values shorter than 4 characters are left alone (a
 * secret "1" would blank every digit and hide nothing).
 */
export function redactSecrets(text: string, secrets: Readonly<Record<string, string>>): string {
  const entries = Object.entries(secrets)
    .filter(([, v]) => v.length >= 4)
    .sort((a, b) => b[1].length - a[1].length);
  let out = text;
  for (const [name, value] of entries) out = out.split(value).join(`[secret ${name}]`);
  return out;
}
