// Validation of monitor input (create and update) into the stored shape. Texts are the ones
// the console shows; the fields every monitor has are checked here, its kind's fields by its
// kind module (engine/kinds/), and every literal target address passes the SSRF guard (DESIGN.md
// section 4).
import { normalizeDestination } from '../../../lib/destination-host.ts';
import type { MonitorType } from '../../db/schema/monitoring.ts';
import { KINDS, type ConfigReader } from '../../engine/kinds/index.ts';
import { sealSecrets, type SecretsKey } from '../../engine/kinds/secret-box.ts';
import { literalTarget, TargetRefused, type PrivateTargets, type Resolver } from '../../net/ssrf.ts';
import { DomainError } from '../errors.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { MAX_PARENTS } from '../../../lib/monitor-kinds.ts';
import { effectiveList, quorumProblem, slugListProblem } from '../../../lib/monitor-locations.ts';
import type { LocationRef } from './locations.ts';

/** The fields every monitor has; the kind's own fields come along by their API names. */
export interface MonitorInput {
  name?: string;
  type?: MonitorType;
  company_id?: string | null;
  interval_seconds?: number;
  timeout_seconds?: number | null;
  confirmations?: number | null;
  /** null clears it */
  sla_target?: number | null;
  is_public?: boolean;
  is_critical?: boolean;
  /** location slugs; null: the company's default set */
  locations?: string[] | null;
  /** locations that must see it down; null: a majority of the online ones */
  quorum?: number | null;
  /** ids of the monitors it depends on; null clears them */
  parents?: string[] | null;
  [kindField: string]: unknown;
}

export interface ValidMonitor {
  name: string;
  type: MonitorType;
  /** The kind's config, as stored in monitors.config */
  config: object;
  intervalSeconds: number;
  timeoutSeconds: number;
  confirmations: number;
  slaTarget: number | null;
  isPublic: boolean;
  /** Its outage alone is a major outage of the status page */
  isCritical: boolean;
  /** Its own location slugs; null: the company's default set */
  locations: string[] | null;
  quorum: number | null;
  /** Ids of the monitors it depends on (links.ts checks them against the company's monitors) */
  parents: string[];
  /** Its effective set holds `local`: the built-in engine checks it (validateMonitor's answer only) */
  runLocal?: boolean;
  /** The host its checks connect to, normalised, and the field naming it (validateMonitor's answer only) */
  destination?: { host: string; field: string } | null;
}

/** A target below 50 % promises nothing; 100 % leaves no error budget at all. */
export const SLA_TARGET_MIN = 50;
export const SLA_TARGET_MAX = 99.999;

export async function validateMonitor(
  input: MonitorInput,
  base: ValidMonitor | null,
  opts: {
    minInterval: number;
    allowPrivate: PrivateTargets;
    resolve?: Resolver;
    /** Seals the kind's secret fields (engine/kinds/secret-box.ts) */
    secretsKey: SecretsKey;
    /** The locations the monitor's company sees and its default set; absent: locations are not judged (Test now) */
    locations?: {
      known: ReadonlyMap<string, LocationRef>;
      companyDefault: string[] | null;
      /** the slugs a browser monitor may name (locations.ts browserSlugs) */
      browsers: ReadonlySet<string>;
    };
  },
): Promise<ValidMonitor> {
  const fields: Record<string, string> = {};
  const type = (base?.type ?? input.type) as MonitorType;
  const name = (input.name ?? base?.name ?? '').trim();
  if (!name) fields.name = 'Name is required';
  const nameProblem = plainTextProblem('Name', input.name);
  if (nameProblem) fields.name = nameProblem;
  const kindFloor = KINDS[type]?.minIntervalSeconds ?? 0;
  const minInterval = Math.max(opts.minInterval, kindFloor);
  const intervalSeconds = input.interval_seconds ?? base?.intervalSeconds ?? Math.max(60, minInterval);
  if (!Number.isInteger(intervalSeconds) || intervalSeconds < minInterval)
    fields.interval_seconds =
      kindFloor > opts.minInterval
        ? `Interval must be at least ${kindFloor} seconds for ${type} monitors (their servers limit how often they are asked)`
        : `Interval must be at least ${opts.minInterval} seconds`;
  if (intervalSeconds > 86_400) fields.interval_seconds = 'Interval must be at most 86400 seconds';
  const timeoutSeconds = input.timeout_seconds ?? base?.timeoutSeconds ?? Math.min(10, Math.max(1, intervalSeconds));
  if (timeoutSeconds < 1 || timeoutSeconds > 120) fields.timeout_seconds = 'Time-out must be between 1 and 120 seconds';
  const derived = KINDS[type]?.derived === true;
  // A derived status (a group's) is made of confirmed ones: confirming it again only delays it.
  const confirmations = derived ? 1 : (input.confirmations ?? base?.confirmations ?? 2);
  if (confirmations < 1 || confirmations > 10) fields.confirmations = 'Confirmations must be between 1 and 10';
  const slaTarget = input.sla_target !== undefined ? input.sla_target : (base?.slaTarget ?? null);
  if (
    slaTarget !== null &&
    !(slaTarget >= SLA_TARGET_MIN && slaTarget <= SLA_TARGET_MAX && Math.round(slaTarget * 1000) === slaTarget * 1000)
  )
    fields.sla_target = `SLA target must be between ${SLA_TARGET_MIN} and ${SLA_TARGET_MAX} % (at most 3 decimals)`;
  // A derived status is computed where the database is: by the built-in engine alone.
  const named = input.locations !== undefined ? input.locations : (base?.locations ?? null);
  const locations = derived ? ['local'] : named;
  const quorum = derived ? null : input.quorum !== undefined ? input.quorum : (base?.quorum ?? null);
  const parents =
    input.parents !== undefined ? [...new Set((input.parents ?? []).map((p) => String(p).trim()).filter(Boolean))] : (base?.parents ?? []);
  if (parents.length > MAX_PARENTS) fields.parents = `A monitor depends on at most ${MAX_PARENTS} others`;
  let allowPrivate = opts.allowPrivate;
  let runLocal: boolean | undefined;
  if (opts.locations) {
    const { known, companyDefault, browsers } = opts.locations;
    const listProblem = locations === null ? null : slugListProblem(locations, new Set(known.keys()));
    if (listProblem) fields.locations = listProblem;
    const effective = effectiveList(locations, companyDefault);
    const qProblem = listProblem ? null : quorumProblem(quorum, effective.length);
    if (qProblem) fields.quorum = qProblem;
    // Browser journeys run where a browser is: the engine, or a location one of whose probes has Chromium.
    const noBrowser = KINDS[type]?.needsBrowser && !listProblem ? effective.find((s) => known.has(s) && !browsers.has(s)) : undefined;
    if (noBrowser)
      fields.locations = `Location "${noBrowser}" has no probe that runs browser checks: start its probe on a machine with Chromium (CHROMIUM_PATH), or choose another location`;
    runLocal = effective.includes('local');
    // Checked from private locations alone, the target is the company's own network: each such
    // location's probe guards with its operator's ALLOW_PRIVATE_TARGETS. With any public
    // location or the built-in engine in the set, the platform's rule applies.
    if (!listProblem && effective.every((s) => known.get(s)?.private === true)) allowPrivate = true;
  }
  const prev = (base?.config ?? {}) as Record<string, unknown>;
  // A field given (null clears it) wins over the stored one.
  const read: ConfigReader<Record<string, unknown>> = (key) => (input[key] !== undefined ? (input[key] ?? undefined) : prev[key]);
  const kind = KINDS[type];
  const checked = kind.validate(read, { allowPrivate });
  const { problems, target } = checked;
  // Credentials are sealed here, before anything stores them; a stored one comes back as it is.
  const config = kind.secretFields ? sealSecrets(kind.secretFields, checked.config, prev, opts.secretsKey) : checked.config;
  Object.assign(fields, problems);
  if (Object.keys(fields).length) throw new DomainError('validation', Object.values(fields)[0], { fields });

  if (target) {
    try {
      // Literal addresses only: a host name is resolved and judged when checked, with one answer
      // for "blocked" and "does not resolve", so creating monitors cannot probe internal names.
      literalTarget(target.host, allowPrivate);
    } catch (e) {
      if (e instanceof TargetRefused) throw new DomainError('validation', e.message, { fields: { [target.field]: e.message } });
    }
  }
  return {
    name: name.slice(0, 200),
    type,
    config,
    intervalSeconds,
    timeoutSeconds,
    confirmations,
    slaTarget,
    isPublic: input.is_public ?? base?.isPublic ?? false,
    isCritical: input.is_critical ?? base?.isCritical ?? false,
    locations,
    quorum,
    parents,
    runLocal,
    destination: target ? { host: normalizeDestination(target.host), field: target.field } : null,
  };
}
