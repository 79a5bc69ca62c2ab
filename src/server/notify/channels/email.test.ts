import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envFor, groupedAlert, openedAlert } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { startSmtpSink, type SmtpSink } from '../../../../tests/support/smtp-sink.ts';
import { email } from './email.ts';

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(() => smtp?.close());

const config = email.parseConfig({ to: ['ops@example.com'] });

describe('e-mail channel', () => {
  it('a grouped alert lists its monitors with their targets, the rest counted, and the SMTP sink takes it', async () => {
    const mail = email.build(groupedAlert(1000), config, envFor());
    expect(mail.subject).toBe('[Acme & Sons <Ltd>] 1000 monitors are down');
    expect(mail.text).toContain('1000 monitors:\n- Service 1 <api> & co (https://svc-1.acme.example.com/health)\n- Service 2 <api> & co');
    expect(mail.text).toMatch(/- …and \d+ more\n/);
    expect(mail.text.length).toBeLessThan(50_000);
    // HTML: names escaped, one row per listed monitor, the count in the first row's label.
    expect(mail.html).toContain(
      '>1000 monitors</td><td style="padding:4px 0">Service 1 &lt;api&gt; &amp; co (https://svc-1.acme.example.com/health)</td>',
    );
    expect(mail.html).not.toContain('<api>');
    await nodemailer.createTransport(smtp.url).sendMail({ from: 'alerts@example.com', ...mail });
    expect(smtp.mails.at(-1)!.to).toEqual(['ops@example.com']);
  });

  it('an alert about one monitor names it once, with its target', () => {
    const mail = email.build(openedAlert(), config, envFor());
    expect(mail.text).toContain('Monitor: Website *prod* <b> (https://acme.example.com/health?a=1&b=2)');
    expect(mail.text).not.toContain('monitors:');
  });
});
