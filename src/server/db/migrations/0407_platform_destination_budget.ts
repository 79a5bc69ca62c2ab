// The per-destination check budget (issue 25, item 17): each monitor's destination host (the
// server its checks connect to: an http monitor's URL host, a tcp or ssl monitor's host, a dns
// monitor's own resolver; null for push monitors and dns monitors asking the platform's
// resolvers), so the checks a minute every company's monitors send to one host can be summed
// with an index instead of parsing every monitor's config.
import type { Kysely } from 'kysely';

/** As lib/destination-host.ts normalises it (copied: a migration keeps the rule of its day). */
function normalize(host: string): string {
  let h = host.trim().toLowerCase().replace(/\.$/, '');
  if (h.includes(':') && !h.startsWith('[')) h = `[${h}]`;
  try {
    h = new URL(`http://${h}/`).hostname;
  } catch {
    // kept as written
  }
  return h.replace(/^\[|\]$/g, '');
}

function hostPart(hostPort: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(hostPort);
  if (bracketed) return bracketed[1];
  return hostPort.split(':').length === 2 ? hostPort.split(':')[0] : hostPort;
}

const DESTINATION: Record<string, (c: Record<string, unknown>) => string | null> = {
  http: (c) => {
    try {
      return new URL(String(c.url)).hostname;
    } catch {
      return null;
    }
  },
  tcp: (c) => (typeof c.host === 'string' && c.host ? c.host : null),
  ssl: (c) => (typeof c.host === 'string' && c.host ? c.host : null),
  dns: (c) => (typeof c.resolver === 'string' && c.resolver ? hostPart(c.resolver) : null),
  push: () => null,
};

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('destination_host', 'varchar(253)').execute();
  await db.schema.createIndex('monitors_destination_host').on('monitors').columns(['destination_host']).execute();
  for (let after = '', page: Array<{ id: string; type: string; config: string }>; ; ) {
    page = await db.selectFrom('monitors').select(['id', 'type', 'config']).where('id', '>', after).orderBy('id').limit(1000).execute();
    if (page.length === 0) break;
    for (const m of page) {
      let config: Record<string, unknown>;
      try {
        config = JSON.parse(m.config) as Record<string, unknown>;
      } catch {
        continue;
      }
      const host = DESTINATION[m.type]?.(config);
      if (host)
        await db
          .updateTable('monitors')
          .set({ destination_host: normalize(host) })
          .where('id', '=', m.id)
          .execute();
    }
    after = page[page.length - 1].id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('monitors_destination_host').execute();
  await db.schema.alterTable('monitors').dropColumn('destination_host').execute();
}
