// Many monitors at once, for bench/console (10 companies of 1,000) and the console's e2e specs at
// scale: http, tcp, dns, ssl and push monitors with realistic names and targets (a few down,
// degraded or paused), each with daily rollups (90 days by default) and hourly ones (7 days),
// what the list's uptime and sparkline and the monitor page's 24 h to 90 d charts read. Written
// in multi-row inserts, one transaction per company: seconds, not 10,000 API calls. The monitors
// are not due for a week, so a running engine leaves them alone.
import type { Insertable } from 'kysely';
import type { Db } from '../../src/server/db/connect.ts';
import { withTransaction } from '../../src/server/db/scope.ts';
import type { MonitorsTable } from '../../src/server/db/schema/monitoring.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { LatencySketch } from '../../src/lib/latency-sketch.ts';
import { companiesRepo } from '../../src/server/db/repositories/companies-repo.ts';
import { insertRollups, type SeedRollup } from './rollups.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const SERVICES = ['api', 'checkout', 'login', 'search', 'billing', 'cdn', 'mail', 'db', 'queue', 'reports'];
const REGIONS = ['eu-west', 'us-east', 'ap-south', 'eu-central'];
const KINDS = ['http', 'http', 'http', 'http', 'tcp', 'dns', 'ssl', 'push'] as const;
/** Rows per INSERT: under SQLite's limit of bound parameters (16 columns x 500). */
const BATCH = 500;

export interface SeededCompany {
  id: string;
  name: string;
  subdomain: string;
}

/** Deterministic 0..1 noise, so every run seeds the same figures. */
function noise(n: number): number {
  const x = Math.sin(n * 12.9898) * 43758.5453;
  return x - Math.floor(x);
}

function monitorRow(companyId: string, sub: string, i: number, now: number): Insertable<MonitorsTable> {
  const kind = KINDS[i % KINDS.length];
  const service = SERVICES[i % SERVICES.length];
  const region = REGIONS[Math.floor(i / SERVICES.length) % REGIONS.length];
  const name = `${service}-${String(i).padStart(4, '0')} ${region}`;
  const host = `${service}-${i}.${region}.${sub}.example.com`;
  const config =
    kind === 'http'
      ? { url: `https://${host}/health`, method: 'GET', accepted_status_codes: ['200-299'], follow_redirects: true }
      : kind === 'tcp'
        ? { host, port: 5432 }
        : kind === 'dns'
          ? { host, record_type: 'A' }
          : kind === 'ssl'
            ? { host, port: 443 }
            : {};
  const status = i % 97 === 0 ? 'down' : i % 41 === 0 ? 'degraded' : 'operational';
  const base = 40 + Math.round(noise(i) * 360);
  return {
    id: newId(),
    company_id: companyId,
    name,
    type: kind,
    config: JSON.stringify(config),
    is_public: i % 3 === 0,
    is_paused: i % 53 === 0,
    interval_seconds: 60,
    timeout_seconds: 10,
    confirmations: 2,
    status,
    status_since: now - ((i % 20) + 1) * HOUR,
    pending_status: null,
    pending_count: 0,
    last_checked_at: kind === 'push' ? null : now - (i % 60) * 1000,
    last_response_time_ms: kind === 'push' ? null : base,
    last_http_code: kind === 'http' ? (status === 'down' ? 503 : 200) : null,
    last_error: status === 'down' ? 'HTTP 503 is not an accepted status code' : null,
    cert_expires_at: null,
    push_token_hash: null,
    last_push_at: null,
    next_due_at: now + 7 * DAY,
    lease_owner: null,
    lease_expires_at: null,
    last_answers: null,
    created_at: now - 100 * DAY + i * 60_000,
    updated_at: now - DAY,
  };
}

/** One period's counts around a monitor's usual response time, with an outage now and then. */
function period(m: Insertable<MonitorsTable>, seed: number, checks: number) {
  const base = Number(m.last_response_time_ms ?? 100);
  const failures = noise(seed) < 0.03 ? Math.ceil(checks * noise(seed + 1) * 0.2) : 0;
  const timed = m.type === 'push' ? 0 : checks - failures;
  const avg = base * (0.8 + noise(seed + 2) * 0.5);
  const sketch = new LatencySketch();
  sketch.add(avg * 0.7, Math.round(timed * 0.3));
  sketch.add(avg, Math.round(timed * 0.6));
  sketch.add(avg * 2.5, timed - Math.round(timed * 0.3) - Math.round(timed * 0.6));
  return {
    monitor_id: m.id as string,
    company_id: m.company_id as string,
    checks,
    failures,
    degraded: 0,
    maintenance: 0,
    sum_response_ms: Math.round(avg * timed),
    min_response_ms: timed ? Math.round(avg * 0.6) : null,
    max_response_ms: timed ? Math.round(avg * 3) : null,
    response_sketch: timed ? sketch.serialize() : '',
    p95_response_ms: timed ? Math.round(avg * 2.5) : null,
    last_status: failures ? ('down' as const) : ('operational' as const),
    last_http_code: m.type === 'http' ? (failures ? 503 : 200) : null,
  };
}

async function inBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

export interface ConsoleSeed {
  companies: number;
  perCompany: number;
  hourlyHours: number;
  dailyDays: number;
}

/** Seeds companies (bench0, bench1, ...) of monitors with their rollups; answers the companies. */
export async function seedConsole(db: Db, now: number, over: Partial<ConsoleSeed> = {}): Promise<SeededCompany[]> {
  const { companies, perCompany, hourlyHours, dailyDays } = {
    companies: 10,
    perCompany: 1000,
    hourlyHours: 7 * 24,
    dailyDays: 90,
    ...over,
  };
  const out: SeededCompany[] = [];
  const thisHour = Math.floor(now / HOUR) * HOUR;
  const today = Math.floor(now / DAY) * DAY;
  for (let c = 0; c < companies; c++) {
    const id = newId();
    const subdomain = `bench${c}`;
    const name = `Bench Company ${c}`;
    await companiesRepo(db).insert({
      id,
      name,
      email: `owner@${subdomain}.example.com`,
      subdomain,
      slug: subdomain,
      plan: 'enterprise',
      max_users: 50,
      created_at: now - 120 * DAY,
      updated_at: now - 120 * DAY,
    });
    out.push({ id, name, subdomain });
    const monitors = Array.from({ length: perCompany }, (_, i) => monitorRow(id, subdomain, c * perCompany + i, now));
    await withTransaction(db, async (tx) => {
      await inBatches(monitors, (b) => tx.k.insertInto('monitors').values(b).execute());
      const hourly: SeedRollup[] = [];
      const daily: SeedRollup[] = [];
      monitors.forEach((m, i) => {
        for (let h = 0; h < hourlyHours; h++) {
          const start = thisHour - h * HOUR;
          hourly.push({ ...period(m, i * 1000 + h, h === 0 ? 30 : 60), hour_start: start, last_checked_at: start + 59 * 60_000 });
        }
        for (let d = 0; d < dailyDays; d++) {
          const start = today - d * DAY;
          daily.push({ ...period(m, i * 7919 + d, 1440), day_start: start, last_checked_at: start + DAY - 60_000 });
        }
      });
      await inBatches(hourly, (b) => insertRollups(tx, 'hourly', b));
      await inBatches(daily, (b) => insertRollups(tx, 'daily', b));
    });
  }
  return out;
}
