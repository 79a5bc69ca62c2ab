// Account mails on both databases, through a real SMTP sink on loopback: the password-reset and
// invitation mails arrive as multipart/alternative with a plain-text and an HTML part, the HTML
// branded like the alert mails (the company's name on a bar of its colour, the same markup) with
// the link as a button, and both parts carrying the same working link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companiesRepo } from '../../../src/server/db/repositories/companies-repo.ts';
import { email } from '../../../src/server/notify/channels/email.ts';
import { envFor, openedAlert } from '../../fixtures/receivers/sample-alerts.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { readMail } from '../../support/mime-parts.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { waitFor } from '../../support/wait-for.ts';

/** The coloured bar with the sender's name that opens every branded mail. */
const brandBar = (html: string) => /<div style="background:#[0-9a-f]{6};padding:12px 16px">.*?<\/div>/i.exec(html)?.[0];

describe.each(DB_KINDS)('account mails in text and HTML on %s', (kind) => {
  let t: TestApp;
  let smtp: SmtpSink;
  let company: { id: string; subdomain: string };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ db: kind, env: { SMTP_URL: smtp.url } });
    company = await seedCompany(t.services, { name: 'Brightline', subdomain: 'bright' });
    await companiesRepo(t.services.db).update(company.id, { primary_color: '#0a7d4f' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** The mail to `to`, read: its two parts and the link both of them carry. */
  async function mailTo(to: string, linkPattern: RegExp) {
    const got = await waitFor(() => smtp.mails.find((m) => m.to.includes(to)));
    const mail = readMail(got.raw);
    expect(mail.contentType).toBe('multipart/alternative');
    expect(mail.parts.map((p) => p.contentType)).toEqual(['text/plain', 'text/html']);
    const [text, html] = mail.parts.map((p) => p.body);
    const link = linkPattern.exec(text)?.[0];
    expect(link).toBeDefined();
    return { text, html, link: link! };
  }

  /** The alert e-mail channel's bar for this company: account mails must open the same way. */
  const alertBar = () =>
    brandBar(
      email.build(
        openedAlert({ company: { id: company.id, name: 'Brightline', subdomain: 'bright', primaryColor: '#0a7d4f', logoUrl: null } }),
        { to: ['x@example.com'] },
        envFor(),
      ).html,
    );

  it('the password-reset mail has a text and a branded HTML part, with the reset link as a button', async () => {
    const u = await seedUser(t.services, { userType: 2, companyId: company.id, email: 'reset.me@example.com', fullName: 'Rosa Reset' });
    expect((await t.client().post('/api/v1/auth/forgot-password', { email: u.email })).status).toBe(202);
    const { text, html, link } = await mailTo(u.email, /http:\/\/bright\.localhost:\d+\/reset-password\?token=[A-Za-z0-9_-]{43}/);
    expect(text).toContain('Hello Rosa Reset,');
    expect(brandBar(html)).toBe(alertBar());
    expect(brandBar(html)).toContain('>Brightline</strong>');
    expect(html).toContain('<h1 style="font-size:18px;margin:0 0 12px">Reset your StatusWatch password</h1>');
    expect(html).toContain('Hello Rosa Reset,');
    expect(html).toMatch(new RegExp(`<a href="${link.replace(/[.?]/g, '\\$&')}"[^>]*background:#0a7d4f[^>]*>Choose a new password</a>`));
    // The link in the HTML works like the one in the text: it resets the password once.
    const token = new URL(link).searchParams.get('token');
    // on the address the link names: reset links work only on their company's host
    const reset = await t
      .client()
      .post('/api/v1/auth/reset-password', { token, new_password: 'Brand-new-pass-1' }, { host: new URL(link).hostname });
    expect(reset.status).toBe(200);
  });

  it('the invitation mail has a text and a branded HTML part, with the invitation link as a button', async () => {
    const root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1, email: 'root.mail@example.com' }));
    const invited = await root.post('/api/v1/admin/invitations', {
      email: 'ivy.html@example.com',
      name: 'Ivy Html',
      company_id: company.id,
      user_type: '3',
    });
    expect(invited.status).toBe(201);
    const { text, html, link } = await mailTo('ivy.html@example.com', /http:\/\/bright\.localhost:\d+\/invite\?token=[A-Za-z0-9_-]{43}/);
    expect(text).toContain('You are invited to join Brightline on StatusWatch.');
    expect(brandBar(html)).toBe(alertBar());
    expect(html).toContain('You are invited to join Brightline on StatusWatch.');
    expect(html).toMatch(new RegExp(`<a href="${link.replace(/[.?]/g, '\\$&')}"[^>]*>Accept the invitation</a>`));
    expect(html).toContain('Brightline · StatusWatch');
  });

  it("a mail that belongs to no company (a super admin's reset) carries the product's name instead", async () => {
    const root = await seedUser(t.services, { userType: 1, email: 'root.reset@example.com' });
    await t.client().post('/api/v1/auth/forgot-password', { email: root.email });
    const { html } = await mailTo(root.email, /http:\/\/localhost:\d+\/reset-password\?token=[A-Za-z0-9_-]{43}/);
    expect(brandBar(html)).toMatch(/>StatusWatch<\/strong><\/div>$/);
  });
});
