// Host name lookups for checks. c-ares (dns.Resolver) rather than getaddrinfo (dns.lookup):
// getaddrinfo blocks one of libuv's four pool threads per lookup, so a tenant's names whose DNS
// never answers used to stall every other tenant's checks (and monitor creation) behind them.
// Each lookup here is cancelled by its check's deadline, and a company has at most
// DNS_LOOKUPS_PER_COMPANY lookups in flight; its others wait for a slot, under their own deadline.
import { Resolver as CaresResolver } from 'node:dns/promises';

export interface LookupOptions {
  /** The check's deadline: aborting cancels the lookup */
  signal?: AbortSignal;
}

export type Resolver = (host: string, opts?: LookupOptions) => Promise<Array<{ address: string; family: number }>>;

export const DNS_LOOKUPS_PER_COMPANY = 4;

/** Per try; c-ares doubles it on each retry. Without a signal a lookup ends after ~7 s. */
const TRY_TIMEOUT_MS = 1000;
const TRIES = 3;

const codeOf = (e: unknown) => (e as NodeJS.ErrnoException).code ?? '';

/**
 * A resolver asking `servers` (DNS_RESOLVERS; unset: the system's, from /etc/resolv.conf) for A
 * and AAAA records. No hosts file and no search domains: a check's name is asked as written.
 */
export function dnsResolver(servers?: readonly string[]): Resolver {
  return async (host, opts = {}) => {
    const { signal } = opts;
    if (signal?.aborted) throw Object.assign(new Error('DNS lookup cancelled'), { code: 'ECANCELLED' });
    const r = new CaresResolver({ timeout: TRY_TIMEOUT_MS, tries: TRIES });
    if (servers?.length) r.setServers([...servers]);
    const cancel = () => r.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const [v4, v6] = await Promise.allSettled([r.resolve4(host), r.resolve6(host)]);
      const answers = [
        ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (answers.length) return answers;
      // Both failed (or answered nothing): the more telling error, ENODATA ("no such record") last.
      const errors = [v4, v6].flatMap((s) => (s.status === 'rejected' ? [s.reason as Error] : []));
      throw errors.find((e) => codeOf(e) !== 'ENODATA') ?? errors[0] ?? Object.assign(new Error('No address'), { code: 'ENODATA' });
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  };
}

/** `resolve` with at most `max` lookups in flight per key (a company id); the rest queue. */
export function perKeyLimit(resolve: Resolver, max = DNS_LOOKUPS_PER_COMPANY): (key: string) => Resolver {
  const running = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();
  const release = (key: string) => {
    const next = waiting.get(key)?.shift();
    if (next) return next(); // the slot passes straight on
    const n = (running.get(key) ?? 1) - 1;
    if (n > 0) running.set(key, n);
    else running.delete(key);
    if (!waiting.get(key)?.length) waiting.delete(key);
  };
  const acquire = (key: string, signal?: AbortSignal) =>
    new Promise<void>((granted, refused) => {
      if ((running.get(key) ?? 0) < max) {
        running.set(key, (running.get(key) ?? 0) + 1);
        return granted();
      }
      const line = waiting.get(key) ?? [];
      waiting.set(key, line);
      const take = () => {
        signal?.removeEventListener('abort', giveUp);
        granted();
      };
      const giveUp = () => {
        line.splice(line.indexOf(take), 1);
        if (line.length === 0 && waiting.get(key) === line) waiting.delete(key);
        refused(Object.assign(new Error('DNS lookup cancelled'), { code: 'ECANCELLED' }));
      };
      signal?.addEventListener('abort', giveUp, { once: true });
      line.push(take);
    });
  return (key) =>
    async (host, opts = {}) => {
      await acquire(key, opts.signal);
      try {
        return await resolve(host, opts);
      } finally {
        release(key);
      }
    };
}
