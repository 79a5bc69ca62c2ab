// What a checker receives and answers. One file per monitor kind, registered in checkers/index.ts.
import type { CheckStatus, MonitorType } from '../../db/schema/monitoring.ts';
import type { PrivateTargets, Resolver } from '../ssrf.ts';
import type { MonitorConfig } from '../../domain/monitors/monitor-config.ts';

export interface Timings {
  dns?: number;
  connect?: number;
  tls?: number;
  ttfb?: number;
  total: number;
}

export interface CheckOutcome {
  status: Exclude<CheckStatus, 'unknown'>;
  responseTimeMs: number | null;
  httpCode: number | null;
  error: string | null;
  timings: Timings | null;
  certExpiresAt: number | null;
  /** ssl: certificate problem or days left; dns: the answers (to notice changes) */
  detail?: { certValid?: boolean; certProblem?: string; answers?: string[] };
}

export interface CheckTarget {
  id: string;
  type: MonitorType;
  config: MonitorConfig;
  timeoutMs: number;
  lastPushAt: number | null;
  intervalMs: number;
  createdAt: number;
}

export interface CheckEnv {
  now(): number;
  allowPrivateTargets: PrivateTargets;
  /** Host name lookups of this check (c-ares, bounded per company: see dns-lookup.ts) */
  resolve: Resolver;
  /** DNS servers asked by DNS checks without a resolver of their own (DNS_RESOLVERS; unset: the system's) */
  dnsServers?: readonly string[];
  /** Extra trusted CA certificates (PEM): tests and self-hosters with a private CA */
  extraCa?: string[];
  limits: CheckLimits;
}

export interface CheckLimits {
  maxBodyBytes: number;
  maxRedirects: number;
  maxHeaderBytes: number;
}

export const DEFAULT_LIMITS: CheckLimits = { maxBodyBytes: 1024 * 1024, maxRedirects: 5, maxHeaderBytes: 16 * 1024 };

export type Checker = (target: CheckTarget, env: CheckEnv, signal: AbortSignal) => Promise<CheckOutcome>;

export function failed(error: string, timings: Timings | null = null, httpCode: number | null = null): CheckOutcome {
  return { status: 'down', responseTimeMs: timings?.total ?? null, httpCode, error, timings, certExpiresAt: null };
}

export const round = (ms: number): number => Math.round(ms * 100) / 100;
