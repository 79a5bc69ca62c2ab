// What every service verb receives: who is acting, on which host, and the process's services.
// Tenant and role come only from the server-side session (never from headers, query or body).
import type { Role } from '../../lib/permissions.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { MonitorIncidents } from '../engine/ports.ts';
import type { TelemetryServices } from '../telemetry/service.ts';

export interface Actor {
  userId: string;
  email: string;
  fullName: string;
  userType: 1 | 2 | 3;
  role: Role;
  /** null for super admins */
  companyId: string | null;
  /** refresh-token family: identifies the login session (`apitoken:<id>` for an API token) */
  sessionId: string;
  /** set when the request authenticated with an API token instead of a session */
  apiToken?: { id: string; scope: 'read' | 'write' };
  /** issued-at / expiry of the access token, seconds */
  iat: number;
  exp: number;
}

/**
 * What this process keeps in memory between requests, per services object: the status pages'
 * snapshots, the page-access and custom-domain memos, the throttles and flood guards, the SMTP
 * transport. Per process because each is a cache of the database, a guard of this process's own
 * work, or a handle on something shared (the security limits count in the database,
 * domain/auth/throttle.ts); per services object, not per module, so two services in one process
 * (tests, several "servers") share nothing, and a test reads or sets a part here. Each area declares its part beside its code (`declare module
 * '../context.ts'`: the areas import this file, so it cannot import them); createServices
 * (services.ts, through process-state.ts) makes every part once, with the services object.
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty here, the areas add its members (above)
export interface ProcessState {}

/** Checks stored of one kind and status (checks_total's labels beside the location) */
export interface ProbeCheckCount {
  kind: string;
  status: string;
  n: number;
}

/** A drainer of the probe inbox that runs elsewhere (domain/probes/inbox.ts kickInbox) */
export interface ProbeInboxDrainer {
  /** Results landed: drain (at once, without waiting) */
  kick(): void;
  /** Resolves once everything landed before this call is stored (tests, the sweep job) */
  drained(): Promise<void>;
}

export interface Services {
  config: Config;
  db: Db;
  /** This process's caches, throttles and mail transport (see ProcessState) */
  state: ProcessState;
  /** Milliseconds since the epoch; injected so tests can move time. */
  now(): number;
  /** Set by main.ts once migrations ran and the database answered. */
  ready: boolean;
  version: string;
  /** Run in order at shutdown, before the database closes (engine, batch writers, ...). */
  onShutdown?: Array<() => Promise<void>>;
  // Areas add their typed services below (engine, telemetry, mail, ...).
  /** Check engine of this process and its network seams (monitoring area) */
  monitoring?: import('./monitors/monitoring-services.ts').MonitoringServices;
  /** How the engine opens and resolves monitors' incidents (services.ts sets incidents/automatic.ts) */
  monitorIncidents?: MonitorIncidents;
  /** Span writer and ingest limiter (created on first use by telemetry/service.ts telemetryOf) */
  telemetry?: TelemetryServices;
  /** Test seams of the domain checks (security/domains): the MTA-STS policy host's port (443 otherwise) */
  securityDomains?: { mtaStsPort?: number };
  /**
   * What a probe delivery call does once its results are in the inbox; unset: kick this process's
   * drainer. The probe ingest thread (http/probe-ingest-thread.ts) tells the main thread instead.
   */
  probeInboxLanded?: () => void;
  /**
   * Where this process's probe inbox is drained when not on its own event loop: on PostgreSQL the
   * platform drains in a thread of its own (jobs/probe-drain.ts), so storing the probes' results
   * never pauses the status page's requests. Unset: kickInbox drains here.
   */
  probeInboxDrainer?: ProbeInboxDrainer;
  /**
   * Where the drain counts what it stored (checks_total), instead of this thread's registry: the
   * drain thread's counts go to the main thread, whose /metrics is scraped.
   */
  countProbeChecks?: (label: string, counts: ProbeCheckCount[]) => void;
  /**
   * Where a delivery call's batch is taken (ids claimed, results into the inbox) instead of here:
   * the probe ingest thread on SQLite hands it to the main thread, the database's one writer.
   */
  probeResultsVia?: (
    presented: string | null,
    input: import('./probes/result-batch.ts').ProbeResultsInput,
  ) => Promise<import('./probes/result-batch.ts').ProbeResultsAnswer>;
  /** The console's live streams of this process (created on first use by live/service.ts) */
  live?: import('./live/hub.ts').LiveHub;
  /** Where the security suite fetches /.well-known/ proofs from (tests: loopback ports) */
  securityVerification?: import('../security/assets/verify.ts').VerificationSeams;
  /** Vulnerability scan settings replacing the defaults (tests: loopback origins, a port map, a faster rate) */
  scanOverrides?: Partial<import('../security/scans/types.ts').ScanOptions>;
  /**
   * The evidence panel of a company's incident (issue 33, item 1), read by the language model's
   * summaries (incidents/summary); services.ts wires the evidence builder's store. Unset: no evidence.
   */
  loadEvidence?: (companyId: string, incidentId: string) => Promise<import('../../lib/incident-evidence.ts').IncidentEvidence | null>;
}

export interface Ctx {
  services: Services;
  actor: Actor | null;
  /** Host header without port, lower-cased */
  host: string;
  ip: string;
  userAgent: string;
}
