// What a scan check receives and answers. Checks are pure network probes of one verified host:
// they never touch the database (the runner in domain/security/scan-runner.ts reads and writes).
import type { FindingSeverity } from '../../db/schema/security.ts';
import type { PrivateTargets, Resolver } from '../../net/ssrf.ts';
import type { IncomingHttpHeaders } from 'node:http';
import type { Repository } from 'retire/lib/types.js';

/** One problem a check saw (stored through securityFindingsRepo.record with source 'scan'). */
export interface ScanFinding {
  /** Stable per problem, e.g. 'header.csp', 'path./.git/HEAD', 'port.redis', 'js.jquery@1.8.3' */
  key: string;
  severity: FindingSeverity;
  cvss?: number | null;
  title: string;
  /** What was seen: a header value, a response's first bytes, a library, version and file */
  evidence: string;
}

/** A retire.js jsrepository (see retire-repository.ts) */
export type RetireRepository = Repository;

export interface ScanOptions {
  /** Requests (HTTP and TCP connects) per second to one host; default 5 */
  ratePerSecond: number;
  /** Per request: connect + answer */
  requestTimeoutMs: number;
  /** Whole scan */
  deadlineMs: number;
  /** Origins to try for the host's pages, first that answers wins; default https://host then http://host */
  origins?: string[];
  /** Risky services probed, service → port; default RISKY_PORTS (tests map a loopback listener) */
  ports?: Record<string, number>;
  /** TCP connect time-out per port */
  portTimeoutMs: number;
  /** Scripts fetched from the host's page and their size cap */
  maxScripts: number;
  maxScriptBytes: number;
}

export const DEFAULT_SCAN_OPTIONS: ScanOptions = {
  ratePerSecond: 5,
  requestTimeoutMs: 10_000,
  deadlineMs: 120_000,
  portTimeoutMs: 1_500,
  maxScripts: 10,
  maxScriptBytes: 2 * 1024 * 1024,
};

export interface ScanEnv {
  allowPrivateTargets: PrivateTargets;
  resolve: Resolver;
  options: ScanOptions;
  retire: RetireRepository;
  /** Open findings of the host's TLS analysis (source 'ssl'), reported again as scan findings */
  sslFindings: ScanFinding[];
}

/** What each check is given for one host. */
export interface ScanContext {
  hostname: string;
  env: ScanEnv;
  fetcher: PoliteFetcher;
  /** The host's front page (fetched once per scan, shared by the checks); null when no origin answered */
  home(): Promise<HostPage | null>;
  signal: AbortSignal;
}

export interface ScanCheck {
  /** Shown in the scan's notes when the check could not run */
  label: string;
  run(ctx: ScanContext): Promise<ScanFinding[]>;
}

export interface FetchedResponse {
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** The first `maxBytes` of the (decoded) body */
  body: Buffer;
}

/** The front page the header, cookie and library checks share. */
export interface HostPage extends FetchedResponse {
  origin: string;
}

export interface PoliteFetcher {
  /** GET `url` (on the scanned host only), reading at most `maxBytes`; same-host redirects followed up to `maxRedirects`. */
  get(url: string, opts: { maxBytes: number; maxRedirects?: number }): Promise<FetchedResponse>;
  /** Requests made so far (HTTP and TCP), for the scan's notes */
  count(): number;
  /** Paces one more request to the host (the port probes' connects count too). */
  pace(): Promise<void>;
}
