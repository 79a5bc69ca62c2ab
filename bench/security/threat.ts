// Threat-intelligence benchmark (issue 16 targets), on SQLite and on PostgreSQL (a throwaway
// cluster, or BENCH_DATABASE_URL): a feed of --indicators (default 1,000,000: domains, IPv4
// addresses and a few thousand CIDR ranges, as abuse.ch and Spamhaus lists mix them) served by a
// loopback HTTP server is imported, then imported again (the hourly refresh: every row upserted);
// then a company's 50 assets (with two addresses each) and 1,000 trace peer hosts are matched
// against it, as GET /api/v1/security/threats does. Targets: import <= 30 s, matching <= 100 ms.
// --only sqlite|postgres runs one database. Wall-clock times are the targets; the CPU time spent
// (this process's, plus the PostgreSQL server processes' read from /proc when it runs on this
// machine) is printed beside them, since a machine shared with other work stretches the former.
import { mkdtempSync, writeFileSync, createReadStream, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDb, type Db } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { spanPeersRepo } from '../../src/server/db/repositories/span-peers-repo.ts';
import { importFeed } from '../../src/server/security/threat/feed-import.ts';
import { matchFeeds } from '../../src/server/security/threat/match.ts';
import { createDatabase, startPgCluster } from '../../tests/support/pg-cluster.ts';

const { values } = parseArgs({
  options: {
    indicators: { type: 'string', default: '1000000' },
    only: { type: 'string' },
  },
});
const N = Number(values.indicators);
const CIDRS = 5000;
const IMPORT_TARGET_S = 30;
const MATCH_TARGET_MS = 100;

const ip = (i: number) => `${10 + ((i >>> 24) % 200)}.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`;

/** A plain list: 60 % domains, the rest addresses, CIDRS ranges. */
function writeFeed(file: string): void {
  const lines: string[] = ['# benchmark feed'];
  for (let i = 0; i < N; i++) {
    if (i < CIDRS) lines.push(`${100 + (i % 50)}.${(i * 7) & 255}.${i & 255}.0/24`);
    else if (i % 5 < 3) lines.push(`host${i}.bad${i % 9973}.example`);
    else lines.push(ip(i * 2654435761));
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}

async function serve(file: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.txt`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** CPU seconds used so far by the database server's processes (PostgreSQL on this machine; 0 for SQLite, which runs in this process). */
async function serverCpu(db: Db): Promise<number> {
  if (db.kind !== 'postgres') return 0;
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity`.execute(db.k);
  const tick = 100; // USER_HZ
  let total = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / tick; // utime, stime
    } catch {
      /* gone */
    }
  }
  return total;
}

async function bench(kind: string, db: Db, feedUrl: string) {
  await migrateToLatest(db);
  const feed = { name: 'bench', url: feedUrl, format: 'plain' as const, threat: 'malware' };
  const limits = { maxBytes: 500 * 1024 * 1024, timeoutMs: 300_000 };
  const cpuS = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1e6;
  let t = performance.now();
  let cpu = process.cpuUsage();
  let dbCpu = await serverCpu(db);
  const stored = await importFeed(db, feed, limits, Date.now());
  const firstS = (performance.now() - t) / 1000;
  const firstCpu = cpuS(process.cpuUsage(cpu)) + (await serverCpu(db)) - dbCpu;
  t = performance.now();
  cpu = process.cpuUsage();
  dbCpu = await serverCpu(db);
  await importFeed(db, feed, limits, Date.now() + 1);
  const againS = (performance.now() - t) / 1000;
  const againCpu = cpuS(process.cpuUsage(cpu)) + (await serverCpu(db)) - dbCpu;

  // A company: 50 hosts with two addresses each (one listed), 1,000 peers (ten listed).
  const company = 'bench-co';
  const now = Date.now();
  const subjects: string[] = [];
  for (let a = 0; a < 50; a++) subjects.push(`www${a}.company.example`, `192.0.2.${a}`, `2001:db8::${a.toString(16)}`);
  subjects.push('host12345.bad12345.example', '100.7.1.9');
  const peers = Array.from({ length: 1000 }, (_, i) => ({
    company_id: company,
    host: i % 100 === 0 ? `host${5000 + i * 5}.bad${(5000 + i * 5) % 9973}.example` : `api${i}.partner.example`,
    service: `svc${i % 10}`,
    seen_at: now,
  }));
  await spanPeersRepo(db).touch(peers);
  const times: number[] = [];
  const cpus: number[] = [];
  let found = 0;
  for (let run = 0; run < 21; run++) {
    t = performance.now();
    cpu = process.cpuUsage();
    const recent = await spanPeersRepo(db).recent(company, now - 7 * 86_400_000, 5000);
    const m = await matchFeeds(db, [...subjects, ...recent.map((p) => p.host)]);
    times.push(performance.now() - t);
    cpus.push(cpuS(process.cpuUsage(cpu)) * 1000);
    found = [...m.values()].flat().length;
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const median = times[10];
  const worst = times[20];
  const ok = (v: number, target: number) => (v <= target ? 'ok' : 'MISSED');
  console.log(
    `${kind}: load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  console.log(
    `${kind}: import of ${stored.toLocaleString('en')} indicators ${firstS.toFixed(1)} s, CPU ${firstCpu.toFixed(1)} s (target <= ${IMPORT_TARGET_S} s, ${ok(firstS, IMPORT_TARGET_S)})`,
  );
  console.log(
    `${kind}: re-import (refresh)            ${againS.toFixed(1)} s, CPU ${againCpu.toFixed(1)} s (target <= ${IMPORT_TARGET_S} s, ${ok(againS, IMPORT_TARGET_S)})`,
  );
  console.log(
    `${kind}: matching 152 asset subjects + 1,000 peers: median ${median.toFixed(1)} ms, worst of 21 ${worst.toFixed(1)} ms, median CPU ${cpus[10].toFixed(1)} ms (target <= ${MATCH_TARGET_MS} ms, ${ok(worst, MATCH_TARGET_MS)}); ${found} matches`,
  );
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-threat-'));
const file = path.join(dir, 'feed.txt');
writeFeed(file);
const server = await serve(file);
try {
  if (values.only !== 'postgres') {
    const db = openDb({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') });
    await bench('sqlite', db, server.url);
    await db.close();
  }
  if (values.only !== 'sqlite') {
    const cluster = process.env.BENCH_DATABASE_URL ? undefined : await startPgCluster();
    const url = process.env.BENCH_DATABASE_URL ?? (await createDatabase(cluster!.url, 'bench_threat'));
    const db = openDb({ kind: 'postgres', url });
    try {
      await bench('postgres', db, server.url);
    } finally {
      await db.close();
      cluster?.stop();
    }
  }
} finally {
  await server.close();
}
