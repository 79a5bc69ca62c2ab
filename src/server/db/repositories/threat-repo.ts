// SQL for threat intelligence: feed indicators (imported in large batches through a staging
// table, matched by exact value only), each feed's last import, the lookalike domains checked for
// registration, and the breach lookup of a company's e-mail domain.
import { sql, type Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { ThreatBreachesTable, ThreatFeedsTable, ThreatIndicatorsTable, ThreatLookalikesTable } from '../schema/threat.ts';

export type IndicatorRow = Selectable<ThreatIndicatorsTable>;
export type FeedRow = Selectable<ThreatFeedsTable>;
export type LookalikeRow = Selectable<ThreatLookalikesTable>;
export type BreachRow = Selectable<ThreatBreachesTable>;

/** One indicator of an import; first seen is set by the import when the feed does not say. */
export type NewIndicator = Omit<ThreatIndicatorsTable, 'feed' | 'first_seen_at'> & { first_seen_at: number | null };

/** Values per lookup statement (one JSON or array parameter) */
const CHUNK = 5000;

export function threatRepo(db: DbScope) {
  const k = db.k;
  return {
    /**
     * Opens a feed's import (inside its transaction): an empty staging table the batches go
     * to, compared with the stored feed at the end (finishImport), so a refresh writes only the
     * entries that came, went or changed.
     */
    async startImport(): Promise<void> {
      if (db.kind === 'postgres') {
        await sql`create temp table threat_import (value varchar primary key, kind varchar not null, threat varchar not null, tags varchar not null, first_seen_at bigint) on commit drop`.execute(
          k,
        );
      } else {
        await sql`create temp table threat_import (value text primary key, kind text not null, threat text not null, tags text not null, first_seen_at integer)`.execute(
          k,
        );
      }
    },
    /**
     * Stages one batch as one statement with a parameter per column (arrays on PostgreSQL, one
     * JSON text on SQLite: a million rows as separate bound parameters would cost more in
     * building the statements than in writing them). A value staged again takes the later line.
     * A batch must name a value once (PostgreSQL refuses to upsert a row twice in one statement).
     */
    async stageIndicators(rows: NewIndicator[]): Promise<void> {
      if (rows.length === 0) return;
      const later = sql`on conflict (value) do update set kind = excluded.kind, threat = excluded.threat, tags = excluded.tags, first_seen_at = excluded.first_seen_at`;
      if (db.kind === 'postgres') {
        const col = <T>(f: (r: NewIndicator) => T) => rows.map(f);
        await sql`insert into threat_import (value, kind, threat, tags, first_seen_at)
          select * from unnest(${col((r) => r.value)}::varchar[], ${col((r) => r.kind)}::varchar[], ${col((r) => r.threat)}::varchar[],
                               ${col((r) => r.tags)}::varchar[], ${col((r) => r.first_seen_at)}::bigint[])
          ${later}`.execute(k);
      } else {
        const json = JSON.stringify(rows.map((r) => [r.value, r.kind, r.threat, r.tags, r.first_seen_at]));
        // "where true": SQLite's grammar needs it between a SELECT and ON CONFLICT.
        await sql`insert into threat_import (value, kind, threat, tags, first_seen_at)
          select j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4 from json_each(${json}) as j where true ${later}`.execute(
          k,
        );
      }
    },
    /**
     * Makes the staged entries the feed's: entries no longer listed go, changed ones are
     * updated, new ones are inserted (first seen when the feed says, else `at`); unchanged ones
     * are not written at all.
     */
    async finishImport(feed: string, at: number): Promise<void> {
      // PostgreSQL plans the joins below, and later lookups, by statistics a temp table never
      // gets by itself and a freshly filled table gets only minutes later: without them a
      // million-row feed is joined by nested loops and matched by sequential scans.
      if (db.kind === 'postgres') await sql`analyze threat_import`.execute(k);
      await sql`delete from threat_indicators where feed = ${feed}
        and not exists (select 1 from threat_import i where i.value = threat_indicators.value)`.execute(k);
      await sql`update threat_indicators set kind = i.kind, threat = i.threat, tags = i.tags from threat_import i
        where threat_indicators.feed = ${feed} and threat_indicators.value = i.value
        and (threat_indicators.kind <> i.kind or threat_indicators.threat <> i.threat or threat_indicators.tags <> i.tags)`.execute(k);
      await sql`insert into threat_indicators (value, feed, kind, threat, tags, first_seen_at)
        select i.value, ${feed}, i.kind, i.threat, i.tags, coalesce(i.first_seen_at, ${at}) from threat_import i
        where not exists (select 1 from threat_indicators t where t.feed = ${feed} and t.value = i.value)
        on conflict (value, feed) do nothing`.execute(k);
      await sql`drop table threat_import`.execute(k);
      if (db.kind === 'postgres') await sql`analyze threat_indicators`.execute(k);
    },
    /**
     * SQLite: sets the page cache (pages, or KiB when negative), large enough for a million-row
     * index while a feed is written (random keys otherwise spill the default 8 MB cache to disk
     * on almost every insert); answers the setting before, to restore. PostgreSQL, or `null`
     * (nothing to restore): nothing to do.
     */
    async bulkCache(size: number | null): Promise<number | null> {
      if (db.kind !== 'sqlite' || size === null) return null;
      const before = await sql<{ cache_size: number }>`pragma cache_size`.execute(k);
      await sql.raw(`pragma cache_size = ${Math.trunc(size)}`).execute(k);
      return Number(before.rows[0]?.cache_size ?? -2000);
    },
    async countIndicators(feed: string): Promise<number> {
      const r = await k
        .selectFrom('threat_indicators')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('feed', '=', feed)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** Feeds no longer configured: their indicators and state go away. */
    async dropFeedsExcept(names: string[]): Promise<void> {
      let q = k.deleteFrom('threat_indicators');
      let f = k.deleteFrom('threat_feeds');
      if (names.length) {
        q = q.where('feed', 'not in', names);
        f = f.where('name', 'not in', names);
      }
      await q.execute();
      await f.execute();
    },
    /** Indicators whose value is one of `values` (addresses, networks, names and their parents). */
    async byValues(values: string[]): Promise<IndicatorRow[]> {
      const unique = [...new Set(values)];
      const out: IndicatorRow[] = [];
      for (let i = 0; i < unique.length; i += CHUNK) {
        const part = unique.slice(i, i + CHUNK);
        const q =
          db.kind === 'postgres'
            ? sql<IndicatorRow>`select * from threat_indicators where value = any(${part}::varchar[])`
            : sql<IndicatorRow>`select * from threat_indicators where value in (select value from json_each(${JSON.stringify(part)}))`;
        out.push(...(await q.execute(k)).rows);
      }
      return out;
    },
    async saveFeed(row: FeedRow): Promise<void> {
      const { name, ...rest } = row;
      await k
        .insertInto('threat_feeds')
        .values(row)
        .onConflict((oc) => oc.column('name').doUpdateSet(rest))
        .execute();
    },
    /** A failed attempt keeps the indicators and count of the last good import. */
    async feedFailed(name: string, url: string, format: string, error: string, at: number): Promise<void> {
      await k
        .insertInto('threat_feeds')
        .values({ name, url, format, indicators: 0, cidr_prefixes: '[]', imported_at: null, attempted_at: at, error: error.slice(0, 500) })
        .onConflict((oc) => oc.column('name').doUpdateSet({ url, format, attempted_at: at, error: error.slice(0, 500) }))
        .execute();
    },
    /** The CIDR prefix lengths the feeds hold ('v4/24', 'v6/32'): matching asks only for those networks. */
    async cidrPrefixes(): Promise<Set<string>> {
      const rows = await k.selectFrom('threat_feeds').select('cidr_prefixes').execute();
      return new Set(rows.flatMap((r) => JSON.parse(r.cidr_prefixes) as string[]));
    },
    listFeeds(): Promise<FeedRow[]> {
      return k.selectFrom('threat_feeds').selectAll().orderBy('name').execute();
    },

    /** Adds candidates not known yet (never checked). */
    async addLookalikes(companyId: string, domain: string, list: Array<{ candidate: string; technique: string }>): Promise<void> {
      for (let i = 0; i < list.length; i += 500) {
        await k
          .insertInto('threat_lookalikes')
          .values(
            list.slice(i, i + 500).map((l) => ({
              company_id: companyId,
              domain,
              candidate: l.candidate,
              technique: l.technique,
              registered: false,
              first_registered_at: null,
              checked_at: null,
            })),
          )
          .onConflict((oc) => oc.columns(['company_id', 'candidate']).doNothing())
          .execute();
      }
    },
    /** The candidates checked longest ago (never checked first). */
    dueLookalikes(companyId: string, limit: number): Promise<LookalikeRow[]> {
      return k
        .selectFrom('threat_lookalikes')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy(sql`case when checked_at is null then 0 else 1 end`)
        .orderBy('checked_at')
        .orderBy('candidate')
        .limit(limit)
        .execute();
    },
    async markLookalike(
      companyId: string,
      candidate: string,
      registered: boolean,
      firstRegisteredAt: number | null,
      at: number,
    ): Promise<void> {
      await k
        .updateTable('threat_lookalikes')
        .set({ registered, first_registered_at: firstRegisteredAt, checked_at: at })
        .where('company_id', '=', companyId)
        .where('candidate', '=', candidate)
        .execute();
    },
    /** Candidates of domains the company no longer has go away. */
    async dropLookalikesExcept(companyId: string, domains: string[]): Promise<void> {
      let q = k.deleteFrom('threat_lookalikes').where('company_id', '=', companyId);
      if (domains.length) q = q.where('domain', 'not in', domains);
      await q.execute();
    },
    /** Registered lookalikes first, then by name; every company's for `null`. */
    listLookalikes(companyId: string | null, limit: number): Promise<LookalikeRow[]> {
      let q = k.selectFrom('threat_lookalikes').selectAll();
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.orderBy('registered', 'desc').orderBy('first_registered_at', 'desc').orderBy('candidate').limit(limit).execute();
    },
    async countLookalikes(companyId: string | null): Promise<{ total: number; checked: number }> {
      let q = k
        .selectFrom('threat_lookalikes')
        .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>('checked_at').as('checked')]);
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      const r = await q.executeTakeFirstOrThrow();
      return { total: Number(r.total), checked: Number(r.checked) };
    },

    /** Active companies that have threat intelligence (companies.threat_feed_enabled). */
    enabledCompanies(): Promise<Array<{ id: string; email: string; services: string }>> {
      return k
        .selectFrom('companies')
        .select(['id', 'email', 'services'])
        .where('threat_feed_enabled', '=', true)
        .where('is_active', '=', true)
        .orderBy('id')
        .execute();
    },
    async saveBreach(row: BreachRow): Promise<void> {
      const { company_id, ...rest } = row;
      await k
        .insertInto('threat_breaches')
        .values(row)
        .onConflict((oc) => oc.column('company_id').doUpdateSet(rest))
        .execute();
    },
    getBreach(companyId: string): Promise<BreachRow | undefined> {
      return k.selectFrom('threat_breaches').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    },
  };
}
