// Domain registration checks: the registry's RDAP server (found through the IANA bootstrap,
// security/domains/rdap.ts) answers the domain's expiry, registrar and EPP status. Down when the
// registration has expired or the registry holds no data for it; degraded inside the smallest
// warning threshold and while a status takes the domain out of the DNS or towards deletion.
import { DAY_MS } from '../../../lib/timeline.ts';
import { configuredRdapDirectory } from '../../net/rdap-bootstrap.ts';
import { lookupRegistration } from '../../security/domains/rdap.ts';
import type { GetPhases } from '../../security/domains/guarded-get.ts';
import { failed, round, type Checker, type DomainFacts, type Timings } from './types.ts';

/** What a domain monitor stores (engine/kinds/domain.ts validates it). */
export interface DomainConfig {
  domain?: string;
  /** Days before expiry at which a warning goes out */
  domain_warning_days?: number[];
}

/**
 * EPP statuses (RFC 5731, as RDAP spells them, RFC 8056) under which the domain does not work
 * or is about to go: a hold removes it from the zone, the others come after expiry.
 */
export const TROUBLE_STATUSES: Readonly<Record<string, string>> = {
  'client hold': 'the registrar has put the domain on hold: it is not published in the DNS',
  'server hold': 'the registry has put the domain on hold: it is not published in the DNS',
  'redemption period': 'the domain is in its redemption period: it was deleted and can only be restored',
  'pending restore': 'the domain is being restored from its redemption period',
  'pending delete': 'the domain is about to be deleted',
};

export const domainChecker: Checker<DomainConfig> = async (target, env, signal) => {
  const started = performance.now();
  const cfg = target.config;
  const domain = (cfg.domain ?? '').trim().toLowerCase();
  const phases: GetPhases = {};
  const directory = env.rdap ?? configuredRdapDirectory(undefined);
  const answer = await lookupRegistration(
    domain,
    { directory, allowPrivateTargets: env.allowPrivateTargets, resolve: env.resolve, extraCa: env.extraCa },
    signal,
    phases,
  );
  const timings = phaseTimings(phases, round(performance.now() - started));
  if ('error' in answer) return failed(signal.aborted ? `Timed out after ${target.timeoutMs / 1000} s` : answer.error, timings);
  const r = answer.registration;
  const facts: DomainFacts = { expiresAt: r.expiresAt, registrar: r.registrar, status: [...r.status].map((s) => s.toLowerCase()).sort() };
  const base = { responseTimeMs: timings.total, httpCode: null, timings, certExpiresAt: null, detail: { registration: facts } };
  const now = env.now();
  if (facts.expiresAt !== null && facts.expiresAt <= now)
    return { ...base, status: 'down', error: `The registration of ${domain} expired on ${day(facts.expiresAt)}` };
  const trouble = facts.status.find((s) => TROUBLE_STATUSES[s]);
  if (trouble) return { ...base, status: 'degraded', error: `Registry status ${trouble}: ${TROUBLE_STATUSES[trouble]}` };
  if (facts.expiresAt !== null) {
    const daysLeft = Math.floor((facts.expiresAt - now) / DAY_MS);
    const minWarn = Math.min(...(cfg.domain_warning_days?.length ? cfg.domain_warning_days : [1]));
    if (daysLeft < minWarn)
      return {
        ...base,
        status: 'degraded',
        error: `The registration of ${domain} expires on ${day(facts.expiresAt)}, in less than ${minWarn} day${minWarn === 1 ? '' : 's'}`,
      };
  }
  return { ...base, status: 'operational', error: null };
};

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The RDAP exchange's phases, each its own duration (guardedGet reports them from its start). */
function phaseTimings(p: GetPhases, total: number): Timings {
  const t: Timings = { total };
  if (p.dns !== undefined) t.dns = p.dns;
  if (p.connect !== undefined) t.connect = round(p.connect - (p.dns ?? 0));
  if (p.tls !== undefined) t.tls = round(p.tls - (p.connect ?? 0));
  if (p.ttfb !== undefined) t.ttfb = round(p.ttfb - (p.tls ?? p.connect ?? 0));
  return t;
}
