// A group monitor on the public status page (issue 28), on SQLite and PostgreSQL: one component
// whose public children are listed under it behind a disclosure (a native <details>, so keyboard
// and screen readers need no script), with their public names and statuses; a child that is not
// public is left out of the page and of the JSON, its internal name never shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedMonitor } from './fixtures.ts';

const START = Date.UTC(2026, 10, 29, 9, 0, 0);

describe.each(DB_KINDS)('a group on the status page on %s', (kind) => {
  let t: TestApp;
  let clock = START;
  let acme: { id: string; subdomain: string };
  let host = '';
  let groupId = '';
  let db = { id: '' };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `spgrp${kind}` });
    host = `${acme.subdomain}.${t.config.productDomain}`;
    const admin = new ApiClient(t.baseUrl, host);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    const web = await seedMonitor(t.services.db, acme.id, clock, { name: 'Web', status: 'operational' });
    db = await seedMonitor(t.services.db, acme.id, clock, { name: 'Database', status: 'down' });
    const secret = await seedMonitor(t.services.db, acme.id, clock, {
      name: 'internal-billing-db',
      status: 'operational',
      isPublic: false,
    });
    const r = await admin.post('/api/v1/monitors', {
      name: 'Checkout',
      type: 'group',
      children: [web.id, db.id, secret.id],
      group_rule: 'all',
      is_public: true,
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ type: 'group', children: [web.id, db.id, secret.id], group_rule: 'all', parents: [] });
    groupId = r.body.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists its public children with their statuses in the JSON, and leaves the private one out', async () => {
    clock += 1500;
    const r = await t.client().get(`/api/v1/public/public-status/${acme.subdomain}`);
    expect(r.status, r.text).toBe(200);
    const group = r.body.monitors.find((m: { id: string }) => m.id === groupId);
    expect(group.children).toEqual([
      { id: expect.any(String), name: 'Web', status: 'operational' },
      { id: db.id, name: 'Database', status: 'down' },
    ]);
    expect(r.body.monitors.find((m: { id: string }) => m.id === db.id).children).toBeUndefined();
    expect(r.text).not.toContain('internal-billing-db');
  });

  it('shows the group as one component with its children behind a disclosure', async () => {
    const page = await t.client().get('/', { host });
    expect(page.status).toBe(200);
    const row = page.text.slice(page.text.indexOf(`data-monitor="${groupId}"`));
    const details = row.slice(row.indexOf('<details class="m-children">'), row.indexOf('</details>'));
    expect(details).toContain('<summary>2 components in Checkout</summary>');
    expect(row.slice(0, row.indexOf('<details'))).not.toContain('Response time');
    expect(details).toContain('<span class="c-name">Web</span><span class="pill s-operational" data-status="operational">');
    expect(details).toContain('<span class="c-name">Database</span><span class="pill s-down" data-status="down">');
    expect(page.text).not.toContain('internal-billing-db');
  });
});
