// Validation of an api_flow monitor's `steps`: each request, assertion and extraction as
// synthetic.yaml describes them, with the first problem as one sentence naming the step
// ("Step 2 "Add to cart": …"), the console's message for the `steps` field. Variables must be
// extracted by an earlier step than the one using them; secrets are checked against the company
// by the domain (the kind has no database).
import { hasControlCharacters } from '../../../lib/plain-text.ts';
import { normalizeTargetHost } from '../../../lib/target-host.ts';
import {
  API_ASSERTION_COMPARISONS,
  API_ASSERTION_SOURCES,
  API_EXTRACTION_SOURCES,
  API_FLOW_MAX_STEPS,
  API_FLOW_METHODS,
} from '../../../lib/monitor-kinds.ts';
import type { ApiAssertion, ApiExtraction, ApiFlowStep } from '../checkers/api-flow.ts';
import { compileRegex } from '../checkers/http-assertions.ts';
import { parseJsonPath } from '../checkers/json-path.ts';
import { variableNames } from './synthetic-run.ts';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Set by the request itself: a step may not replace them. */
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'accept-encoding']);
const VARIABLE = /^[a-z_][a-z0-9_]{0,39}$/;
const STEP_KEYS = new Set(['name', 'method', 'url', 'headers', 'body', 'assertions', 'extract']);
const NEEDS_PROPERTY = new Set(['header', 'json']);
const NUMERIC = new Set(['less_than', 'greater_than']);
const NO_TARGET = new Set(['exists', 'not_exists']);
const TEMPLATE_MARK = /\{\{/;

/** The validated steps (as stored) and the first problem, if any. */
export interface StepsCheck {
  steps: ApiFlowStep[];
  problem: string | null;
  /** The first step's host: the destination the address guard and budget judge at save */
  host: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const quoteName = (s: string) => `"${s.slice(0, 80)}"`;

export function validateApiSteps(raw: unknown): StepsCheck {
  if (!Array.isArray(raw) || raw.length === 0) return { steps: [], problem: 'Add at least one step', host: null };
  if (raw.length > API_FLOW_MAX_STEPS)
    return { steps: raw as ApiFlowStep[], problem: `At most ${API_FLOW_MAX_STEPS} steps (this flow has ${raw.length})`, host: null };
  const steps: ApiFlowStep[] = [];
  const names = new Set<string>();
  const known = new Set<string>();
  let host: string | null = null;
  let problem: string | null = null;
  raw.forEach((s, i) => {
    const label = `Step ${i + 1}${isObject(s) && typeof s.name === 'string' && s.name ? ` ${quoteName(s.name)}` : ''}`;
    const fail = (why: string) => {
      problem ??= `${label}: ${why}`;
    };
    if (!isObject(s)) {
      fail('must be an object with name and url');
      steps.push(s as ApiFlowStep);
      return;
    }
    if ('action' in s) fail('is a browser step (action); an API flow step has a method and url');
    const stray = Object.keys(s).find((k) => !STEP_KEYS.has(k));
    if (stray && !('action' in s)) fail(`has an unknown field "${stray.slice(0, 40)}"`);
    // Stored with the keys it was given (defaults are the checker's), so a monitors-as-code file
    // that leaves method or headers out reads back as written and the next apply sees no change.
    const step: ApiFlowStep = { name: typeof s.name === 'string' ? s.name.trim() : '', url: typeof s.url === 'string' ? s.url.trim() : '' };
    if (s.method !== undefined && s.method !== null) step.method = typeof s.method === 'string' ? s.method.toUpperCase() : String(s.method);
    if (s.headers !== undefined && s.headers !== null) step.headers = s.headers as Record<string, string>;
    if (s.body !== undefined) step.body = s.body as string | null;
    if (s.assertions !== undefined && s.assertions !== null) step.assertions = s.assertions as ApiAssertion[];
    if (s.extract !== undefined && s.extract !== null) step.extract = s.extract as ApiExtraction[];
    steps.push(step);
    if (!step.name) fail('needs a name');
    else if (hasControlCharacters(step.name)) fail('the name may not hold control characters');
    else if (names.has(step.name.toLowerCase())) fail('another step has the same name');
    names.add(step.name.toLowerCase());
    if (!(API_FLOW_METHODS as readonly string[]).includes(step.method ?? 'GET'))
      fail(`method must be one of ${API_FLOW_METHODS.join(', ')}`);
    const urlProblem = checkUrl(step.url);
    if (urlProblem) fail(urlProblem);
    else if (i === 0) host = new URL(step.url.replace(/\{\{[^}]*\}\}/g, 'x')).hostname.replace(/^\[|\]$/g, '');
    if (s.headers !== undefined && s.headers !== null && !isObject(s.headers)) fail('headers must be an object of names to values');
    for (const [h, v] of Object.entries(isObject(step.headers) ? step.headers : {})) {
      if (
        typeof v !== 'string' ||
        !HEADER_NAME.test(h) ||
        FORBIDDEN_HEADERS.has(h.toLowerCase()) ||
        /[\r\n]/.test(v) ||
        hasControlCharacters(v)
      )
        fail(`header "${h.slice(0, 60)}" is not allowed`);
    }
    if (s.body !== undefined && s.body !== null && typeof s.body !== 'string') fail('body must be text');
    if (s.assertions !== undefined && s.assertions !== null && !Array.isArray(s.assertions)) fail('assertions must be a list');
    const assertions = Array.isArray(step.assertions) ? step.assertions : [];
    const extract = Array.isArray(step.extract) ? step.extract : [];
    if (assertions.length > 20) fail('at most 20 assertions');
    assertions.forEach((a, j) => {
      const why = checkAssertion(a);
      if (why) fail(`assertion ${j + 1}: ${why}`);
    });
    // Variables a step uses must come from an earlier step's extraction.
    const texts = [step.url, ...Object.values(step.headers ?? {}), step.body, ...assertions.map((a) => (isObject(a) ? a.target : null))];
    for (const t of texts) {
      for (const v of variableNames(typeof t === 'string' ? t : null))
        if (!known.has(v)) fail(`{{${v}}} is used before a step extracts it`);
    }
    if (s.extract !== undefined && s.extract !== null && !Array.isArray(s.extract)) fail('extract must be a list');
    if (extract.length > 20) fail('at most 20 extractions');
    extract.forEach((x, j) => {
      const why = checkExtraction(x);
      if (why) fail(`extraction ${j + 1}: ${why}`);
      else known.add(x.variable);
    });
  });
  return { steps, problem, host };
}

function checkUrl(url: string): string | null {
  if (!url) return 'needs a URL (http:// or https://)';
  // The scheme and host are judged as written: a template there would hide the destination from
  // the address guard's check at save time and from the per-destination budget.
  const m = /^([a-z][a-z0-9+.-]*:)\/\/([^/?#]*)/i.exec(url);
  if (!m) return 'URL must start with http:// or https://';
  if (TEMPLATE_MARK.test(m[1]) || TEMPLATE_MARK.test(m[2]))
    return "the URL's host may not be a template ({{…}} only in its path, query or fragment)";
  let parsed: URL;
  try {
    parsed = new URL(url.replace(/\{\{[^}]*\}\}/g, 'x'));
  } catch {
    return 'URL is not valid';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'URL must start with http:// or https://';
  if (parsed.username || parsed.password) return 'put credentials in a header, not in the URL';
  if (!normalizeTargetHost(parsed.hostname)) return 'URL host must be a host name like example.com or an IP address';
  if (hasControlCharacters(url)) return 'URL may not hold control characters';
  return null;
}

function checkAssertion(a: unknown): string | null {
  if (!isObject(a)) return 'must be an object with source and comparison';
  const { source, comparison, property, target } = a as Record<string, unknown>;
  if (!(API_ASSERTION_SOURCES as readonly unknown[]).includes(source)) return `source must be one of ${API_ASSERTION_SOURCES.join(', ')}`;
  if (!(API_ASSERTION_COMPARISONS as readonly unknown[]).includes(comparison))
    return `comparison must be one of ${API_ASSERTION_COMPARISONS.join(', ')}`;
  if (NEEDS_PROPERTY.has(source as string)) {
    if (typeof property !== 'string' || !property.trim())
      return source === 'json' ? 'needs a JSON path in property ($.total)' : 'needs the header name in property';
    if (source === 'json') {
      const path = parseJsonPath(property.trim());
      if (typeof path === 'string') return `the JSON path ${property.slice(0, 100)} ${path}`;
    } else if (!HEADER_NAME.test(property)) return `"${property.slice(0, 60)}" is not a header name`;
  } else if (property != null && property !== '') return `property is only for header and json assertions`;
  if (NO_TARGET.has(comparison as string)) {
    if (target != null && target !== '') return `${comparison} takes no target`;
    if (source === 'status' || source === 'response_time') return `${comparison} does not apply to ${source}`;
    return null;
  }
  if (typeof target !== 'string') return `${comparison} needs a target`;
  if (source === 'response_time' && !NUMERIC.has(comparison as string)) return 'response_time takes less_than or greater_than (ms)';
  if (TEMPLATE_MARK.test(target)) return null;
  if (NUMERIC.has(comparison as string) && !Number.isFinite(Number(target))) return `${comparison} needs a number as target`;
  if (NUMERIC.has(comparison as string) && target.trim() === '') return `${comparison} needs a number as target`;
  if (comparison === 'matches') {
    const re = compileRegex(target);
    if (typeof re === 'string') return `the target is ${re}`;
  }
  if (hasControlCharacters(target)) return 'the target may not hold control characters';
  return null;
}

function checkExtraction(x: unknown): string | null {
  if (!isObject(x)) return 'must be an object with variable and source';
  const { variable, source, property } = x as Record<string, unknown>;
  if (typeof variable !== 'string' || !VARIABLE.test(variable))
    return 'variable must be lower case letters, digits and _ (at most 40), starting with a letter or _';
  if (!(API_EXTRACTION_SOURCES as readonly unknown[]).includes(source)) return `source must be one of ${API_EXTRACTION_SOURCES.join(', ')}`;
  if (source === 'status') return property == null || property === '' ? null : 'property is not used with status';
  if (typeof property !== 'string' || !property.trim())
    return source === 'json'
      ? 'needs a JSON path in property'
      : source === 'header'
        ? 'needs the header name in property'
        : 'needs a regular expression in property';
  if (source === 'json') {
    const path = parseJsonPath(property.trim());
    return typeof path === 'string' ? `the JSON path ${property.slice(0, 100)} ${path}` : null;
  }
  if (source === 'header') return HEADER_NAME.test(property) ? null : `"${property.slice(0, 60)}" is not a header name`;
  const re = compileRegex(property);
  if (typeof re === 'string') return `the expression is ${re}`;
  return re.groupCount() >= 1 ? null : 'the expression needs a capture group ( … ) for the value';
}
