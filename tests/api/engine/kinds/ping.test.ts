// Ping checks against loopback: 127.0.0.1 and ::1 answer, an nftables black hole on a 127.x
// address loses all or some packets, a blocked target is refused, and ping's summary is read
// strictly (anything else is a clear error, never a guess).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgePing } from '../../../../src/server/engine/checkers/ping.ts';
import { parsePingSummary } from '../../../../src/server/engine/checkers/ping-output.ts';
import { blackholeUnavailable, startIcmpBlackhole, type IcmpBlackhole } from '../../../support/kind-servers/icmp-blackhole.ts';
import { checkKind, fixedResolver } from './support.ts';

const noBlackhole = blackholeUnavailable();

describe('ping checks against loopback', () => {
  it('answers from 127.0.0.1 and ::1 with the average round trip as the response time', async () => {
    for (const host of ['127.0.0.1', '::1']) {
      const r = await checkKind('ping', { host, packet_count: 3 });
      expect(r, host).toMatchObject({ status: 'operational', error: null });
      expect(r.responseTimeMs, host).toBeGreaterThan(0);
      expect(r.responseTimeMs!, host).toBeLessThan(50);
      expect(Object.keys(r.timings!)).toEqual(['dns', 'total']);
    }
  });

  it('pings the address the guard resolved, not the name', async () => {
    const r = await checkKind('ping', { host: 'db.example.test' }, { resolve: fixedResolver({ 'db.example.test': '::1' }) });
    expect(r.status).toBe('operational');
  });

  it('refuses loopback when private targets are not allowed: at create time and when a name resolves there', async () => {
    const { pingKind } = await import('../../../../src/server/engine/kinds/ping.ts');
    const v = pingKind.validate((k) => ({ host: '127.0.0.1' })[k as 'host'] as never, { allowPrivate: false });
    // The target goes to the SSRF guard's literal check and the per-destination budget.
    expect(v.target).toEqual({ host: '127.0.0.1', field: 'host' });
    const literal = await checkKind('ping', { host: '127.0.0.1' }, { allowPrivate: false });
    expect(literal).toMatchObject({ status: 'down', error: 'Target refused: 127.0.0.1 is a loopback address' });
    const named = await checkKind(
      'ping',
      { host: 'sneaky.example.test' },
      {
        allowPrivate: false,
        resolve: fixedResolver({ 'sneaky.example.test': '::1' }),
      },
    );
    expect(named).toMatchObject({ status: 'down', error: 'Target refused: the host is not allowed or could not be resolved' });
  });

  it('validates its fields with per-field texts', async () => {
    const { pingKind } = await import('../../../../src/server/engine/kinds/ping.ts');
    const v = (input: Record<string, unknown>) => pingKind.validate((k) => input[k as string] as never, { allowPrivate: true }).problems;
    expect(v({})).toEqual({ host: 'Host is required' });
    expect(v({ host: 'a;b' }).host).toMatch(/host name/);
    expect(v({ host: 'x.example', packet_count: 11 })).toEqual({ packet_count: 'Packets must be between 1 and 10' });
    expect(v({ host: 'x.example', packet_count: 0 })).toEqual({ packet_count: 'Packets must be between 1 and 10' });
    expect(v({ host: 'x.example', max_packet_loss_percent: 100 }).max_packet_loss_percent).toMatch(/between 0 and 99/);
  });

  describe.skipIf(noBlackhole)(`black-holed loopback addresses${noBlackhole ? ` (skipped: ${noBlackhole})` : ''}`, () => {
    let all: IcmpBlackhole;
    let second: IcmpBlackhole;
    beforeAll(async () => {
      all = await startIcmpBlackhole('127.0.0.77');
      second = await startIcmpBlackhole('127.0.0.78', [2]);
    });
    afterAll(async () => {
      await all?.close();
      await second?.close();
    });

    it('is down when every packet is lost, within the time-out', async () => {
      const started = performance.now();
      const r = await checkKind('ping', { host: '127.0.0.77', packet_count: 3 }, { timeoutMs: 2000 });
      expect(r).toMatchObject({ status: 'down', error: 'All 3 packets lost', responseTimeMs: null });
      // ended by its own 2 s deadline, not by the test's 30 s: the room is for a loaded machine; this
      // is not a speed check
      expect(performance.now() - started).toBeLessThan(7000);
    });

    it('is degraded when some packets are lost (above max_packet_loss_percent), operational at or under it', async () => {
      const r = await checkKind('ping', { host: '127.0.0.78', packet_count: 3 });
      expect(r.status).toBe('degraded');
      expect(r.error).toMatch(/^1 of 3 packets lost \(33 %\); round trip min\/avg\/max [\d.]+\/[\d.]+\/[\d.]+ ms$/);
      const tolerant = await checkKind('ping', { host: '127.0.0.78', packet_count: 3, max_packet_loss_percent: 34 });
      expect(tolerant).toMatchObject({ status: 'operational', error: null });
    });

    it('keeps ping to its deadline when more packets are asked than the time-out fits', async () => {
      const started = performance.now();
      const r = await checkKind('ping', { host: '127.0.0.77', packet_count: 10 }, { timeoutMs: 1000 });
      expect(r.status).toBe('down');
      // Stopped before the deadline with its summary (fewer packets sent), not cut by the engine.
      expect(r.error).toMatch(/^All \d packets lost$/);
      // ten packets a second apart would take 10 s; the room is for a loaded machine
      expect(performance.now() - started).toBeLessThan(5000);
    });
  });

  it('says so when the ping command is missing', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const r = await checkKind('ping', { host: '127.0.0.1' });
      expect(r).toMatchObject({ status: 'down', error: 'The ping command is not installed on this server (Debian package iputils-ping)' });
    } finally {
      process.env.PATH = path;
    }
  });
});

// A real iputils summary (a slow link), and what the reader refuses.
const SLOW = `PING 203.0.113.9 (203.0.113.9) 56(84) bytes of data.
64 bytes from 203.0.113.9: icmp_seq=1 ttl=52 time=118 ms
64 bytes from 203.0.113.9: icmp_seq=2 ttl=52 time=131 ms
64 bytes from 203.0.113.9: icmp_seq=3 ttl=52 time=125 ms

--- 203.0.113.9 ping statistics ---
3 packets transmitted, 3 received, 0% packet loss, time 402ms
rtt min/avg/max/mdev = 118.220/124.813/131.004/5.218 ms
`;

describe("ping's summary", () => {
  it('reads the counts and round trips, and judges the average against degraded_threshold_ms', () => {
    const s = parsePingSummary(SLOW)!;
    expect(s).toEqual({ sent: 3, received: 3, rtt: { min: 118.22, avg: 124.813, max: 131.004 } });
    const timings = { total: 500 };
    expect(judgePing(s, { degraded_threshold_ms: 100 }, timings)).toMatchObject({
      status: 'degraded',
      responseTimeMs: 124.81,
      error: 'Average round trip 125 ms is above 100 ms; round trip min/avg/max 118/125/131 ms',
    });
    expect(judgePing(s, { degraded_threshold_ms: 200 }, timings)).toMatchObject({ status: 'operational', error: null });
  });

  it('refuses garbage, contradictions and a summary without round trips', () => {
    for (const bad of [
      '',
      'garbage\n'.repeat(1000),
      '3 packets transmitted, 4 received, 0% packet loss',
      '0 packets transmitted, 0 received',
      '3 packets transmitted, 2 received, 33% packet loss\n',
      '3 packets transmitted, 3 received\nrtt min/avg/max/mdev = 5/1/3/0 ms',
      '99999999 packets transmitted, 1 received',
    ])
      expect(parsePingSummary(bad), bad.slice(0, 40)).toBeNull();
  });
});
