// The platform's own cost of a probe result (issue 27), apart from the machine's contention: the
// CPU time the platform process (and PostgreSQL's backends with --pg) spends per result to take a
// delivery call (postProbeResults: ids claimed, rows into the inbox) and to store it (drainInbox:
// each location's state machine, the quorum verdict, rollups, incidents). CPU time, unlike wall
// time, barely moves with the load of a shared machine, so before/after figures of a change can
// be read on a busy box; `1e6 / (take + store µs)` is the results a second one core can ingest.
// No HTTP and no probe processes: the calls are the domain functions the ingest thread calls.
// Every two rounds the check-compaction job's run moves the stored rows into their hour chunks,
// timed the same way: each result is compacted once, and the open hour's chunk is rewritten each run.
// Usage: npm run bench:probe-drain -- [--monitors 20000] [--locations 5] [--rounds 3] [--pg] [--batch 333] [--ids stream|plain]
//   node --cpu-prof bench/probes/drain.ts … writes a profile of the platform's side.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Insertable, sql } from 'kysely';
import { newId } from '../../src/server/domain/ids.ts';
import { streamResultId } from '../../src/lib/probe-result-ids.ts';
import { compactResults, RAW_GRACE_MS } from '../../src/server/engine/compaction.ts';
import { drainInbox } from '../../src/server/domain/probes/inbox.ts';
import { createProbeLocation } from '../../src/server/domain/probes/locations.ts';
import { postProbeResults, type ProbeResultInput } from '../../src/server/domain/probes/results.ts';
import { createProbeToken } from '../../src/server/domain/probes/tokens.ts';
import { newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import type { MonitorsTable } from '../../src/server/db/schema/monitoring.ts';
import { withTransaction } from '../../src/server/db/scope.ts';
import { createServices } from '../../src/server/services.ts';
import { actorFor, ctxFor, seedUser } from '../../tests/support/fixtures.ts';
import { createDatabase, freePort, startPgCluster } from '../../tests/support/pg-cluster.ts';
import { benchServerConfig } from '../engine/in-server.ts';
import { seedBenchCompanies } from '../engine/seed-companies.ts';

const { values } = parseArgs({
  options: {
    monitors: { type: 'string', default: '20000' },
    locations: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    pg: { type: 'boolean', default: false },
    // a probe's second at 20,000 monitors a location; 1,000 is the most a call may hold
    batch: { type: 'string', default: '333' },
    // `stream`: the ids this project's probes make (one mark per stream); `plain`: ids kept one by one
    ids: { type: 'string', default: 'stream' },
  },
});
const MONITORS = Number(values.monitors);
const LOCATIONS = Number(values.locations);
const ROUNDS = Number(values.rounds);
const BATCH = Number(values.batch);
const STREAM_IDS = values.ids === 'stream';
const INTERVAL_MS = 60_000;

/** utime + stime of a process, in ms (USER_HZ is 100 on Linux). */
function procCpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}

/** The postmaster listening on `port` and its backends: their CPU together. */
function pgCpuMs(port: number | null): number {
  if (port === null) return 0;
  const pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  const master = pids.find((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ').includes(`-p ${port} `);
    } catch {
      return false;
    }
  });
  if (!master) return 0;
  let ms = procCpuMs(Number(master));
  for (const p of pids) {
    try {
      if (new RegExp(`^PPid:\\s+${master}$`, 'm').test(readFileSync(`/proc/${p}/status`, 'utf8'))) ms += procCpuMs(Number(p));
    } catch {
      // gone
    }
  }
  return ms;
}

const nodeCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

type Spent = { node: number; pg: number; wall: number };
/**
 * A measured stretch's start and end. Reading PostgreSQL's CPU scans /proc (milliseconds of this
 * process's own CPU): it is read before the start and after the end, so the scan is not counted
 * as the platform's.
 */
const begin = (): Spent => {
  const pg = pgCpuMs(pgPort);
  return { pg, node: nodeCpuMs(), wall: performance.now() };
};
function end(from: Spent, into: Spent): void {
  const [node, wall] = [nodeCpuMs(), performance.now()];
  into.node += node - from.node;
  into.wall += wall - from.wall;
  into.pg += pgCpuMs(pgPort) - from.pg;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-drain-'));
const cluster = values.pg ? await startPgCluster() : undefined;
const pgPort = cluster ? Number(new URL(cluster.url).port) : null;
const dbUrl = cluster ? await createDatabase(cluster.url, 'bench_drain') : undefined;
const services = await createServices(benchServerConfig(dataDir, await freePort(), dbUrl));
// the bench drains the inbox itself after each call, to time the two apart (no kick in between)
services.probeInboxLanded = () => {};
try {
  const root = ctxFor(services, actorFor(await seedUser(services, { userType: 1 })));
  const tokens: string[] = [];
  const slugs: string[] = [];
  for (let i = 1; i <= LOCATIONS; i++) {
    const loc = await createProbeLocation(root, { name: `Drain ${i}`, slug: `drain-${i}`, private: false });
    tokens.push((await createProbeToken(root, loc.id, { name: `probe ${i}` })).token);
    slugs.push(loc.slug);
  }
  const start = Date.now() - ROUNDS * INTERVAL_MS;
  const companyIds = await seedBenchCompanies(services.db, Math.ceil(MONITORS / 1000), start);
  const monitorIds: string[] = [];
  for (let from = 0; from < MONITORS; from += 400) {
    const rows: Array<Insertable<MonitorsTable>> = [];
    for (let i = from; i < Math.min(MONITORS, from + 400); i++) {
      const id = newId();
      monitorIds.push(id);
      rows.push({
        ...newMonitorRow({
          id,
          company_id: companyIds[i % companyIds.length],
          name: `drain ${i}`,
          type: 'http',
          config: JSON.stringify({
            url: `http://127.0.0.1:9/m/${i}`,
            method: 'GET',
            accepted_status_codes: ['200-299'],
            follow_redirects: true,
          }),
          is_public: false,
          interval_seconds: INTERVAL_MS / 1000,
          timeout_seconds: 10,
          confirmations: 2,
          next_due_at: start + 3_600_000,
          created_at: start,
        }),
        locations: JSON.stringify(slugs),
        run_local: false,
      });
    }
    await withTransaction(services.db, (tx) => tx.k.insertInto('monitors').values(rows).execute());
  }

  const take = { node: 0, pg: 0, wall: 0 };
  const store = { node: 0, pg: 0, wall: 0 };
  const compact = { node: 0, pg: 0, wall: 0 };
  let results = 0;
  let compacted = 0;
  const seqs = Array.from({ length: LOCATIONS }, () => 0);
  for (let round = 0; round < ROUNDS; round++) {
    // A running platform's tables have statistics (autovacuum analyzes them as they grow); fresh
    // ones would be planned as if empty.
    if (services.db.kind === 'postgres') await sql`analyze`.execute(services.db.k);
    const checkedAt = start + round * INTERVAL_MS;
    for (let l = 0; l < LOCATIONS; l++) {
      for (let from = 0; from < MONITORS; from += BATCH) {
        const batch: ProbeResultInput[] = monitorIds.slice(from, from + BATCH).map((id, k) => {
          // one monitor in fifty fails (some incidents open and close), the rest answer
          const down = (from + k) % 50 === 0 && round > 0;
          return {
            id: STREAM_IDS ? streamResultId(`drainbenchlocation${l}`, ++seqs[l]) : `${id}-${l}-${round}`,
            monitor_id: id,
            // each location at its own offset in the interval, as probes spread them (one
            // millisecond for all five would keep one check_results row of five)
            checked_at: checkedAt + ((from + k + l * 12_007) % INTERVAL_MS),
            status: down ? 'down' : 'operational',
            response_time_ms: down ? null : 40 + ((from + k) % 90),
            http_code: down ? null : 200,
            error: down ? 'Connection refused' : null,
            timings: down ? { dns: 1, total: 3 } : { dns: 1, connect: 2, ttfb: 30, total: 45 },
            cert_expires_at: null,
            cert_issuer: null,
            cert_subject: null,
          };
        });
        let mark = begin();
        const answer = await postProbeResults(services, tokens[l], {
          stats: { instance: `p${l}`, checks_per_second: 333, lag_ms_p99: 5 },
          results: batch,
        });
        end(mark, take);
        results += answer.accepted;
        mark = begin();
        const stored = await drainInbox(services);
        end(mark, store);
        if (stored !== answer.accepted) throw new Error(`stored ${stored} of ${answer.accepted} taken`);
      }
    }
    // The check-compaction job's run every two minutes (two rounds): each result moves once from
    // its row into its monitor's hour chunk, which is rewritten with it.
    if (round % 2 === 1 || round === ROUNDS - 1) {
      const mark = begin();
      compacted += await compactResults(services.db, checkedAt + INTERVAL_MS + RAW_GRACE_MS + 1);
      end(mark, compact);
    }
  }
  if (compacted !== results) throw new Error(`compacted ${compacted} of ${results} stored`);
  const us = (ms: number) => ((ms * 1000) / results).toFixed(1);
  const load = os.loadavg();
  process.stdout.write(
    [
      `probe results, the platform's own cost: ${results} results (${MONITORS} monitors x ${LOCATIONS} locations x ${ROUNDS} rounds, calls of ${BATCH}, ${STREAM_IDS ? 'stream' : 'plain'} ids), ${services.db.kind}; load ${load.map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`,
      `  take (delivery call)   node ${us(take.node)} µs/result${cluster ? `, postgres ${us(take.pg)} µs/result` : ''}; wall ${us(take.wall)} µs/result (${((take.wall / results) * BATCH).toFixed(1)} ms a call of ${BATCH})`,
      `  store (inbox drain)    node ${us(store.node)} µs/result${cluster ? `, postgres ${us(store.pg)} µs/result` : ''}; wall ${us(store.wall)} µs/result`,
      `  compact (chunks)       node ${us(compact.node)} µs/result${cluster ? `, postgres ${us(compact.pg)} µs/result` : ''}; wall ${us(compact.wall)} µs/result (every two rounds, as the job runs every two minutes)`,
      `  one core ingests       ${(1e6 / (((take.node + take.pg + store.node + store.pg + compact.node + compact.pg) * 1000) / results)).toFixed(0)} results/s at this CPU cost   (the five-probe scenario wants 1,667/s beside the page and the probes)`,
      '',
    ].join('\n'),
  );
} finally {
  await services.db.close();
  cluster?.stop();
}
