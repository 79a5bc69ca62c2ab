// HTTP(S) monitors: a request to a URL, judged by status code, keyword or JSON value; slow
// answers are degraded. Certificates of https targets warn before they expire.
import { hasControlCharacters, plainTextProblem } from '../../../lib/plain-text.ts';
import { normalizeTargetHost } from '../../../lib/target-host.ts';
import {
  DEFAULT_ACCEPTED_STATUS_CODES,
  DEFAULT_HTTP_METHOD,
  DEFAULT_SSL_PORT,
  HTTP_FIELDS,
  HTTP_METHODS,
} from '../../../lib/monitor-kinds.ts';
import { httpChecker, type HttpConfig } from '../checkers/http.ts';
import { compileRegex, headerPattern, MAX_HEADER_ASSERTIONS } from '../checkers/http-assertions.ts';
import { certificateExpiring } from './certificate-warnings.ts';
import type { Kind } from './kind.ts';

const METHODS: readonly string[] = HTTP_METHODS;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'accept-encoding']);
const URL_HOST_TEXT = 'URL host must be a host name like example.com or an IP address';
/** Text fields shown in feeds, badges and the console, with the label their message uses. */
const TEXT_LABELS = { keyword: 'Keyword', json_path: 'JSON path', json_expected: 'Expected JSON value' } as const;
/** What read-only users see instead of a secret the monitor was configured with. */
const HIDDEN_SECRET = '(hidden)';

export const httpKind: Kind<HttpConfig> = {
  fields: HTTP_FIELDS,
  reportsHttpCode: true,

  validate(pick) {
    const problems: Record<string, string> = {};
    const config: HttpConfig = {};
    let target: { host: string; field: 'url' } | null = null;
    const url = String(pick('url') ?? '').trim();
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      problems.url = 'URL is required (http:// or https://)';
    }
    if (parsed && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') problems.url = 'URL must start with http:// or https://';
    if (parsed && (parsed.username || parsed.password)) problems.url = 'Put credentials in a header, not in the URL';
    // The URL parser lets `$(id)` or `a;b` through as a host name: hold it to the target rules.
    if (parsed && !problems.url && !normalizeTargetHost(parsed.hostname)) problems.url = URL_HOST_TEXT;
    if (parsed && !problems.url) target = { host: parsed.hostname.replace(/^\[|\]$/g, ''), field: 'url' };
    config.url = parsed?.href ?? url;
    config.method = (pick('method') ?? DEFAULT_HTTP_METHOD).toUpperCase();
    if (!METHODS.includes(config.method)) problems.method = `Method must be one of ${METHODS.join(', ')}`;
    config.headers = pick('headers') ?? {};
    for (const [h, v] of Object.entries(config.headers)) {
      if (!HEADER_NAME.test(h) || FORBIDDEN_HEADERS.has(h.toLowerCase()) || /[\r\n]/.test(String(v)) || hasControlCharacters(String(v)))
        problems.headers = `Header "${h}" is not allowed`;
    }
    config.body = pick('body') ?? null;
    config.accepted_status_codes = pick('accepted_status_codes') ?? [...DEFAULT_ACCEPTED_STATUS_CODES];
    if (!config.accepted_status_codes.every((c) => /^(\d{3}|\d{3}\s*-\s*\d{3}|[1-5]xx)$/i.test(c.trim())))
      problems.accepted_status_codes = 'Use codes like 200, 200-299 or 2xx';
    config.keyword = pick('keyword') ?? null;
    config.keyword_mode = pick('keyword_mode') ?? 'present';
    config.json_path = pick('json_path') ?? null;
    config.json_expected = pick('json_expected') ?? null;
    // Stored only when on: monitors without it (all older ones) read and export as before.
    if (pick('keyword_regex')) config.keyword_regex = true;
    if (config.keyword_regex && config.keyword) {
      const re = compileRegex(config.keyword);
      if (typeof re === 'string') problems.keyword = `Keyword is ${re}`;
    }
    config.header_assertions = pick('header_assertions') ?? null;
    const assertions = Object.entries(config.header_assertions ?? {});
    if (assertions.length > MAX_HEADER_ASSERTIONS) problems.header_assertions = `At most ${MAX_HEADER_ASSERTIONS} header assertions`;
    for (const [h, pattern] of assertions) {
      const compiled = headerPattern(String(pattern));
      if (!HEADER_NAME.test(h)) problems.header_assertions = `Header assertion "${h.slice(0, 100)}" is not a header name`;
      else if (hasControlCharacters(String(pattern)))
        problems.header_assertions = `Header assertion "${h}" may not hold control characters`;
      else if (typeof compiled === 'string') problems.header_assertions = `Header assertion "${h}": the pattern is ${compiled}`;
    }
    config.follow_redirects = pick('follow_redirects') ?? true;
    config.degraded_threshold_ms = pick('degraded_threshold_ms') ?? null;
    for (const [key, label] of Object.entries(TEXT_LABELS) as Array<[keyof typeof TEXT_LABELS, string]>) {
      const problem = plainTextProblem(label, config[key]);
      if (problem) problems[key] = problem;
    }
    return { config, problems, target };
  },

  check: httpChecker,

  async afterResult(r) {
    // A certificate seen by a successful https check warns like an ssl monitor's.
    if (r.outcome.status !== 'down') await certificateExpiring(r, undefined);
  },

  present(config, { secrets }) {
    // Header values and the request body carry the target's credentials (URLs may not): only
    // those who may change the monitor see them.
    const { headers, body } = config;
    return {
      url: config.url ?? null,
      method: config.method ?? null,
      headers: headers == null ? null : secrets ? headers : Object.fromEntries(Object.keys(headers).map((k) => [k, HIDDEN_SECRET])),
      body: body == null ? null : secrets ? body : HIDDEN_SECRET,
      accepted_status_codes: config.accepted_status_codes ?? null,
      keyword: config.keyword ?? null,
      keyword_mode: config.keyword_mode ?? null,
      json_path: config.json_path ?? null,
      json_expected: config.json_expected ?? null,
      follow_redirects: config.follow_redirects ?? null,
      degraded_threshold_ms: config.degraded_threshold_ms ?? null,
      keyword_regex: config.keyword_regex ?? null,
      header_assertions: config.header_assertions ?? null,
    };
  },

  publicTarget(config) {
    try {
      return new URL(config.url ?? '').hostname;
    } catch {
      return null;
    }
  },

  // An https URL's host and port (a plain http URL talks no TLS).
  tlsEndpoint(config) {
    try {
      const url = new URL(config.url ?? '');
      if (url.protocol !== 'https:') return null;
      return { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port: url.port ? Number(url.port) : DEFAULT_SSL_PORT };
    } catch {
      return null;
    }
  },
};
