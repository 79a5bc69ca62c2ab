// The tests of the smtp, imap and pop3 kinds (one file each calls it): real loopback servers with
// TLS none, STARTTLS and implicit, an expired certificate, a refusing greeting and hostile ones
// (garbage, silence, a never-ending line), on both databases of the platform.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMonitor } from '../../../../src/server/domain/monitors/service.ts';
import { testMonitor } from '../../../../src/server/domain/monitors/test-now.ts';
import { monitorsRepo } from '../../../../src/server/db/repositories/monitors-repo.ts';
import { tlsTargets } from '../../../../src/server/domain/security/ssl-targets.ts';
import { DB_KINDS } from '../../../support/test-db.ts';
import {
  type MailServer,
  type MailServerOptions,
  startGreetingServer,
  startImapServer,
  startPop3Server,
  startSmtpServer,
} from '../../../support/kind-servers/mail.ts';
import { startHostileServer, type HostileServer } from '../../../support/kind-servers/hostile.ts';
import { makeCerts } from '../../../fixtures/targets/tls-targets.ts';
import { engineServices, seedTenant } from '../support.ts';
import { kindEngineWorld } from './engine-world.ts';

type MailKind = 'smtp' | 'imap' | 'pop3';
const START: Record<MailKind, (o: MailServerOptions) => Promise<MailServer>> = {
  smtp: startSmtpServer,
  imap: startImapServer,
  pop3: startPop3Server,
};
const REFUSAL: Record<MailKind, [string, string]> = {
  smtp: ['554 5.3.2 not accepting mail', 'The server greeted with 554 instead of 220 (it refuses mail now)'],
  imap: ['* BYE too many connections', 'The server greeted with BYE (it refuses connections now)'],
  pop3: ['-ERR maintenance', 'The server greeted with -ERR (it refuses connections now)'],
};
const NAME: Record<MailKind, string> = { smtp: 'SMTP', imap: 'IMAP', pop3: 'POP3' };
const PASSWORD = 'mail-s3cret-Pass';

export function mailSuite(kind: MailKind): void {
  const servers: Record<string, MailServer> = {};
  let hostile: Record<'garbage' | 'silent' | 'endless', HostileServer>;
  let caPem: string;

  beforeAll(async () => {
    const certs = makeCerts();
    caPem = certs.ca;
    const account = { user: 'monitor@example.com', password: PASSWORD, cert: certs.certs.valid };
    servers.none = await START[kind]({ ...account, tls: 'none' });
    servers.starttls = await START[kind]({ ...account, tls: 'starttls' });
    servers.implicit = await START[kind]({ ...account, tls: 'implicit' });
    servers.expired = await START[kind]({ ...account, tls: 'implicit', cert: certs.certs.expired });
    servers.refusing = await startGreetingServer(REFUSAL[kind][0]);
    hostile = {
      garbage: await startHostileServer('garbage'),
      silent: await startHostileServer('silent'),
      endless: await startHostileServer('endless'),
    };
  });
  afterAll(async () => {
    await Promise.all([...Object.values(servers), ...Object.values(hostile ?? {})].map((s) => s.close()));
  });

  describe.each(DB_KINDS)(`${kind} monitors on %s`, (db) => {
    const w = kindEngineWorld(db, kind, { extraCa: () => [caPem] });
    const { create, settled } = w;
    const at = (s: { port: number }, extra: Record<string, unknown> = {}) => ({ host: '127.0.0.1', port: s.port, ...extra });
    const login = { username: 'monitor@example.com', password: PASSWORD };

    it('greets, upgrades to TLS and logs in; the password is sealed and never shown; implicit TLS is graded', async () => {
      const plain = await create('plain', at(servers.none, { mail_tls: 'none', mail_banner: 'StatusWatch Test' }));
      const starttls = await create('starttls', at(servers.starttls, { mail_tls: 'starttls', ...login }));
      const implicit = await create('implicit', at(servers.implicit, { mail_tls: 'implicit', ...login }));
      expect(starttls).toMatchObject({ mail_tls: 'starttls', username: 'monitor@example.com', password: '(hidden)' });
      await settled(plain.id, 'operational');
      expect(await settled(starttls.id, 'operational')).toMatchObject({ cert_subject: 'localhost', cert_expires_at: expect.any(String) });
      expect(await settled(implicit.id, 'operational')).toMatchObject({ cert_subject: 'localhost' });
      const row = (await monitorsRepo(w.services.db).findById(starttls.id, null))!;
      expect(row.config).not.toContain(PASSWORD);
      const graded = (await tlsTargets(w.services.db, row.company_id)).map((t) => t.id);
      expect(graded).toContain(implicit.id);
      expect(graded).not.toContain(starttls.id);
    });

    it('shows each phase in Test now', async () => {
      const r = await testMonitor(w.ctx, { name: 't', type: kind, ...at(servers.starttls), mail_tls: 'starttls', ...login } as never);
      expect(r.status).toBe('operational');
      expect(r.timings).toMatchObject({
        dns: expect.any(Number),
        connect: expect.any(Number),
        tls: expect.any(Number),
        ttfb: expect.any(Number),
      });
    });

    it('says a wrong password, a missing STARTTLS, an expired certificate, a refusing greeting and another server plainly', async () => {
      const wrong = await create('wrong', at(servers.starttls, { mail_tls: 'starttls', ...login, password: 'nope' }));
      const noTls = await create('no starttls', at(servers.none, { mail_tls: 'starttls' }));
      const expired = await create('expired', at(servers.expired, { mail_tls: 'implicit' }));
      const refusing = await create('refusing', at(servers.refusing, { mail_tls: 'none' }));
      const otherServer = await create('another server', at(servers.none, { mail_tls: 'none', mail_banner: 'Exchange' }));
      expect((await settled(wrong.id, 'down')).last_error).toBe('Login failed: wrong user name or password');
      expect((await settled(noTls.id, 'down')).last_error).toMatch(/^The server does not offer STARTTLS/);
      expect((await settled(expired.id, 'down')).last_error).toBe('Certificate has expired');
      expect((await settled(refusing.id, 'down')).last_error).toBe(REFUSAL[kind][1]);
      expect((await settled(otherServer.id, 'down')).last_error).toBe('The greeting does not contain "Exchange"');
    });

    it('ends garbage, silence and a never-ending line as clear failures within the deadline', async () => {
      const garbage = await create('garbage', at(hostile.garbage, { mail_tls: 'none' }));
      const silent = await create('silent', at(hostile.silent, { mail_tls: 'none', timeout_seconds: 1 }));
      const endless = await create('endless', at(hostile.endless, { mail_tls: 'none' }));
      expect((await settled(garbage.id, 'down')).last_error).toBe(`The server did not answer like ${NAME[kind]}`);
      expect((await settled(silent.id, 'down')).last_error).toBe('Timed out after 1 s');
      expect((await settled(endless.id, 'down')).last_error).toBe('The server sent a line longer than 8 KB');
    });
  });

  describe(`${kind} monitors without private targets`, () => {
    it('refuses a loopback address', async () => {
      const services = await engineServices('sqlite', { ALLOW_PRIVATE_TARGETS: 'false' });
      try {
        const { adminCtx } = await seedTenant(services);
        await expect(
          createMonitor(adminCtx, { name: 'loopback', type: kind, host: '127.0.0.1', interval_seconds: 60 } as never),
        ).rejects.toMatchObject({
          fields: { host: 'Target refused: 127.0.0.1 is a loopback address' },
        });
      } finally {
        await services.db.close();
      }
    });
  });
}
