// Validation of monitor input (create and update) into the stored shape. Texts are the ones
// the console shows; every target host passes the SSRF guard here too (DESIGN.md section 4).
import type { MonitorType } from '../../db/schema/monitoring.ts';
import { internalDnsName, literalTarget, TargetRefused, type PrivateTargets, type Resolver } from '../../engine/ssrf.ts';
import { DomainError } from '../errors.ts';
import { controlCharactersText, hasControlCharacters, plainTextProblem } from '../../../lib/plain-text.ts';
import { formatHostPort, normalizeTargetHost, parseHostPort } from '../../../lib/target-host.ts';
import { DEFAULT_SSL_WARNING_DAYS, DNS_RECORD_TYPES, type DnsRecordType, type MonitorConfig } from './monitor-config.ts';

export interface MonitorInput {
  name?: string;
  type?: MonitorType;
  company_id?: string | null;
  url?: string | null;
  method?: string | null;
  headers?: Record<string, string> | null;
  body?: string | null;
  accepted_status_codes?: string[] | null;
  keyword?: string | null;
  keyword_mode?: 'present' | 'absent' | null;
  json_path?: string | null;
  json_expected?: string | null;
  follow_redirects?: boolean | null;
  degraded_threshold_ms?: number | null;
  host?: string | null;
  port?: number | null;
  record_type?: string | null;
  resolver?: string | null;
  expected_values?: string[] | null;
  ssl_warning_days?: number[] | null;
  interval_seconds?: number;
  timeout_seconds?: number | null;
  confirmations?: number | null;
  is_public?: boolean;
}

export interface ValidMonitor {
  name: string;
  type: MonitorType;
  config: MonitorConfig;
  intervalSeconds: number;
  timeoutSeconds: number;
  confirmations: number;
  isPublic: boolean;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'accept-encoding']);
export const HOST_TEXT = 'Host must be a host name like db.example.com or an IP address';
export const URL_HOST_TEXT = 'URL host must be a host name like example.com or an IP address';
export const RESOLVER_TEXT = 'Resolver must be an IP address or host name, with an optional :port';
/** Text fields shown in feeds, badges and the console, with the label their message uses. */
const TEXT_LABELS = { keyword: 'Keyword', json_path: 'JSON path', json_expected: 'Expected JSON value' } as const;

export async function validateMonitor(input: MonitorInput, base: ValidMonitor | null, opts: { minInterval: number; allowPrivate: PrivateTargets; resolve?: Resolver }): Promise<ValidMonitor> {
  const fields: Record<string, string> = {};
  const type = (base?.type ?? input.type) as MonitorType;
  const name = (input.name ?? base?.name ?? '').trim();
  if (!name) fields.name = 'Name is required';
  const nameProblem = plainTextProblem('Name', input.name);
  if (nameProblem) fields.name = nameProblem;
  const intervalSeconds = input.interval_seconds ?? base?.intervalSeconds ?? Math.max(60, opts.minInterval);
  if (!Number.isInteger(intervalSeconds) || intervalSeconds < opts.minInterval) fields.interval_seconds = `Interval must be at least ${opts.minInterval} seconds`;
  if (intervalSeconds > 86_400) fields.interval_seconds = 'Interval must be at most 86400 seconds';
  const timeoutSeconds = input.timeout_seconds ?? base?.timeoutSeconds ?? Math.min(10, Math.max(1, intervalSeconds));
  if (timeoutSeconds < 1 || timeoutSeconds > 120) fields.timeout_seconds = 'Time-out must be between 1 and 120 seconds';
  const confirmations = input.confirmations ?? base?.confirmations ?? 2;
  if (confirmations < 1 || confirmations > 10) fields.confirmations = 'Confirmations must be between 1 and 10';
  const prev = base?.config ?? {};
  const pick = <K extends keyof MonitorInput & keyof MonitorConfig>(key: K): MonitorConfig[K] | undefined =>
    (input[key] !== undefined ? (input[key] ?? undefined) : prev[key]) as MonitorConfig[K] | undefined;
  const config: MonitorConfig = {};
  let targetHost: string | null = null;

  if (type === 'http') {
    const url = String(pick('url') ?? '').trim();
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      fields.url = 'URL is required (http:// or https://)';
    }
    if (parsed && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fields.url = 'URL must start with http:// or https://';
    if (parsed && (parsed.username || parsed.password)) fields.url = 'Put credentials in a header, not in the URL';
    // The URL parser lets `$(id)` or `a;b` through as a host name: hold it to the target rules.
    if (parsed && !fields.url && !normalizeTargetHost(parsed.hostname)) fields.url = URL_HOST_TEXT;
    if (parsed && !fields.url) targetHost = parsed.hostname.replace(/^\[|\]$/g, '');
    config.url = parsed?.href ?? url;
    config.method = (pick('method') ?? 'GET').toUpperCase();
    if (!METHODS.includes(config.method)) fields.method = `Method must be one of ${METHODS.join(', ')}`;
    config.headers = pick('headers') ?? {};
    for (const [h, v] of Object.entries(config.headers)) {
      if (!HEADER_NAME.test(h) || FORBIDDEN_HEADERS.has(h.toLowerCase()) || /[\r\n]/.test(String(v)) || hasControlCharacters(String(v))) fields.headers = `Header "${h}" is not allowed`;
    }
    config.body = pick('body') ?? null;
    config.accepted_status_codes = pick('accepted_status_codes') ?? ['200-299'];
    if (!config.accepted_status_codes.every((c) => /^(\d{3}|\d{3}\s*-\s*\d{3}|[1-5]xx)$/i.test(c.trim()))) fields.accepted_status_codes = 'Use codes like 200, 200-299 or 2xx';
    config.keyword = pick('keyword') ?? null;
    config.keyword_mode = pick('keyword_mode') ?? 'present';
    config.json_path = pick('json_path') ?? null;
    config.json_expected = pick('json_expected') ?? null;
    config.follow_redirects = pick('follow_redirects') ?? true;
    config.degraded_threshold_ms = pick('degraded_threshold_ms') ?? null;
    for (const [key, label] of Object.entries(TEXT_LABELS) as Array<[keyof typeof TEXT_LABELS, string]>) {
      const problem = plainTextProblem(label, config[key]);
      if (problem) fields[key] = problem;
    }
  } else if (type === 'tcp' || type === 'ssl') {
    const host = String(pick('host') ?? '').trim();
    const normalized = normalizeTargetHost(host);
    config.host = normalized ?? host;
    config.port = pick('port') ?? (type === 'ssl' ? 443 : undefined);
    if (!host) fields.host = 'Host is required';
    else if (!normalized) fields.host = HOST_TEXT;
    else targetHost = normalized;
    if (!config.port || config.port < 1 || config.port > 65535) fields.port = 'Port must be between 1 and 65535';
    if (type === 'tcp') config.degraded_threshold_ms = pick('degraded_threshold_ms') ?? null;
    if (type === 'ssl') {
      config.ssl_warning_days = pick('ssl_warning_days') ?? DEFAULT_SSL_WARNING_DAYS;
      if (config.ssl_warning_days.some((d) => !Number.isInteger(d) || d < 1 || d > 365)) fields.ssl_warning_days = 'Warning days must be whole days from 1 to 365';
    }
  } else if (type === 'dns') {
    const host = String(pick('host') ?? '').trim();
    const name = normalizeTargetHost(host, { underscore: true });
    config.host = name ?? host;
    // A query name, never an address (PTR names are written 1.0.0.127.in-addr.arpa).
    if (!name || name.includes(':') || /^[\d.]+$/.test(name)) fields.host = 'A DNS name is required, e.g. example.com';
    config.record_type = (pick('record_type') ?? 'A').toUpperCase() as DnsRecordType;
    if (!DNS_RECORD_TYPES.includes(config.record_type)) fields.record_type = `Record type must be one of ${DNS_RECORD_TYPES.join(', ')}`;
    const resolver = pick('resolver')?.trim() || null;
    const server = resolver ? parseHostPort(resolver) : null;
    config.resolver = server ? formatHostPort(server) : resolver;
    if (resolver && !server) fields.resolver = RESOLVER_TEXT;
    if (server) targetHost = server.host;
    config.expected_values = pick('expected_values') ?? [];
    if (config.expected_values.some((v) => plainTextProblem('Expected values', v))) fields.expected_values = controlCharactersText('Expected values');
    const internal = fields.host ? null : internalDnsName(config.host, opts.allowPrivate);
    if (internal) fields.host = internal;
  }
  if (Object.keys(fields).length) throw new DomainError('validation', Object.values(fields)[0], { fields });

  if (targetHost) {
    try {
      // Literal addresses only: a host name is resolved and judged when checked, with one answer
      // for "blocked" and "does not resolve", so creating monitors cannot probe internal names.
      literalTarget(targetHost, opts.allowPrivate);
    } catch (e) {
      if (e instanceof TargetRefused) {
        const field = type === 'http' ? 'url' : type === 'dns' ? 'resolver' : 'host';
        throw new DomainError('validation', e.message, { fields: { [field]: e.message } });
      }
    }
  }
  return { name: name.slice(0, 200), type, config, intervalSeconds, timeoutSeconds, confirmations, isPublic: input.is_public ?? base?.isPublic ?? false };
}
