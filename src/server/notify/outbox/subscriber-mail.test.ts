// A subscriber's notice mail: plain text and HTML with the company's name and colour, tenant
// text escaped in the HTML, the window of a maintenance, the unsubscribe link in the body and
// in the RFC 8058 headers; written in the subscriber's language (issue 32), with the company's
// own texts in that language when it wrote them, right to left for Arabic and Hebrew, and no
// word of ours that bypassed the catalogue (the pseudo-locale shows it).
import { describe, expect, it } from 'vitest';
import { PSEUDO_LOCALE, PUBLIC_LOCALES } from '../../../lib/i18n/index.ts';
import { SUBSCRIBER_MAIL_AREA } from '../../../lib/i18n/messages/subscriber-mail/index.ts';
import { confirmationMail, mailTime, noticeMail } from './subscriber-mail.ts';
import type { SubscriberNotice } from './subscriber-notice.ts';

const brand = { companyName: 'Acme <Labs>', primaryColor: '#aa3300', productName: 'StatusWatch' };
const links = { statusPageUrl: 'https://acme.example.com/', unsubscribeUrl: 'https://acme.example.com/unsubscribe/t' };
const notice: SubscriberNotice = {
  event: 'incident.updated',
  title: 'Checkout <script>x</script>',
  message: 'Payments fail & retry',
  status: 'identified',
  occurredAt: Date.UTC(2026, 10, 24, 9, 30),
  components: [{ id: 'm1', name: 'Public API' }],
  incident: { id: 'i1', impact: 'high' },
  maintenance: null,
};
const start = Date.UTC(2026, 10, 25, 22, 0);
const maintenance: SubscriberNotice = {
  ...notice,
  event: 'maintenance.scheduled',
  status: 'scheduled',
  components: [],
  incident: null,
  maintenance: { id: 'w', startsAt: start, endsAt: start + 3_600_000 },
};

describe('subscriber mails', () => {
  it('a notice: branded text and HTML, escaped, with one-click unsubscribe headers', () => {
    const m = noticeMail('r@example.com', notice, brand, links);
    expect(m.subject).toBe('[Acme <Labs>] Incident update: Checkout <script>x</script>');
    expect(m.text).toContain('Status: Identified\nAffected: Public API\nTime: Nov 24, 2026, 9:30 AM UTC');
    expect(m.text).toContain('Unsubscribe: https://acme.example.com/unsubscribe/t');
    expect(m.html).toContain('background:#aa3300');
    expect(m.html).toContain('Acme &lt;Labs&gt; Status');
    expect(m.html).toContain('Checkout &lt;script&gt;x&lt;/script&gt;');
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('Payments fail &amp; retry');
    expect(m.html).toContain('<html lang="en" dir="ltr">');
    expect(m.headers).toEqual({
      'List-Unsubscribe': '<https://acme.example.com/unsubscribe/t>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('a maintenance notice gives its window; a company-wide one affects all services', () => {
    const m = noticeMail('r@example.com', maintenance, { ...brand, primaryColor: 'red;background:url(x)' }, links);
    expect(m.text).toContain('Affected: All services\nWindow: Nov 25, 2026, 10:00 PM UTC – Nov 25, 2026, 11:00 PM UTC');
    expect(m.html).not.toContain('url(x)'); // an invalid colour falls back
  });

  it('the confirmation carries its link, how long it works, and the unsubscribe headers', () => {
    const m = confirmationMail('r@example.com', 'https://acme.example.com/subscribe/confirm/abc', brand, links, 24);
    expect(m.text).toContain('valid for 24 hours');
    expect(m.text).toContain('https://acme.example.com/subscribe/confirm/abc');
    expect(m.html).toContain('href="https://acme.example.com/subscribe/confirm/abc"');
    expect(m.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });

  it('in German: our words, the date in German style, and the company text as written', () => {
    const m = noticeMail('r@example.com', maintenance, brand, links, 'de');
    expect(m.subject).toBe('[Acme <Labs>] Geplante Wartung: Checkout <script>x</script>');
    expect(m.text).toContain('Status: Geplant\nBetroffen: Alle Dienste\nZeitraum: 25.11.2026, 22:00 UTC – 25.11.2026, 23:00 UTC');
    expect(m.text).toContain('Abmelden: https://acme.example.com/unsubscribe/t');
    const c = confirmationMail('r@example.com', 'https://acme.example.com/subscribe/confirm/abc', brand, links, 24, 'de');
    expect(c.subject).toBe('[Acme <Labs>] Bestätigen Sie Ihr Abonnement der Statusmeldungen');
    expect(c.text).toContain('gültig für 24 Stunden');
    expect(confirmationMail('r@example.com', 'u', brand, links, 1, 'de').text).toContain('gültig für 1 Stunde');
    expect(confirmationMail('r@example.com', 'u', brand, links, 2, 'pl').text).toContain('2 godziny');
    expect(confirmationMail('r@example.com', 'u', brand, links, 5, 'pl').text).toContain('5 godzin');
  });

  it('the company text in the reader language when written, else as written', () => {
    const written: SubscriberNotice = {
      ...notice,
      title: 'Checkout errors',
      message: 'We are investigating.',
      translations: {
        title: { de: 'Fehler beim Bezahlen' },
        message: { de: 'Wir untersuchen das Problem.' },
        components: { m1: { de: 'Öffentliche API' } },
      },
    };
    const de = noticeMail('r@example.com', written, brand, links, 'de');
    expect(de.subject).toBe('[Acme <Labs>] Aktualisierung zum Vorfall: Fehler beim Bezahlen');
    expect(de.text).toContain('Betroffen: Öffentliche API');
    expect(de.text).toContain('Wir untersuchen das Problem.');
    const fr = noticeMail('r@example.com', written, brand, links, 'fr');
    expect(fr.subject).toBe('[Acme <Labs>] Mise à jour de l’incident : Checkout errors');
    expect(fr.text).toContain('Concerné : Public API');
    expect(fr.text).toContain('We are investigating.');
  });

  it.each(['ar', 'he'])('%s mails are laid out right to left', (locale) => {
    for (const m of [
      noticeMail('r@example.com', notice, brand, links, locale),
      confirmationMail('r@example.com', 'https://acme.example.com/c', brand, links, 24, locale),
    ]) {
      expect(m.html).toContain(`<html lang="${locale}" dir="rtl">`);
      expect(m.html).toContain('direction:rtl');
    }
  });

  it.each(PUBLIC_LOCALES.filter((l) => l !== 'en').map((l) => [l]))('%s: no English sentence of ours is left', (locale) => {
    const english = [noticeMail('r@x.com', notice, brand, links), noticeMail('r@x.com', maintenance, brand, links)];
    const own = [noticeMail('r@x.com', notice, brand, links, locale), noticeMail('r@x.com', maintenance, brand, links, locale)];
    const c = confirmationMail('r@x.com', 'https://c', brand, links, 24, locale);
    expect(c.html).toContain(`lang="${locale}"`);
    for (const phrase of ['View the status page', 'You receive this', 'All services', 'Affected', 'Confirm your', 'valid for'])
      for (const m of [...own, c]) expect(`${m.subject}\n${m.text}\n${m.html}`).not.toContain(phrase);
    expect(own[0].subject).not.toBe(english[0].subject);
  });

  it('in the pseudo-locale every word of ours is bracketed: nothing bypasses the catalogue', () => {
    const tr = SUBSCRIBER_MAIL_AREA.translator(PSEUDO_LOCALE);
    const mails = [
      noticeMail(
        'r@x.com',
        { ...notice, title: 'TITLE', message: 'MESSAGE', components: [{ id: 'm1', name: 'COMPONENT' }] },
        brand,
        links,
        PSEUDO_LOCALE,
      ),
      noticeMail('r@x.com', { ...maintenance, title: 'TITLE', message: 'MESSAGE' }, brand, links, PSEUDO_LOCALE),
      confirmationMail('r@x.com', 'https://acme.example.com/c', brand, links, 24, PSEUDO_LOCALE),
    ];
    const dates = [notice.occurredAt, start, start + 3_600_000].map((ms) => mailTime(tr, ms));
    for (const m of mails) {
      for (const part of [m.subject, m.text, m.html.replace(/<[^>]*>/g, ' ')]) {
        // Take away what is not ours to translate (the company's texts, links, dates as Intl
        // writes them) and every bracketed catalogue text: no letters of plain English remain.
        let rest = part
          .replace(/&lt;|&gt;|&amp;|&#39;|&quot;/g, ' ')
          .replace(/https?:\/\/\S+/g, ' ')
          .replace(/Acme <?Labs>?|Acme|Labs|TITLE|MESSAGE|COMPONENT|Checkout|script|x/g, ' ');
        for (const d of dates) rest = rest.split(d).join(' ');
        for (let before = ''; before !== rest; ) {
          before = rest;
          rest = rest.replace(/\[[^[\]]*\]/g, ' ');
        }
        expect(rest.replace(/^-- $/m, '').match(/[A-Za-z]{2,}/g) ?? [], part).toEqual([]);
      }
    }
  });
});
