// The check engine's own incidents reach status-page subscribers on both databases: a public
// monitor going down and coming back sends a confirmed subscriber "New incident" and "Resolved"
// mails with the public names and update texts, never the checker's error, the monitor's
// internal name or its target; a
// private monitor's incident sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { createMonitor } from '../../../src/server/domain/monitors/service.ts';
import { subscribe } from '../../../src/server/domain/subscribers/service.ts';
import { confirmLink } from '../../../src/server/domain/subscribers/links.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { ctxFor } from '../../support/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, manualClock, seedTenant, type Clock } from '../engine/support.ts';
import { waitFor } from '../../support/wait-for.ts';

const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe.each(DB_KINDS)('engine incidents to status-page subscribers on %s', (kind) => {
  let services: Services;
  let engine: Engine;
  let targets: HttpTargets;
  let smtp: SmtpSink;
  let clock: Clock;

  beforeAll(async () => {
    targets = await startHttpTargets();
    smtp = await startSmtpSink();
    clock = manualClock();
    services = await engineServices(kind, { SMTP_URL: smtp.url }, clock.now);
    engine = createEngine(services);
    services.monitoring = { engine };
  });
  afterAll(async () => {
    await Promise.all([targets?.close(), smtp?.close()]);
    for (const hook of services?.onShutdown ?? []) await hook();
    await services?.db.close();
  });

  it('a public monitor down and up: a confirmed subscriber gets both notices in public words; a private one sends nothing', async () => {
    targets.setUp(true);
    const t = await seedTenant(services);
    const host = `${t.company.subdomain}.localhost`;
    await createMonitor(t.adminCtx, {
      name: 'checkout.acme.internal',
      type: 'http',
      url: targets.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
      is_public: true,
    } as never);
    await createMonitor(t.adminCtx, {
      name: 'Internal DB',
      type: 'http',
      url: targets.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
      is_public: false,
    } as never);

    await subscribe({ ...ctxFor(services, null, host), ip: '198.51.100.1' }, t.company.subdomain, { email: 'fan@example.com' });
    const token = await (async () => {
      const mail = await waitFor(() => smtp.mails[0], { what: 'the confirmation mail' });
      return unQp(mail.raw).match(/\/subscribe\/confirm\/([A-Za-z0-9_-]{43})/)![1];
    })();
    expect((await confirmLink(services, host, token)).kind).toBe('confirmed');

    await engine.runDueNow();
    targets.setUp(false);
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      await engine.runDueNow();
    }
    targets.setUp(true);
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      await engine.runDueNow();
    }
    await runDeliveries(services, { holder: 'test', random: () => 0.5 });

    // the company's own users get their personal alert mails too: only the subscriber's count here
    const notices = smtp.mails
      .slice(1)
      .filter((m) => m.to.includes('fan@example.com'))
      .map((m) => unQp(m.raw));
    // both notices leave in one delivery run, one after the other, in the order they happened
    expect(notices.map((n) => n.match(/^Subject: (.*)$/m)![1])).toEqual([
      // The monitor's name names a host: visitors read the page's 'Service 1', as on the page.
      `[Company ${t.company.subdomain}] New incident: Service 1 is down`,
      `[Company ${t.company.subdomain}] Resolved: Service 1 is down`,
    ]);
    const text = (subject: string) => notices.find((n) => n.includes(`Subject: [Company ${t.company.subdomain}] ${subject}`))!;
    expect(text('New incident: Service 1 is down')).toContain('Not responding as expected.');
    expect(text('Resolved: Service 1 is down')).toContain('Responding as expected again.');
    for (const n of notices) {
      expect(n).not.toMatch(/HTTP 503|status code/);
      expect(n).not.toContain(targets.url('/flaky'));
      expect(n).not.toContain('Internal DB');
      expect(n).not.toContain('checkout.acme.internal');
    }
  });
});
