// The probe process (issue 27 item 1), run for real: `node src/probe/main.ts` as a child process
// against the app on loopback (through a relay the test can cut, standing for the network between
// a probe and the platform), checking a loopback HTTP target. Results arrive; while the platform
// is unreachable the probe keeps checking and buffers on disk, then delivers each result once; a
// probe killed with SIGKILL delivers its buffer after the restart; an old probe told to upgrade
// exits non-zero with the reason; a revoked token stops it. On both databases.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inboxDrained } from '../../../src/server/domain/probes/inbox.ts';
import { assertMatchesContract } from '../../support/contract.ts';
import {
  ACME,
  type ProbeProcess,
  type ProbeWorld,
  said,
  seedLocatedMonitor,
  seedProbeWorld,
  startProbeProcess as startProbe,
} from '../../support/probe-fixtures.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS, tempDir } from '../../support/test-db.ts';
import { waitFor } from '../../support/wait-for.ts';
import { parseStreamResultId } from '../../../src/lib/probe-result-ids.ts';

const LONG = { timeoutMs: 60_000 };

/** A loopback TCP relay to the platform that the test can cut (every connection dropped, new ones refused) and restore. */
class Relay {
  port = 0;
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly target: number;
  constructor(target: number) {
    this.target = target;
  }
  async up(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => server.listen(this.port, '127.0.0.1', r));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  }
}

describe.each(DB_KINDS)('a probe process against the platform on %s', (kind) => {
  let t: TestApp;
  let w: ProbeWorld;
  let relay: Relay;
  let target: http.Server;
  let hits = 0;
  let monitorId: string;
  let locationNum: number;
  const running: ProbeProcess[] = [];

  beforeAll(async () => {
    target = http.createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1' } });
    w = await seedProbeWorld(t);
    relay = new Relay(t.port);
    await relay.up();
    const url = `http://127.0.0.1:${(target.address() as net.AddressInfo).port}/health`;
    monitorId = await seedLocatedMonitor(
      t,
      w.acmeAdmin,
      ACME,
      { name: 'checked by the probe', url, interval_seconds: 1, timeout_seconds: 5 },
      ['eu-west'],
    );
    locationNum = (
      await t.services.db.k.selectFrom('probe_locations').select('num').where('id', '=', w.euWest.id).executeTakeFirstOrThrow()
    ).num;
  }, 60_000);
  afterEach(({ task }) => {
    // what the probe said, when a test failed
    if (task.result?.state === 'fail') for (const p of running) console.log(p.lines.join('\n'));
    for (const p of running.splice(0)) p.child.kill('SIGKILL');
  });
  afterAll(async () => {
    await relay?.down();
    await t?.close();
    await new Promise((r) => target?.close(r));
  });

  const probe = (bufferDir: string, token = w.euWest.token) => {
    const p = startProbe({
      PROBE_URL: `http://localhost:${relay.port}`,
      PROBE_TOKEN: token,
      PROBE_INSTANCE: 'rack-1',
      PROBE_BUFFER_DIR: bufferDir,
      ALLOW_PRIVATE_TARGETS: 'true',
    });
    running.push(p);
    return p;
  };
  // Taken results are stored just after the platform answers (domain/probes/inbox.ts).
  const stored = async () => {
    await inboxDrained(t.services);
    const rows = await t.services.db.k
      .selectFrom('check_results')
      .select(['checked_at', 'status'])
      .where('monitor_id', '=', monitorId)
      .orderBy('checked_at')
      .execute();
    return rows.map((r) => ({ ...r, checked_at: Number(r.checked_at) }));
  };
  /** What the platform recorded as taken from this location: stream marks and plain ids (results.ts) */
  const takenIds = async () => {
    const k = t.services.db.k;
    const marks = new Map(
      (await k.selectFrom('probe_result_streams').select(['stream', 'last_seq']).where('location', '=', locationNum).execute()).map((r) => [
        r.stream,
        Number(r.last_seq),
      ]),
    );
    const plain = new Set(
      (await k.selectFrom('probe_results_seen').select('result_id').where('location', '=', locationNum).execute()).map((r) => r.result_id),
    );
    return {
      /** results taken: with one stream numbered from 1 and nothing refused, its mark is its count */
      count: plain.size + [...marks.values()].reduce((a, b) => a + b, 0),
      has(id: string) {
        const s = parseStreamResultId(id);
        return s ? s.seq <= (marks.get(s.stream) ?? 0) : plain.has(id);
      },
    };
  };

  it('sends results; keeps checking while the platform is unreachable and then delivers every buffered result once', async () => {
    const p = probe(tempDir('probe-buffer-'));
    await waitFor(() => said(p, 'connected to') && said(p, 'assignments: 1 monitors'), { ...LONG, what: 'the probe to connect' });
    await waitFor(async () => (await stored()).length >= 3, { ...LONG, what: 'results to arrive' });
    expect((await stored()).every((r) => r.status === 'operational')).toBe(true);

    await relay.down();
    const cutAt = Date.now();
    const hitsAtCut = hits;
    // Cut for a minute (the case): sixty checks at one a second go on into the buffer.
    await waitFor(() => said(p, 'platform unreachable') && said(p, 'buffering:') && hits >= hitsAtCut + 60, {
      timeoutMs: 150_000,
      what: 'a minute of checks to go on, buffered',
    });
    const storedWhileCut = (await stored()).length;
    const upAt = Date.now();
    const hitsWhileCut = hits - hitsAtCut;
    await relay.up();
    const line = await waitFor(() => p.lines.find((l) => /delivered \d+ buffered results/.test(l)), {
      ...LONG,
      what: 'the buffer to be delivered',
    });
    expect(Number(/delivered (\d+)/.exec(line)?.[1])).toBeGreaterThanOrEqual(60);

    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.lines.at(-1)).toMatch(/probe: stopped/);
    const rows = await stored();
    expect(rows.length).toBeGreaterThan(storedWhileCut);
    // every check made it, once: one row a target hit (at most the check running at SIGTERM missing)
    expect(rows.length).toBeLessThanOrEqual(hits);
    expect(rows.length).toBeGreaterThanOrEqual(hits - 1);
    expect((await takenIds()).count).toBe(rows.length);
    // nothing lost while the platform was unreachable: a row for each check the target saw then
    // (counted, not timed: on a loaded machine the probe's own lag spaces its checks out; a check
    // on each edge of the window may fall on either side)
    const duringCut = rows.filter((r) => r.checked_at >= cutAt && r.checked_at < upAt).length;
    expect(duringCut).toBeGreaterThanOrEqual(hitsWhileCut - 2);
    expect(duringCut).toBeLessThanOrEqual(hitsWhileCut + 2);
  }, 300_000);

  it('delivers the buffer of a probe killed with SIGKILL once it runs again', async () => {
    const dir = tempDir('probe-buffer-');
    const first = probe(dir);
    await waitFor(() => said(first, 'assignments: 1 monitors'), { ...LONG, what: 'the probe to start' });
    await relay.down();
    await waitFor(() => said(first, 'buffering:'), { ...LONG, what: 'the probe to buffer' });
    const hitsAtCut = hits;
    await waitFor(() => hits >= hitsAtCut + 3, { ...LONG, what: 'more checks' });
    // wait for a flush after those checks, then kill it without warning
    const onDisk = () =>
      readdirSync(dir).flatMap((f) =>
        readFileSync(path.join(dir, f), 'utf8')
          .split('\n')
          .filter(Boolean)
          .flatMap((l) => (JSON.parse(l) as Array<{ id: string }>).map((r) => r.id)),
      );
    await waitFor(() => onDisk().length >= 3, { ...LONG, what: 'results on disk' });
    first.child.kill('SIGKILL');
    await first.exited;
    const buffered = onDisk();
    const seenBefore = await takenIds();
    for (const id of buffered) expect(seenBefore.has(id)).toBe(false);

    await relay.up();
    const again = probe(dir);
    await waitFor(() => said(again, `buffer: ${buffered.length} results on disk from before`), {
      ...LONG,
      what: 'the restart to find the buffer',
    });
    await waitFor(() => said(again, `delivered ${buffered.length} buffered results`), { ...LONG, what: 'the old buffer to be delivered' });
    const seen = await takenIds();
    for (const id of buffered) expect(seen.has(id), id).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.seg'))).toEqual([]);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 180_000);

  it('stops with a clear message when its token is revoked', async () => {
    const tok = await w.root.post(`/api/v1/probe-locations/${w.euWest.id}/tokens`, { name: 'short-lived' });
    const p = probe(tempDir('probe-buffer-'), tok.body.token);
    await waitFor(() => said(p, 'assignments: 1 monitors'), { ...LONG, what: 'the probe to start' });
    expect((await w.root.delete(`/api/v1/probe-locations/${w.euWest.id}/tokens/${tok.body.id}`)).status).toBe(200);
    expect(await p.exited).toBe(1);
    expect(p.lines.join('\n')).toContain("the platform refused this probe's token");
  }, 120_000);
});

describe('an old probe', () => {
  it('exits non-zero saying to upgrade when the platform says it is too old', async () => {
    // A platform whose minimum version is above this probe's (the real one's minimum is this
    // probe's own version): hello answers as the contract says, upgrade: true.
    const hello = {
      probe_id: 'p-1',
      location: { slug: 'eu-west', name: 'Frankfurt', private: false },
      min_version: '99.0.0',
      upgrade: true,
    };
    await assertMatchesContract('POST', '/api/v1/probe/hello', 200, 'application/json', hello);
    const calls: string[] = [];
    const platform = http.createServer((req, res) => {
      calls.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(hello));
    });
    await new Promise<void>((r) => platform.listen(0, '127.0.0.1', r));
    try {
      const p = startProbe({
        PROBE_URL: `http://127.0.0.1:${(platform.address() as net.AddressInfo).port}`,
        PROBE_TOKEN: `swp_${'a'.repeat(43)}`,
        PROBE_INSTANCE: 'old-one',
        PROBE_BUFFER_DIR: tempDir('probe-buffer-'),
      });
      expect(await p.exited).toBe(3);
      expect(p.lines.join('\n')).toMatch(/older than the platform's minimum 99\.0\.0: upgrade it/);
      expect(calls).toEqual(['POST /api/v1/probe/hello']); // it asked for no work
    } finally {
      platform.closeAllConnections();
      await new Promise((r) => platform.close(r));
    }
  });
});

describe.each(DB_KINDS)("private and public locations' SSRF rules, with probe processes on %s", (kind) => {
  let t: TestApp;
  let w: ProbeWorld;
  let target: http.Server;
  let hits = 0;
  let monitorId: string;
  const probes: ProbeProcess[] = [];

  beforeAll(async () => {
    target = http.createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    // The platform keeps its default: no private targets (so its public locations refuse them).
    t = await startTestApp({ db: kind, env: { MIN_CHECK_INTERVAL_SECONDS: '1' } });
    w = await seedProbeWorld(t);
    monitorId = await seedLocatedMonitor(t, w.acmeAdmin, ACME, { name: 'inside the office', interval_seconds: 1, timeout_seconds: 5 }, [
      'eu-west',
      'lab',
    ]);
    // A loopback address only the office's own probe may reach (written as the monitors part of
    // issue 27 lets an all-private set name one; here the set is mixed on purpose).
    const url = `http://127.0.0.1:${(target.address() as net.AddressInfo).port}/inside`;
    const row = await t.services.db.k.selectFrom('monitors').select('config').where('id', '=', monitorId).executeTakeFirstOrThrow();
    await t.services.db.k
      .updateTable('monitors')
      .set({ config: JSON.stringify({ ...JSON.parse(row.config), url }) })
      .where('id', '=', monitorId)
      .execute();
    // Both probe operators allow private targets in their own environment.
    for (const [slug, token] of [
      ['eu-west', w.euWest.token],
      ['lab', w.acmeLab.token],
    ]) {
      const p = startProbe({
        PROBE_URL: `http://localhost:${t.port}`,
        PROBE_TOKEN: token,
        PROBE_INSTANCE: `probe-${slug}`,
        PROBE_BUFFER_DIR: tempDir('probe-buffer-'),
        ALLOW_PRIVATE_TARGETS: 'true',
      });
      probes.push(p);
    }
  }, 60_000);
  afterAll(async () => {
    for (const p of probes) {
      p.child.kill('SIGTERM');
      await p.exited;
    }
    await t?.close();
    await new Promise((r) => target?.close(r));
  });

  it("a private location's probe reaches a loopback target that the public location refuses under the platform's rules", async () => {
    const nums = Object.fromEntries(
      (await t.services.db.k.selectFrom('probe_locations').select(['slug', 'num', 'company_id']).execute())
        .filter((l) => l.company_id === null || l.company_id === w.acme.id)
        .map((l) => [l.slug, l.num]),
    );
    const byLocation = async () => {
      const rows = await t.services.db.k
        .selectFrom('check_results')
        .select(['location', 'status', 'error'])
        .where('monitor_id', '=', monitorId)
        .execute();
      return { lab: rows.filter((r) => r.location === nums.lab), euWest: rows.filter((r) => r.location === nums['eu-west']) };
    };
    const seen = await waitFor(
      async () => {
        const r = await byLocation();
        return r.lab.length >= 2 && r.euWest.length >= 2 && r;
      },
      { ...LONG, what: 'results from both locations' },
    );
    expect(seen.lab.every((r) => r.status === 'operational')).toBe(true);
    expect(seen.euWest.every((r) => r.status === 'down')).toBe(true);
    expect(seen.euWest[0].error).toMatch(/loopback/);
    // the public location refused before connecting: the target heard from the office's probe only
    expect(hits).toBeGreaterThanOrEqual(seen.lab.length);
  }, 90_000);
});
