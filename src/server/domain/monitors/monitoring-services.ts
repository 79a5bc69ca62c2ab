// What the monitoring area adds to Services: the engine of this process (when it runs checks)
// and the network seams a self-hoster or a test may set (resolver, extra trusted CAs).
import type { Engine } from '../../engine/scheduler.ts';
import type { Resolver } from '../../net/ssrf.ts';

export interface MonitoringServices {
  engine?: Engine;
  /** Host name resolution used by the SSRF guard at create time and by the checkers */
  resolve?: Resolver;
  extraCa?: string[];
  /** Port of an asset's HTTPS when not 443: loopback tests, whose servers listen on free ports */
  assetTlsPort?: (hostname: string) => number | undefined;
  /** How many saves are checked at once (default IMMEDIATE_CHECK_LIMITS) */
  immediateChecks?: ImmediateCheckLimits;
}

/** How many saves are checked at once: per monitor once per window, per company `perCompany` per window. */
export interface ImmediateCheckLimits {
  windowMs: number;
  perCompany: number;
}
