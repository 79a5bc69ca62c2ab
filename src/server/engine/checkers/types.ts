// What a checker receives and answers. Each monitor kind's module (engine/kinds/) names its checker.
import type { CheckStatus, MonitorType } from '../../db/schema/monitoring.ts';
import type { PrivateTargets, Resolver } from '../../net/ssrf.ts';
import type { RdapDirectory } from '../../net/rdap-bootstrap.ts';
import type { StepResult } from '../kinds/synthetic-run.ts';
import type { SyntheticRun } from '../kinds/synthetic-run.ts';

export interface Timings {
  dns?: number;
  connect?: number;
  tls?: number;
  ttfb?: number;
  total: number;
  /** api_flow and browser: each step's time (synthetic-run.ts stepTimingKey), charted like phases */
  [step: `step_${number}`]: number;
}

export interface CheckOutcome {
  status: Exclude<CheckStatus, 'unknown'>;
  responseTimeMs: number | null;
  httpCode: number | null;
  error: string | null;
  timings: Timings | null;
  certExpiresAt: number | null;
  /** https and ssl: the certificate's issuer and subject names (checkers/certificate.ts) */
  certIssuer?: string | null;
  certSubject?: string | null;
  /** ssl: certificate problem or days left; dns: the answers (to notice changes); domain: its registration */
  detail?: {
    certValid?: boolean;
    certProblem?: string;
    answers?: string[];
    registration?: DomainFacts;
    /** api_flow and browser: what the run saw (test runs answer it; afterResult keeps it) */
    run?: SyntheticRun;
    /** browser: the PNGs of the failing step and of `screenshot` steps (afterResult stores them) */
    screenshots?: Array<{ index: number; png: Buffer }>;
  };
}

/** What a domain check read from the registry (RDAP). */
export interface DomainFacts {
  expiresAt: number | null;
  registrar: string | null;
  /** EPP status values as RDAP spells them ("client hold"), sorted */
  status: string[];
}

/** A group's child as its check sees it. */
export interface MemberStatus {
  id: string;
  name: string;
  status: CheckStatus;
  /** Paused or archived: counts neither way */
  inactive: boolean;
}

/** A monitor to check; `C` is the config its kind stores (fields may be missing in old rows). */
export interface CheckTarget<C = object> {
  id: string;
  type: MonitorType;
  config: C;
  timeoutMs: number;
  lastPushAt: number | null;
  intervalMs: number;
  createdAt: number;
}

export interface CheckEnv {
  now(): number;
  allowPrivateTargets: PrivateTargets;
  /** Host name lookups of this check (c-ares, bounded per company: see net/dns-lookup.ts) */
  resolve: Resolver;
  /** DNS servers asked by DNS checks without a resolver of their own (DNS_RESOLVERS; unset: the system's) */
  dnsServers?: readonly string[];
  /** Extra trusted CA certificates (PEM): tests and self-hosters with a private CA */
  extraCa?: string[];
  /** The state of other monitors (group checks read their children); absent where there is no database (probes) */
  memberStatuses?(ids: readonly string[]): Promise<MemberStatus[]>;
  /** Which RDAP server answers for a domain (domain checks); unset: the shipped IANA bootstrap */
  rdap?: RdapDirectory;
  limits: CheckLimits;
  /**
   * The opened values of the company's secrets the check's steps name (api_flow, browser), bound
   * to the monitor's company; a name the company has no secret for is left out. Absent: none.
   */
  secrets?(names: readonly string[]): Promise<Record<string, string>>;
  /**
   * Told each step's result as soon as it is known (api_flow, browser): the console's Run now
   * shows a journey's steps while it runs. Only test runs pass it.
   */
  onStep?(step: StepResult): void;
}

export interface CheckLimits {
  maxBodyBytes: number;
  maxRedirects: number;
  maxHeaderBytes: number;
}

export const DEFAULT_LIMITS: CheckLimits = { maxBodyBytes: 1024 * 1024, maxRedirects: 5, maxHeaderBytes: 16 * 1024 };

export type Checker<C = object> = (target: CheckTarget<C>, env: CheckEnv, signal: AbortSignal) => Promise<CheckOutcome>;

/**
 * A check that failed without an answer (refused, timed out, not resolved, blocked): no response
 * time, as it would read as how fast the target answered. `timings` keeps the phases it went
 * through and how long it took to fail.
 */
export function failed(error: string, timings: Timings | null = null, httpCode: number | null = null): CheckOutcome {
  return { status: 'down', responseTimeMs: null, httpCode, error, timings, certExpiresAt: null };
}

export const round = (ms: number): number => Math.round(ms * 100) / 100;
