// api_flow checks: the monitor's requests in order, each through the http checker's request path
// (httpExchange: the address guard on every connection and redirect, the size and header caps),
// judged by its assertions, passing what it extracts to later steps as {{variables}}. The whole
// flow shares the check's one time-out (the engine's signal). The first failing step names itself
// and its assertion; the steps after it are skipped. Every text that leaves the check (step errors,
// the outcome's error) has the company's secret values redacted.
import { REGEX_SCAN_CHARS, compileRegex } from './http-assertions.ts';
import { HttpExchangeError, httpExchange, type HttpAnswer } from './http.ts';
import { parseJsonPath, readJsonPath } from './json-path.ts';
import { failed, round, type CheckOutcome, type Checker, type Timings } from './types.ts';
import {
  expandTemplate,
  type TemplateContext,
  redactSecrets,
  secretNames,
  stepTimingKey,
  TemplateError,
  type StepResult,
  type SyntheticRun,
} from '../kinds/synthetic-run.ts';

/** synthetic.yaml's ApiAssertion, as stored. */
export interface ApiAssertion {
  source: 'status' | 'header' | 'json' | 'body' | 'response_time';
  property?: string | null;
  comparison: 'equals' | 'not_equals' | 'contains' | 'not_contains' | 'less_than' | 'greater_than' | 'matches' | 'exists' | 'not_exists';
  target?: string | null;
}

/** synthetic.yaml's ApiExtraction. */
export interface ApiExtraction {
  variable: string;
  source: 'json' | 'header' | 'body_regex' | 'status';
  property?: string | null;
}

/** synthetic.yaml's ApiFlowStep. */
export interface ApiFlowStep {
  name: string;
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | null;
  assertions?: ApiAssertion[];
  extract?: ApiExtraction[];
}

/** What an api_flow monitor stores (engine/kinds/api-flow.ts validates it). */
export interface ApiFlowConfig {
  steps?: ApiFlowStep[];
  degraded_threshold_ms?: number | null;
}

/** A step's assertion or extraction did not hold: the sentence names it. */
class StepFailed extends Error {}

const WORDS: Record<ApiAssertion['comparison'], string> = {
  equals: 'equals',
  not_equals: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  less_than: 'is less than',
  greater_than: 'is greater than',
  matches: 'matches',
  exists: 'exists',
  not_exists: 'is absent',
};
/** How much of an actual value a failure quotes (a status, a total, a header: short by nature). */
const QUOTE_CHARS = 100;

export const apiFlowChecker: Checker<ApiFlowConfig> = async (target, env, signal) => {
  const steps = target.config.steps ?? [];
  const started = performance.now();
  const checkedAt = new Date(env.now()).toISOString();
  const named = stepSecretNames(steps);
  // Only the secrets the steps name are opened, for this check only.
  const secrets = named.length && env.secrets ? await env.secrets(named) : {};
  const redact = (text: string) => redactSecrets(text, secrets);
  const vars: Record<string, string> = {};
  const results: StepResult[] = [];
  const timings: Timings = { total: 0 };
  let failure: { index: number; text: string; httpCode: number | null; answered: boolean } | null = null;
  let last: HttpAnswer | null = null;
  /** The certificate of the flow's https answers that expires first: the one to warn about */
  let cert: Pick<HttpAnswer, 'certExpiresAt' | 'certIssuer' | 'certSubject'> = { certExpiresAt: null, certIssuer: null, certSubject: null };
  for (const [i, step] of steps.entries()) {
    const index = i + 1;
    const name = step.name || `Step ${index}`;
    if (failure) {
      results.push({ index, name, status: 'skipped', duration_ms: null, error: null, screenshot_id: null });
      continue;
    }
    const t0 = performance.now();
    let httpCode: number | null = null;
    let answered = false;
    try {
      const answer = await runStep(step, vars, secrets, env, signal, target.timeoutMs, t0);
      last = answer;
      httpCode = answer.status;
      if (answer.certExpiresAt !== null && (cert.certExpiresAt === null || answer.certExpiresAt < cert.certExpiresAt)) cert = answer;
      answered = true;
      const ms = round(performance.now() - t0);
      judgeStep(step, answer, ms, vars, secrets);
      extractInto(step, answer, vars);
      timings[stepTimingKey(index) as `step_${number}`] = ms;
      results.push({ index, name, status: 'passed', duration_ms: ms, error: null, screenshot_id: null });
      env.onStep?.(results[results.length - 1]);
    } catch (e) {
      const ms = round(performance.now() - t0);
      timings[stepTimingKey(index) as `step_${number}`] = ms;
      let why: string;
      if (e instanceof HttpExchangeError) {
        why = e.message;
        httpCode = e.httpCode;
        answered = e.answered;
      } else if (e instanceof StepFailed || e instanceof TemplateError) why = e.message;
      else if (signal.aborted) why = `Timed out after ${target.timeoutMs / 1000} s`;
      else throw e;
      const error = redact(why);
      results.push({ index, name, status: 'failed', duration_ms: ms, error, screenshot_id: null });
      env.onStep?.(results[results.length - 1]);
      failure = { index, text: redact(`Step ${index} "${name}": ${why}`), httpCode, answered };
    }
  }
  timings.total = round(performance.now() - started);
  const run: SyntheticRun = { checked_at: checkedAt, steps: results, web_vitals: null, console_errors: [], failed_requests: [] };
  if (failure) {
    const out = failed(failure.text.slice(0, 300), timings, failure.httpCode ?? last?.status ?? null);
    // A flow that got its answers and failed an assertion took that long; one cut off got no answer.
    return { ...out, responseTimeMs: failure.answered && !signal.aborted ? timings.total : null, detail: { run } };
  }
  const outcome: CheckOutcome = {
    status: 'operational',
    responseTimeMs: timings.total,
    httpCode: last?.status ?? null,
    error: null,
    timings,
    certExpiresAt: cert.certExpiresAt,
    certIssuer: cert.certIssuer ?? null,
    certSubject: cert.certSubject ?? null,
    detail: { run },
  };
  const threshold = target.config.degraded_threshold_ms;
  if (threshold && timings.total > threshold)
    return { ...outcome, status: 'degraded', error: `The flow took ${Math.round(timings.total)} ms (threshold ${threshold} ms)` };
  return outcome;
};

async function runStep(
  step: ApiFlowStep,
  vars: Record<string, string>,
  secrets: Record<string, string>,
  env: Parameters<Checker>[1],
  signal: AbortSignal,
  timeoutMs: number,
  t0: number,
): Promise<HttpAnswer> {
  const fill = (text: string, context?: TemplateContext) => expandTemplate(text, vars, secrets, context);
  let url: URL;
  try {
    url = new URL(fill(step.url, 'url'));
  } catch (e) {
    if (e instanceof TemplateError) throw e;
    throw new StepFailed('the URL is not valid once its variables are filled in');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new StepFailed('the URL is not http or https');
  const headers = Object.fromEntries(Object.entries(step.headers ?? {}).map(([k, v]) => [k, fill(v)]));
  for (const v of Object.values(headers)) if (/[\r\n\0]/.test(v)) throw new StepFailed('a header value holds a line break once filled in');
  const body = step.body == null ? null : fill(step.body, isJsonBody(headers, step.body) ? 'json' : 'text');
  return await httpExchange(
    { url, method: (step.method ?? 'GET').toUpperCase(), headers, body, followRedirects: true, keepBody: true },
    env,
    signal,
    timeoutMs,
    t0,
  );
}

/** A body sent as JSON: said by its content type, or, without one, written as a JSON object or array. */
function isJsonBody(headers: Record<string, string>, body: string): boolean {
  const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  return type !== undefined ? /json/i.test(type) : /^\s*[[{]/.test(body);
}

/** The value an assertion or extraction reads, as text (undefined: absent). */
function answerValue(
  source: string,
  property: string | null | undefined,
  a: HttpAnswer,
  ms: number,
  json: () => unknown,
): string | undefined {
  switch (source) {
    case 'status':
      return String(a.status);
    case 'response_time':
      return String(ms);
    case 'body':
      return a.body;
    case 'header': {
      const v = a.headers[String(property).toLowerCase()];
      return v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : v;
    }
    default: {
      const path = parseJsonPath(String(property).trim());
      if (typeof path === 'string') throw new StepFailed(`the JSON path ${property} ${path}`);
      const v = readJsonPath(json(), path);
      return v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v);
    }
  }
}

function jsonReader(a: HttpAnswer): () => unknown {
  let parsed: { doc: unknown } | null = null;
  return () => {
    if (!parsed) {
      try {
        parsed = { doc: JSON.parse(a.body) };
      } catch {
        throw new StepFailed('the answer is not JSON');
      }
    }
    return parsed.doc;
  };
}

const quote = (v: string) => {
  const flat = v.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat;
};
const asNumber = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));

function judgeStep(step: ApiFlowStep, a: HttpAnswer, ms: number, vars: Record<string, string>, secrets: Record<string, string>): void {
  const json = jsonReader(a);
  const assertions = step.assertions ?? [];
  if (assertions.length === 0 && a.status >= 400) throw new StepFailed(`HTTP ${a.status} (a step without assertions passes below 400)`);
  for (const as of assertions) {
    const target = as.target == null ? '' : expandTemplate(as.target, vars, secrets);
    const what = `${as.source}${as.property ? ` ${as.property}` : ''} ${WORDS[as.comparison]}${as.comparison === 'exists' || as.comparison === 'not_exists' ? '' : ` ${as.source === 'body' ? `"${quote(target)}"` : quote(target)}`}`;
    const actual = answerValue(as.source, as.property, a, ms, json);
    const holds = compare(as.comparison, actual, target);
    if (holds) continue;
    // The body is never quoted (it may be a whole page); a status, header or JSON value briefly is.
    if (actual === undefined) throw new StepFailed(`${what}, not found`);
    if (as.source === 'body') throw new StepFailed(`${what}: does not hold for the answer's body`);
    if (as.comparison === 'not_exists') throw new StepFailed(`${what}, but it is there`);
    throw new StepFailed(`${what}, got ${quote(actual)}`);
  }
}

function compare(comparison: ApiAssertion['comparison'], actual: string | undefined, target: string): boolean {
  if (comparison === 'exists') return actual !== undefined;
  if (comparison === 'not_exists') return actual === undefined;
  if (actual === undefined) return false;
  switch (comparison) {
    case 'equals':
      return actual === target || (Number.isFinite(asNumber(actual)) && asNumber(actual) === asNumber(target));
    case 'not_equals':
      return !(actual === target || (Number.isFinite(asNumber(actual)) && asNumber(actual) === asNumber(target)));
    case 'contains':
      return actual.includes(target);
    case 'not_contains':
      return !actual.includes(target);
    case 'less_than':
      return asNumber(actual) < asNumber(target);
    case 'greater_than':
      return asNumber(actual) > asNumber(target);
    case 'matches': {
      const re = compileRegex(target);
      if (typeof re === 'string') throw new StepFailed(`the expression is ${re}`);
      return re.matcher(actual.slice(0, REGEX_SCAN_CHARS)).find();
    }
  }
  return false;
}

function extractInto(step: ApiFlowStep, a: HttpAnswer, vars: Record<string, string>): void {
  const json = jsonReader(a);
  for (const x of step.extract ?? []) {
    let value: string | undefined;
    if (x.source === 'body_regex') {
      const re = compileRegex(String(x.property));
      if (typeof re === 'string') throw new StepFailed(`extraction {{${x.variable}}}: the expression is ${re}`);
      const m = re.matcher(a.body.slice(0, REGEX_SCAN_CHARS));
      value = m.find() ? (m.group(1) ?? undefined) : undefined;
    } else value = answerValue(x.source, x.property, a, 0, json);
    if (value === undefined)
      throw new StepFailed(`extraction {{${x.variable}}}: ${x.source}${x.property ? ` ${x.property}` : ''} not found in the answer`);
    vars[x.variable] = value;
  }
}

/** Every secret a monitor's steps name ({{secrets.NAME}} in any text of any step, API or browser), each once. */
export function stepSecretNames(steps: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') for (const n of secretNames(v)) out.add(n);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(steps);
  return [...out];
}
