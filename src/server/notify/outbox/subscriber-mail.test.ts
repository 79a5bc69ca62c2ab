// A subscriber's notice mail: plain text and HTML with the company's name and colour, tenant
// text escaped in the HTML, the window of a maintenance, the unsubscribe link in the body and
// in the RFC 8058 headers.
import { describe, expect, it } from 'vitest';
import { confirmationMail, noticeMail } from './subscriber-mail.ts';
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

describe('subscriber mails', () => {
  it('a notice: branded text and HTML, escaped, with one-click unsubscribe headers', () => {
    const m = noticeMail('r@example.com', notice, brand, links);
    expect(m.subject).toBe('[Acme <Labs>] Incident update: Checkout <script>x</script>');
    expect(m.text).toContain('Status: Identified\nAffected: Public API\nTime: 2026-11-24 09:30 UTC');
    expect(m.text).toContain('Unsubscribe: https://acme.example.com/unsubscribe/t');
    expect(m.html).toContain('background:#aa3300');
    expect(m.html).toContain('Acme &lt;Labs&gt; Status');
    expect(m.html).toContain('Checkout &lt;script&gt;x&lt;/script&gt;');
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('Payments fail &amp; retry');
    expect(m.headers).toEqual({
      'List-Unsubscribe': '<https://acme.example.com/unsubscribe/t>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('a maintenance notice gives its window; a company-wide one affects all services', () => {
    const start = Date.UTC(2026, 10, 25, 22, 0);
    const m = noticeMail(
      'r@example.com',
      {
        ...notice,
        event: 'maintenance.scheduled',
        status: 'scheduled',
        components: [],
        incident: null,
        maintenance: { id: 'w', startsAt: start, endsAt: start + 3_600_000 },
      },
      { ...brand, primaryColor: 'red;background:url(x)' },
      links,
    );
    expect(m.text).toContain('Affected: All services\nWindow: 2026-11-25 22:00 UTC – 2026-11-25 23:00 UTC');
    expect(m.html).not.toContain('url(x)'); // an invalid colour falls back
  });

  it('the confirmation carries its link, how long it works, and the unsubscribe headers', () => {
    const m = confirmationMail('r@example.com', 'https://acme.example.com/subscribe/confirm/abc', brand, links, 24);
    expect(m.text).toContain('valid for 24 hours');
    expect(m.text).toContain('https://acme.example.com/subscribe/confirm/abc');
    expect(m.html).toContain('href="https://acme.example.com/subscribe/confirm/abc"');
    expect(m.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });
});
