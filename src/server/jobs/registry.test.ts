// The timed work of the product, run through the jobs runner on real databases: raw check
// results are compacted; those past the plan's retention, spans past it, and expired refresh tokens, one-time codes
// and pending sign-ups (kept a day past expiry so reuse detection still sees them) go away;
// what is still kept stays.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, freshDb, tempDir } from '../../../tests/support/test-db.ts';
import { seedCompany, seedUser } from '../../../tests/support/fixtures.ts';
import { parseConfig } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { Services } from '../domain/context.ts';
import { createServices } from '../services.ts';
import { SpanWriter } from '../telemetry/span-writer.ts';
import { checksRepo } from '../db/repositories/checks-repo.ts';
import { JOBS } from './registry.ts';
import type { Job } from './job.ts';
import { createJobRunner } from './runner.ts';

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const isJob = (v: unknown): v is Job =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as Job).name === 'string' &&
  typeof (v as Job).periodMs === 'number' &&
  typeof (v as Job).run === 'function';

/**
 * Every Job the modules of this folder export: all of them must be in the table. A worker
 * thread's entry (`*-thread.ts`, e.g. the probe drain thread's) runs only as a thread, so it is
 * not imported here.
 */
async function jobsInFolder(): Promise<Job[]> {
  const modules = readdirSync(import.meta.dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('-thread.ts'));
  const found: Job[] = [];
  for (const file of modules) found.push(...Object.values(await import(`./${file}`)).filter(isJob));
  return found;
}

const jobNames = () => JOBS.map((j) => j.name).sort();

describe('the jobs table', () => {
  it('lists every job module of this folder, each once under its own kebab-case name (which names its lease)', async () => {
    const found = await jobsInFolder();
    expect(found.length).toBeGreaterThan(0);
    for (const job of found) expect(JOBS, `${job.name} is not in registry.ts`).toContain(job);
    expect(JOBS).toHaveLength(found.length);
    expect(new Set(jobNames()).size).toBe(JOBS.length);
    for (const name of jobNames()) expect(name).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  it('runs the housekeeping hourly, alert delivery every second, check compaction every 2 minutes, maintenance notices, escalation, vulnerability scans, probe health and the probe inbox every 15 s, incident evidence every minute, security re-verification and SLA report schedules every 15 min, domain checks every 5 minutes, TLS analyses every 10 min', () => {
    const periods: Record<string, number> = {
      'alert-delivery': 1000,
      'check-compaction': 2 * 60_000,
      'maintenance-notices': 15_000,
      escalation: 15_000,
      'security-verification': 15 * 60_000,
      'domain-checks': 5 * 60_000,
      'tls-analysis': 600_000,
      'vulnerability-scans': 15_000,
      'sla-reports': 15 * 60_000,
      'probe-health': 15_000,
      'probe-inbox': 15_000,
      'incident-evidence': 60_000,
      'anomaly-watch': 5 * 60_000,
    };
    for (const name of Object.keys(periods)) expect(jobNames()).toContain(name);
    for (const job of JOBS) expect(job.periodMs, job.name).toBe(periods[job.name] ?? HOUR);
  });
});

describe.each(DB_KINDS)('the registered jobs on %s', (kind) => {
  let db: Db;
  let services: Services;
  beforeAll(async () => {
    db = await freshDb(kind);
    services = await createServices(parseConfig({ NODE_ENV: 'test', DATA_DIR: tempDir(), LOG_LEVEL: 'silent' }), { db, now: () => NOW });
  });
  afterAll(async () => {
    await db?.close();
  });
  const k = () => db.k;

  it('prune old results, spans and sign-in records at start and then hourly', async () => {
    const company = await seedCompany(services, { plan: 'starter' });
    const user = await seedUser(services, { userType: 2, companyId: company.id });

    await k()
      .insertInto('monitors')
      .values({
        id: 'm-old',
        company_id: company.id,
        name: 'old',
        type: 'http',
        config: '{}',
        interval_seconds: 60,
        timeout_seconds: 5,
        next_due_at: NOW + 10 * DAY,
        status_since: null,
        pending_status: null,
        last_checked_at: null,
        last_response_time_ms: null,
        last_http_code: null,
        last_error: null,
        cert_expires_at: null,
        push_token_hash: null,
        last_push_at: null,
        lease_owner: null,
        lease_expires_at: null,
        last_answers: null,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    const result = (ago: number) => ({
      monitor_id: 'm-old',
      checked_at: NOW - ago,
      company_id: company.id,
      status: 'operational' as const,
      response_time_ms: 1,
      http_code: 200,
      error: null,
      timings: null,
      cert_expires_at: null,
    });
    await k()
      .insertInto('check_results')
      .values([result(DAY), result(8 * DAY)])
      .execute();

    const writer = new SpanWriter(db);
    const span = (i: number, ago: number) => ({
      trace_id: String(i).padStart(32, 'a'),
      span_id: String(i).padStart(16, '0'),
      parent_span_id: null,
      name: 'GET /x',
      service: 'api',
      kind: 2,
      start_us: (NOW - ago) * 1000,
      duration_ms: 10,
      status_code: 0,
      http_status: 200,
      is_error: false,
      is_request: true,
      error_message: null,
      attributes: '{}',
      events: '[]',
    });
    await writer.write(company.id, [span(1, DAY), span(2, 8 * DAY)]);
    await writer.close();

    const token = (id: string, expiredAgo: number) => ({
      id,
      family_id: id,
      user_id: user.id,
      token_hash: `hash-${id}`,
      host: 'localhost',
      user_agent: null,
      created_at: NOW - 30 * DAY,
      expires_at: NOW - expiredAgo,
      used_at: null,
      revoked_at: null,
    });
    await k()
      .insertInto('refresh_tokens')
      .values([token('t-gone', 2 * DAY), token('t-grace', HOUR)])
      .execute();
    const code = (id: string, expiredAgo: number) => ({
      id,
      kind: 'reset' as const,
      code_hash: `code-${id}`,
      user_id: user.id,
      host: 'localhost',
      session_version: 1,
      created_at: NOW - 3 * DAY,
      expires_at: NOW - expiredAgo,
      used_at: null,
    });
    await k()
      .insertInto('auth_codes')
      .values([code('c-gone', 2 * DAY), code('c-grace', HOUR)])
      .execute();
    const signup = (id: string, expiredAgo: number) => ({
      id,
      code_hash: `signup-${id}`,
      email: `${id}@example.com`,
      name: id,
      password_hash: 'x',
      created_at: NOW - 3 * DAY,
      expires_at: NOW - expiredAgo,
      used_at: null,
    });
    await k()
      .insertInto('pending_signups')
      .values([signup('s-gone', 2 * DAY), signup('s-grace', HOUR)])
      .execute();

    const log: string[] = [];
    const runner = createJobRunner(services, { log: (line) => void log.push(line) });
    expect((await runner.runDue()).sort()).toEqual(jobNames()); // every job at start

    const ids = async (table: 'refresh_tokens' | 'auth_codes' | 'pending_signups') =>
      (await k().selectFrom(table).select('id').execute()).map((r) => r.id);
    // The day-old result is compacted into its hour's chunk, the 8-day-old one is gone either way.
    const results = await checksRepo(db).list('m-old', { limit: 10 });
    expect(results.map((r) => Number(r.checked_at))).toEqual([NOW - DAY]);
    expect(await k().selectFrom('check_results').select('checked_at').execute()).toEqual([]);
    const spans = await k().selectFrom('spans').select('span_id').where('company_id', '=', company.id).execute();
    expect(spans.map((r) => r.span_id)).toEqual([span(1, 0).span_id]);
    expect(await ids('refresh_tokens')).toEqual(['t-grace']);
    expect(await ids('auth_codes')).toEqual(['c-grace']);
    expect(await ids('pending_signups')).toEqual(['s-grace']);
    // On PostgreSQL the days around NOW get their partitions (the migration made today's and the week ahead).
    expect(log.filter((l) => !l.includes('check-compaction')).sort()).toEqual([
      'jobs: check-results-retention: pruned 1 raw results past retention',
      ...(kind === 'postgres' ? ['jobs: day-partitions: created 24 day partitions'] : []),
    ]);
    expect(log.filter((l) => l.includes('check-compaction'))).toEqual([
      expect.stringMatching(/^jobs: check-compaction: compacted [12] check results$/),
    ]);
    expect(await runner.runDue()).toEqual([]); // the next runs are a second, 15 s, 15 min and an hour away
  });
});
