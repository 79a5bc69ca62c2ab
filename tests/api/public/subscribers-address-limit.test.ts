// The subscription confirmation limit (3 mails per address and hour) holds for one inbox across
// the whole platform, not per status page: nine companies' pages asked at once, from several
// networks, to subscribe one address send it 3 confirmation mails in all (real SMTP sink), and
// every request past the 3rd gets the same 429 whichever page it went to. Both databases, with
// two server processes on one database sharing the count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany } from '../../support/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS, newDatabaseLocation } from '../../support/test-db.ts';
import { seedMonitor } from './fixtures.ts';
import { waitFor } from '../../support/wait-for.ts';

describe.each(DB_KINDS)('subscription mails per address across every status page on %s', (kind) => {
  let a: TestApp;
  let b: TestApp;
  let smtp: SmtpSink;
  let clock = Date.UTC(2026, 10, 24, 9, 0, 0);
  // nine companies' pages, each asked once: before, each page had its own 3 an hour
  const pages = ['acme', 'globex', 'initech', 'hooli', 'umbrella', 'soylent', 'wayne', 'stark', 'tyrell'];

  beforeAll(async () => {
    smtp = await startSmtpSink();
    const location = await newDatabaseLocation(kind);
    const env = { SMTP_URL: smtp.url, TRUST_PROXY: 'true' };
    a = await startTestApp({ db: kind, location, now: () => clock, env });
    // a second process on the same database: the limit is not one process's memory
    b = await startTestApp({ db: kind, location, now: () => clock, env });
    for (const subdomain of pages) {
      const co = await seedCompany(a.services, { name: subdomain, subdomain });
      await seedMonitor(a.services.db, co.id, clock, { name: 'Website' });
    }
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await smtp?.close();
  });

  const mailsTo = (addr: string) => smtp.mails.filter((m) => m.to.includes(addr));
  const subscribe = (page: string, email: string, ip: string, app = a) =>
    app.client().post('/api/v1/public/subscribers/' + page, { email }, { host: `${page}.localhost`, headers: { 'x-forwarded-for': ip } });

  it('sends one inbox 3 confirmation mails an hour in all, however many pages and processes are asked at once', async () => {
    const victim = 'victim@example.com';
    const asks = pages.map((page, i) => subscribe(page, victim, `198.51.100.${i}`, i % 2 ? b : a));
    const answers = await Promise.all(asks);
    const accepted = answers.filter((r) => r.status === 202);
    const refused = answers.filter((r) => r.status !== 202);
    expect(accepted).toHaveLength(3);
    expect(accepted.map((r) => r.body)).toEqual(Array(3).fill({ status: 'pending' }));
    expect(refused).toHaveLength(6);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.detail).toBe('Too many subscription requests for this address. Try again later.');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }

    // asked later, on a page it has not been asked on: still refused, the same way
    const later = await subscribe('initech', victim, '203.0.113.50');
    expect(later.status).toBe(429);
    expect(later.body.detail).toBe('Too many subscription requests for this address. Try again later.');

    // a request after all of those, for another address, is mailed: by then every confirmation
    // the victim was going to get has been handed to the SMTP server
    expect((await subscribe('acme', 'sentinel@example.com', '203.0.113.51')).status).toBe(202);
    await waitFor(() => mailsTo('sentinel@example.com')[0]);
    await waitFor(() => (mailsTo(victim).length >= 3 ? true : undefined));
    expect(mailsTo(victim)).toHaveLength(3);

    // an hour on, the address may be asked for again
    clock += 3_600_000 + 1000;
    expect((await subscribe('globex', victim, '203.0.113.52')).status).toBe(202);
    await waitFor(() => (mailsTo(victim).length >= 4 ? true : undefined));
  });
});
