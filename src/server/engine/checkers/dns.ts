// DNS checks: the name resolves (optionally through a given resolver, itself subject to the
// SSRF guard) and, when expected values are set, the answers contain them.
import { Resolver } from 'node:dns/promises';
import type { DNS_RECORD_TYPES } from '../../../lib/monitor-kinds.ts';
import { internalDnsName, isInternalAnswer, resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { failed, round, type Checker } from './types.ts';

const HIDDEN = '(non-public address)';

export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** What a dns monitor stores (engine/kinds/dns.ts validates it). */
export interface DnsConfig {
  host?: string;
  record_type?: DnsRecordType;
  resolver?: string | null;
  expected_values?: string[];
}

const FAILURES: Record<string, string> = {
  ENOTFOUND: 'DNS query failed: the name does not exist (NXDOMAIN)',
  ENODATA: 'DNS query failed: no record of this type',
  ESERVFAIL: 'DNS query failed: the server could not answer (SERVFAIL)',
  EREFUSED: 'DNS query failed: the server refused the query',
  ECONNREFUSED: 'DNS query failed: the server is unreachable',
  EBADRESP: 'DNS query failed: the server sent an invalid answer',
  EFORMERR: 'DNS query failed: the server sent an invalid answer',
};

function flatten(records: unknown[]): string[] {
  return records
    .map((r) => {
      if (typeof r === 'string') return r;
      if (Array.isArray(r)) return r.join('');
      const o = r as Record<string, unknown>;
      if ('exchange' in o) return `${o.priority} ${o.exchange}`;
      if ('nsname' in o) return `${o.nsname} ${o.hostmaster} ${o.serial}`;
      if ('name' in o && 'port' in o) return `${o.priority} ${o.weight} ${o.port} ${o.name}`;
      return JSON.stringify(o);
    })
    .map((s) => s.toLowerCase())
    .sort();
}

export const dnsChecker: Checker<DnsConfig> = async (target, env, signal) => {
  const started = performance.now();
  const cfg = target.config;
  // Checked again at run time: the operator may have closed private targets since the monitor was made.
  const internal = internalDnsName(cfg.host ?? '', env.allowPrivateTargets);
  if (internal) return failed(internal, { dns: 0, total: 0 });
  try {
    const resolver = new Resolver({ timeout: Math.max(100, target.timeoutMs - 50), tries: 1 });
    if (env.dnsServers?.length) resolver.setServers([...env.dnsServers]);
    if (cfg.resolver) {
      const [rawHost, rawPort] = splitHostPort(cfg.resolver);
      const { address, family } = await resolveSafe(rawHost, env.allowPrivateTargets, env.resolve, signal);
      const server = family === 6 ? `[${address}]` : address;
      resolver.setServers([rawPort ? `${server}:${rawPort}` : server]);
    }
    signal.addEventListener('abort', () => resolver.cancel(), { once: true });
    const records = (await resolver.resolve(cfg.host ?? '', cfg.record_type ?? 'A')) as unknown[];
    const all = flatten(records);
    const total = round(performance.now() - started);
    // Internal addresses in an answer are not shown to the tenant (nor on a public page).
    const answers = all.map((a) => (isInternalAnswer(a, env.allowPrivateTargets) ? HIDDEN : a));
    const base = { responseTimeMs: total, httpCode: null, timings: { dns: total, total }, certExpiresAt: null, detail: { answers } };
    if (answers.includes(HIDDEN)) return { ...base, status: 'down', error: `${cfg.host} answers with a non-public address (not shown)` };
    const expected = (cfg.expected_values ?? []).map((v) => v.toLowerCase().trim()).filter(Boolean);
    const missing = expected.filter((v) => !answers.some((a) => a === v || a.endsWith(` ${v}`)));
    // The answers themselves stay in the check's detail: a record's text is the target's content.
    if (missing.length) return { ...base, status: 'down', error: `The answer does not contain ${missing.join(', ')}` };
    return { ...base, status: 'operational', error: null };
  } catch (e) {
    const total = round(performance.now() - started);
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      signal.aborted || code === 'ECANCELLED' || code === 'ETIMEOUT'
        ? `DNS query timed out after ${target.timeoutMs / 1000} s`
        : e instanceof TargetRefused
          ? e.message
          : (FAILURES[code ?? ''] ?? 'DNS query failed');
    return failed(why, { dns: total, total });
  }
};

function splitHostPort(v: string): [string, string | undefined] {
  const s = v.trim();
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
  if (bracket) return [bracket[1], bracket[2]];
  const parts = s.split(':');
  if (parts.length === 2) return [parts[0], parts[1]];
  return [s, undefined];
}
