import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsTarget } from '../../../tests/fixtures/targets/dns-targets.ts';
import { dnsResolver, perKeyLimit } from './dns-lookup.ts';

describe('check lookups on c-ares', () => {
  let dns: DnsTarget;
  beforeAll(async () => {
    dns = await startDnsServer({ answer: true });
    dns.records.set('www.example.test', ['192.0.2.7']);
    dns.missing.add('nope.example.test');
    dns.silent.add('hole.example.test');
  });
  afterAll(() => dns?.close());

  const resolve = () => dnsResolver([`127.0.0.1:${dns.port}`]);

  it('answers the A records (an AAAA without data is no failure) and NXDOMAIN as ENOTFOUND', async () => {
    await expect(resolve()('www.example.test')).resolves.toEqual([{ address: '192.0.2.7', family: 4 }]);
    await expect(resolve()('nope.example.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('gives up on a black-holed name when the check is aborted', async () => {
    const started = Date.now();
    await expect(resolve()('a.hole.example.test', { signal: AbortSignal.timeout(300) })).rejects.toMatchObject({ code: 'ECANCELLED' });
    // a black-holed name would otherwise wait for the resolver's own time-out
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('lets a key have `max` lookups in flight; the others wait under their own deadline, other keys do not wait', async () => {
    const limited = perKeyLimit(resolve(), 2);
    const slow = limited('slow');
    const hung = [1, 2].map((i) =>
      slow(`h${i}.hole.example.test`, { signal: AbortSignal.timeout(1500) }).catch((e: NodeJS.ErrnoException) => e.code),
    );
    await new Promise((r) => setTimeout(r, 100));
    const queued = slow('www.example.test', { signal: AbortSignal.timeout(300) }).catch((e: NodeJS.ErrnoException) => e.code);
    const t0 = Date.now();
    await expect(limited('other')('www.example.test', { signal: AbortSignal.timeout(1000) })).resolves.toHaveLength(1);
    // not behind the hung lookups' 1.5 s (the room below it is for a loaded machine)
    expect(Date.now() - t0).toBeLessThan(1200);
    expect(await queued).toBe('ECANCELLED'); // never got a slot before its deadline
    expect(await Promise.all(hung)).toEqual(['ECANCELLED', 'ECANCELLED']);
    await expect(slow('www.example.test')).resolves.toHaveLength(1); // slots handed back
  });
});
