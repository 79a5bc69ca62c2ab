// What a monitor kind is: everything about it in one module (engine/kinds/<kind>.ts), registered
// in kinds/index.ts. The domain validates and presents monitors through it and the engine checks
// and warns through it, so neither holds an `if (type === …)` of its own.
import type { MonitorRow } from '../../db/repositories/monitors-repo.ts';
import type { CheckStatus } from '../../db/schema/monitoring.ts';
import type { NotificationDraft } from '../../notify/notify.ts';
import type { Checker, CheckOutcome } from '../checkers/types.ts';
import type { PrivateTargets } from '../../net/ssrf.ts';
import type { PlanLimits } from '../../../lib/plans.ts';

export interface Kind<C extends object> {
  /** The config fields as the API names them, in the order the monitor view lists them. */
  fields: readonly (keyof C & string)[];
  /**
   * Config fields holding credentials (passwords): stored sealed (secret-box.ts), opened only for
   * the check, and presented as a mask (`presentSecret`), never as the value.
   */
  secretFields?: readonly (keyof C & string)[];
  /** Heartbeat monitors are called by the tenant's job (a push URL) instead of probing a target. */
  heartbeat?: boolean;
  /**
   * Its status is computed from other monitors (no network): each result is confirmed at once and
   * only the built-in engine computes it (it reads their state from the database).
   */
  derived?: boolean;
  /** The least check interval its targets bear (e.g. RDAP servers' rate limits); the platform's otherwise */
  minIntervalSeconds?: number;
  /**
   * Its checks need a browser: the built-in engine has one (CHROMIUM_PATH), a probe location only
   * once one of its probes reported the `browser` capability. Validation refuses other locations
   * with a sentence saying so.
   */
  needsBrowser?: boolean;
  /** How many active (not paused, not archived) monitors of the kind a company's plan allows; absent: only the plan's total */
  planLimit?(plan: PlanLimits): number;
  /** Its checks answer with an HTTP status code (the branded sign-in list shows it; other kinds show the state). */
  reportsHttpCode?: boolean;
  /** The config to store: each field from the input, else the previous config, else the default. */
  validate(read: ConfigReader<C>, opts: { allowPrivate: PrivateTargets }): ValidatedConfig<C>;
  check: Checker<C>;
  /** Warnings about a result outside maintenance; answers the state columns it keeps. */
  afterResult?(r: KindResult<C>): Promise<Partial<Pick<MonitorRow, 'last_answers'>> | void>;
  /** The config fields of the monitor view (null when unset); `secrets`: the viewer may change the monitor. */
  present(config: C, viewer: { secrets: boolean }): Record<string, unknown>;
  /** Monitor view fields read from the state it keeps (`last_answers`): a domain's registration */
  stateView?(lastAnswers: string | null): Record<string, unknown>;
  /** What a status page visitor reads as the monitor's target (null: the monitor's name). */
  publicTarget(config: C): string | null;
  /**
   * The TLS endpoint its checks talk to, which the security suite's TLS analysis grades (null: not
   * with this config, e.g. a plain http URL). Kinds that never talk TLS leave it out.
   */
  tlsEndpoint?(config: C): TlsEndpoint | null;
}

export interface TlsEndpoint {
  /** Lower case, without brackets around an IPv6 address */
  host: string;
  port: number;
  /** The kind's own expiry warning days (the analysis's default otherwise) */
  thresholds?: number[];
}

/** A field of the input (null clears it), else the previous config's. */
export type ConfigReader<C> = <K extends keyof C>(key: K) => C[K] | undefined;

export interface ValidatedConfig<C> {
  config: C;
  /** Field → the console's text; empty when valid */
  problems: Record<string, string>;
  /** A target the SSRF guard judges now when it is a literal address, and the field to blame */
  target: { host: string; field: keyof C & string } | null;
}

export interface KindResult<C> {
  monitor: Pick<MonitorRow, 'id' | 'name' | 'company_id' | 'last_answers'>;
  config: C;
  outcome: CheckOutcome;
  checkedAt: number;
  /** The confirmed status this result changed the monitor to (null: unchanged) */
  changedTo: CheckStatus | null;
  /** Since when the monitor has its confirmed status */
  since: number;
  notify(draft: NotificationDraft): Promise<void>;
  /** Keeps a run's screenshots (browser: check_screenshots, in the result's transaction); answers their ids in order */
  keepScreenshots?(shots: ReadonlyArray<{ index: number; png: Buffer }>): Promise<string[]>;
}

/** The view of fields that need no masking: each as stored, null when unset. */
export function presentFields<C extends object>(fields: readonly (keyof C & string)[], config: C): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, config[f] ?? null]));
}
