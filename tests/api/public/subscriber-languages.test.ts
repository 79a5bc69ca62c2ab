// Subscribers in their own language (issue 32), over HTTP on both databases with the real SMTP
// sink and a loopback webhook receiver: a subscriber of each of the twelve languages gets the
// confirmation and an incident's mail in it (Arabic and Hebrew right to left, no English
// sentence of ours left); the language comes from the subscribe call, else Accept-Language; the
// company's texts written in English and German reach a German reader in German and a French
// one in English; the API round-trips translations and refuses unknown languages field by
// field; one company never reads or changes another's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_LOCALES } from '../../../src/lib/i18n/index.ts';
import { SUBSCRIBER_MAIL_AREA } from '../../../src/lib/i18n/messages/subscriber-mail/index.ts';
import { lookupStatusPage } from '../../../src/server/domain/status-page/service.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { readMail } from '../../support/mime-parts.ts';
import { startSmtpSink, type Mail, type SmtpSink } from '../../support/smtp-sink.ts';
import { rawRequest, startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { waitFor } from '../../support/wait-for.ts';
import { seedMonitor } from './fixtures.ts';

const EN = SUBSCRIBER_MAIL_AREA.messages.en as Record<string, string>;

/** RFC 2047 encoded words of a header, as a mail client shows them. */
function decodeHeader(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
    enc.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function shown(m: Mail) {
  const read = readMail(m.raw);
  const part = (type: string) => read.parts.find((p) => p.contentType.startsWith(type))?.body ?? '';
  return { subject: decodeHeader(read.subject), text: part('text/plain'), html: part('text/html') };
}

describe.each(DB_KINDS)('subscribers in their language on %s', (kind) => {
  let t: TestApp;
  let smtp: SmtpSink;
  let receiver: WebhookReceiver;
  let clock = Date.UTC(2026, 10, 24, 9, 0, 0);
  let admin: ApiClient;
  let otherAdmin: ApiClient;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let api: { id: string };
  let ip = 0;
  const ACME = 'acme.localhost';

  beforeAll(async () => {
    smtp = await startSmtpSink();
    receiver = await startWebhookReceiver();
    t = await startTestApp({
      db: kind,
      now: () => clock,
      env: { SMTP_URL: smtp.url, TRUST_PROXY: 'true', ALLOW_PRIVATE_TARGETS: 'true' },
    });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    api = await seedMonitor(t.services.db, acme.id, clock, { name: 'Public API' });
    await seedMonitor(t.services.db, globex.id, clock, { name: 'Globex API' });
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }), ACME);
    otherAdmin = t.client();
    await signIn(otherAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }), 'globex.localhost');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await receiver?.close();
  });

  const subscribe = (body: unknown, headers: Record<string, string> = {}) => {
    clock += 2000; // past the status page snapshot's recheck
    return t.client().post('/api/v1/public/subscribers/acme', body, {
      host: ACME,
      headers: { 'x-forwarded-for': `198.51.100.${++ip % 250}`, ...headers },
    });
  };
  const mailsTo = (addr: string) => smtp.mails.filter((m) => m.to.includes(addr));
  const mailTo = (addr: string, n = 1) => waitFor(() => (mailsTo(addr).length >= n ? mailsTo(addr)[n - 1] : undefined));
  const confirm = async (m: Mail) => {
    const token = shown(m).text.match(/\/subscribe\/confirm\/([A-Za-z0-9_-]{43})/)![1];
    const r = await rawRequest(
      `${t.baseUrl}/subscribe/confirm/${token}`,
      'POST',
      { host: `${ACME}:${t.port}`, 'content-type': 'application/x-www-form-urlencoded', origin: `http://${ACME}:${t.port}` },
      '',
    );
    expect(r.headers.get('location')).toBe('/subscribe/confirmed');
  };
  const deliver = () => runDeliveries(t.services, { holder: 'test', random: () => 0.5 });
  const layout = (over: Record<string, unknown> = {}) =>
    admin.put(
      '/api/v1/status-page/settings',
      { groups: [], ungrouped: [{ monitor_id: api.id, is_public: true, public_name: 'Public API', ...over }] },
      { host: ACME },
    );
  /** Every sentence of ours in English that the language says otherwise: none may be in its mail. */
  const englishLeft = (locale: string, mail: { subject: string; text: string; html: string }) => {
    const own = SUBSCRIBER_MAIL_AREA.messages[locale as 'de'] as Record<string, string>;
    const all = `${mail.subject}\n${mail.text}\n${mail.html}`;
    return Object.entries(EN)
      .filter(([key, english]) => !english.includes('{') && english !== own[key] && english.length > 6)
      .map(([, english]) => english)
      .filter((english) => all.includes(english));
  };

  it('a subscriber of each language gets the confirmation and an incident mail in it; company texts in theirs, else as written', async () => {
    expect((await layout({ public_name_translations: { de: 'Öffentliche API', ja: '公開 API' } })).status).toBe(200);
    for (const locale of PUBLIC_LOCALES) {
      const email = `reader-${locale.toLowerCase()}@example.com`;
      expect((await subscribe({ email, language: locale })).status).toBe(202);
      const mail = shown(await mailTo(email));
      const tr = SUBSCRIBER_MAIL_AREA.translator(locale);
      expect(mail.subject, locale).toBe(tr.t('confirm.subject', { company: 'Acme' }));
      expect(mail.text).toContain(tr.t('confirm.openLink', { hours: 24 }));
      expect(mail.html).toContain(`dir="${locale === 'ar' || locale === 'he' ? 'rtl' : 'ltr'}"`);
      if (locale !== 'en') expect(englishLeft(locale, mail), locale).toEqual([]);
      await confirm(await mailTo(email));
    }

    const r = await admin.post(
      '/api/v1/incidents',
      {
        title: 'Checkout errors',
        title_translations: { de: 'Fehler beim Bezahlen' },
        impact: 'major',
        message: 'We are investigating failed payments.',
        message_translations: { de: 'Wir untersuchen fehlgeschlagene Zahlungen.' },
        monitor_ids: [api.id],
      },
      { host: ACME },
    );
    expect(r.status).toBe(201);
    await deliver();

    for (const locale of PUBLIC_LOCALES) {
      const email = `reader-${locale.toLowerCase()}@example.com`;
      const mail = shown(await mailTo(email, 2));
      const tr = SUBSCRIBER_MAIL_AREA.translator(locale);
      const german = locale === 'de';
      const title = german ? 'Fehler beim Bezahlen' : 'Checkout errors';
      expect(mail.subject, locale).toBe(tr.t('notice.subject', { company: 'Acme', event: tr.t('event.incident.created'), title }));
      expect(mail.text).toContain(german ? 'Wir untersuchen fehlgeschlagene Zahlungen.' : 'We are investigating failed payments.');
      const component = { de: 'Öffentliche API', ja: '公開 API' }[locale as 'de'] ?? 'Public API';
      expect(mail.text).toContain(tr.t('mail.labelValue', { label: tr.t('notice.affected'), value: component }));
      expect(mail.text).toContain(tr.t('mail.labelValue', { label: tr.t('notice.status'), value: tr.t('status.investigating') }));
      expect(mail.html).toContain(`<html lang="${locale}" dir="${locale === 'ar' || locale === 'he' ? 'rtl' : 'ltr'}">`);
      if (locale !== 'en') expect(englishLeft(locale, mail), locale).toEqual([]);
    }
    const de = shown(mailsTo('reader-de@example.com')[1]);
    expect(de.text).toContain('Zeit: 24.11.2026');
    const fr = shown(mailsTo('reader-fr@example.com')[1]);
    expect(fr.subject).toBe('[Acme] Nouvel incident : Checkout errors');
  });

  it('without a language the browser chooses (Accept-Language among the page languages, else English); an unknown one is refused', async () => {
    expect((await subscribe({ email: 'swiss@example.com' }, { 'accept-language': 'fr-CH, de;q=0.8' })).status).toBe(202);
    expect(shown(await mailTo('swiss@example.com')).subject).toBe('[Acme] Confirmez votre abonnement aux notifications d’état');
    expect((await subscribe({ email: 'far@example.com' }, { 'accept-language': 'sw, tlh;q=0.5' })).status).toBe(202);
    expect(shown(await mailTo('far@example.com')).subject).toBe('[Acme] Confirm your status updates subscription');
    const refused = await subscribe({ email: 'x@example.com', language: 'xx' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty('language');
    expect(mailsTo('x@example.com')).toHaveLength(0);
  });

  it('a webhook subscriber gets the texts as written, its language and the translations beside them', async () => {
    const r = await subscribe({ webhook_url: receiver.url('/lang'), language: 'ja' });
    expect(r.status).toBe(202);
    const open = await admin.get('/api/v1/incidents?status=open', { host: ACME });
    const id = open.body.find((i: { title: string }) => i.title === 'Checkout errors').id as string;
    expect(
      (
        await admin.post(
          `/api/v1/incidents/${id}/updates`,
          {
            status: 'identified',
            message: 'A card processor fails.',
            message_translations: { ja: 'カード決済代行会社で障害が発生しています。' },
          },
          { host: ACME },
        )
      ).status,
    ).toBe(201);
    await deliver();
    const got = await waitFor(() => receiver.received.find((x) => x.path === '/lang'));
    const data = JSON.parse(got.body).data;
    expect(data.language).toBe('ja');
    expect(data.message).toBe('A card processor fails.');
    expect(data.translations.message).toEqual({ ja: 'カード決済代行会社で障害が発生しています。' });
    expect(data.translations.components[api.id]).toEqual({ de: 'Öffentliche API', ja: '公開 API' });
    // and the Japanese mail reader got the Japanese update
    const ja = shown(await mailTo('reader-ja@example.com', 3));
    expect(ja.text).toContain('カード決済代行会社で障害が発生しています。');
    expect(ja.subject).toBe('[Acme] インシデントの更新：Checkout errors');
  });

  it('the API round-trips translations, refuses unknown languages and overlong texts per field, and keeps them to their company', async () => {
    const created = await admin.post(
      '/api/v1/incidents',
      {
        title: 'Slow search',
        title_translations: { fr: 'Recherche lente', ar: 'بحث بطيء' },
        impact: 'minor',
        message: 'Searches are slow.',
        message_translations: { fr: 'Les recherches sont lentes.', es: '  ' },
        is_public: false,
      },
      { host: ACME },
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body.title_translations).toEqual({ ar: 'بحث بطيء', fr: 'Recherche lente' });
    expect(created.body.updates[0].message_translations).toEqual({ fr: 'Les recherches sont lentes.' }); // an empty text is no translation
    const edited = await admin.patch(`/api/v1/incidents/${id}`, { title_translations: { de: 'Langsame Suche' } }, { host: ACME });
    expect(edited.status).toBe(200);
    expect(edited.body.title_translations).toEqual({ de: 'Langsame Suche' });
    expect((await admin.get(`/api/v1/incidents/${id}`, { host: ACME })).body.title_translations).toEqual({ de: 'Langsame Suche' });

    const unknown = await admin.post(
      `/api/v1/incidents/${id}/updates`,
      { status: 'monitoring', message: 'Better.', message_translations: { klingon: 'Qapla’' } },
      { host: ACME },
    );
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.errors).join()).toMatch(/^message_translations/);
    const long = await admin.patch(`/api/v1/incidents/${id}`, { title_translations: { de: 'x'.repeat(301) } }, { host: ACME });
    expect(long.status).toBe(400);
    expect(Object.keys(long.body.errors).join()).toMatch(/^title_translations/);
    const badName = await layout({ public_name_translations: { 'en-US': 'API' } });
    expect(badName.status).toBe(400);
    expect(Object.keys(badName.body.errors).join()).toMatch(/public_name_translations/);

    // Groups too; the layout screen reads them back and the page view carries them.
    const saved = await admin.put(
      '/api/v1/status-page/settings',
      {
        ungrouped: [],
        groups: [
          {
            name: 'Payments',
            name_translations: { de: 'Zahlungen', he: 'תשלומים' },
            monitors: [{ monitor_id: api.id, is_public: true, public_name: 'Public API' }],
          },
        ],
      },
      { host: ACME },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.groups[0].name_translations).toEqual({ de: 'Zahlungen', he: 'תשלומים' });
    // absent: the monitor kept its translations
    expect(saved.body.monitors.find((m: { id: string }) => m.id === api.id).public_name_translations).toEqual({
      de: 'Öffentliche API',
      ja: '公開 API',
    });
    clock += 2000;
    const found = await lookupStatusPage(t.services, 'acme');
    if (found.kind !== 'ok') throw new Error('no page');
    expect(found.view.groups[0].nameTranslations).toEqual({ de: 'Zahlungen', he: 'תשלומים' });
    expect(found.view.monitors[0].nameTranslations).toEqual({ de: 'Öffentliche API', ja: '公開 API' });
    const checkout = found.view.activeIncidents.find((i) => i.title === 'Checkout errors')!;
    expect(checkout.titleTranslations).toEqual({ de: 'Fehler beim Bezahlen' });
    expect(checkout.updates.map((u) => u.messageTranslations)).toContainEqual({ de: 'Wir untersuchen fehlgeschlagene Zahlungen.' });

    // Another company's admin neither reads nor changes them, and its page shows none of them.
    expect((await otherAdmin.get(`/api/v1/incidents/${id}`, { host: 'globex.localhost' })).status).toBe(404);
    expect(
      (await otherAdmin.patch(`/api/v1/incidents/${id}`, { title_translations: { de: 'Gekapert' } }, { host: 'globex.localhost' })).status,
    ).toBe(404);
    const theirs = await otherAdmin.get('/api/v1/status-page/settings', { host: 'globex.localhost' });
    expect(JSON.stringify(theirs.body)).not.toContain('Zahlungen');
    expect(JSON.stringify(theirs.body)).not.toContain('Öffentliche API');
    expect((await admin.get(`/api/v1/incidents/${id}`, { host: ACME })).body.title_translations).toEqual({ de: 'Langsame Suche' });
  });
});
