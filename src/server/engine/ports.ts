// What the engine needs from the rest of the process, as small interfaces: the domain implements
// them and services.ts wires them in, so the engine never imports the domain.
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { DbScope } from '../db/scope.ts';
import type { Notify } from '../notify/notify.ts';
import type { Resolver } from '../net/ssrf.ts';

/** The monitor an automatic incident is about. */
export interface IncidentMonitor {
  id: string;
  company_id: string;
  name: string;
  is_public: boolean;
  /** Its admin marked it critical: its incident opens as a major outage */
  is_critical: boolean;
}

/** Where a monitor checked from several locations is down (slugs), and the alert's words for it. */
export interface DownWhere {
  /** "from Frankfurt and Virginia, 2 of 3 locations; Singapore sees it up" */
  text: string;
  down: string[];
  up: string[];
  absent: string[];
}

/** The dependents of a monitor failing with it (engine/dependencies.ts), named by its incident. */
export interface Dependents {
  count: number;
  ids: string[];
  names: string[];
}

export interface OpenIncident {
  id: string;
  startedAt: number;
}

/**
 * Opening and resolving a monitor's automatic incident (the incidents domain owns both). Each
 * works inside the result writer's transaction and sends its notification through `notify`.
 */
export interface MonitorIncidents {
  /** The open automatic incident of each of these monitors that has one. */
  openOf(tx: DbScope, monitorIds: string[]): Promise<Map<string, OpenIncident>>;
  /** Opens one from `startedAt`; null when another one is open already. */
  open(
    tx: DbScope,
    notify: Notify,
    m: IncidentMonitor,
    startedAt: number,
    error: string | null,
    now: number,
    where?: DownWhere,
    dependents?: Dependents,
  ): Promise<OpenIncident | null>;
  resolve(tx: DbScope, notify: Notify, m: IncidentMonitor, incident: OpenIncident, resolvedAt: number, now: number): Promise<void>;
}

/** The parts of the process's services an engine runs on (domain/context.ts Services has them all). */
export interface EngineHost {
  db: Db;
  config: Pick<Config, 'allowPrivateTargets' | 'dnsResolvers'> &
    Partial<
      Pick<
        Config,
        | 'canaryTargets'
        | 'canaryIntervalSeconds'
        | 'checkLeaseMarginSeconds'
        | 'maxChecksPerHostPerMinute'
        | 'rdapBootstrapFile'
        | 'rdapBaseUrls'
      >
    > &
    Partial<Pick<Config, 'sessionSecret' | 'monitorSecretsKey'>>;
  now(): number;
  /** Set by services.ts; an engine without it cannot record incidents. */
  monitorIncidents?: MonitorIncidents;
  monitoring?: { resolve?: Resolver; extraCa?: string[] };
  onShutdown?: Array<() => Promise<void>>;
}
