// The console's live stream (issue 13 item 7), GET /api/v1/events, read with a real HTTP client
// on SQLite and PostgreSQL. The checks run in a separate `npm run worker` process on the same
// database, as in a deployment with RUN_ENGINE=false: a loopback target turns to 500 and the
// stream of the monitor's company reports it down within 2 s of the worker's write, while
// another company's stream (and a super admin looking at that other company) hears nothing.
// A write through a second app instance (its own services and connections, as another web
// process) reaches the first one's streams too. Also: no session is a 401 problem, never a
// stream; the 11th stream of one account is a 429; a heartbeat every 15 s, at which a signed-out
// session loses its stream; closing the server ends open streams at once.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/server/http/openapi/spec.ts';
import { seedCompany, seedUser, signIn } from '../support/fixtures.ts';
import { assertMatchesContract } from '../support/contract.ts';
import { DB_KINDS, newDatabaseLocation, tempDir } from '../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../support/test-app.ts';
import { waitFor as waitUntil } from '../support/wait-for.ts';

const WORKER = path.resolve(import.meta.dirname, '../../src/server/worker.ts');

interface SseEvent {
  type: string;
  data: any;
  at: number;
}

/** Every stream a test opened, closed after it whatever its outcome */
const opened: Stream[] = [];

interface Stream {
  status: number;
  contentType: string;
  body: any;
  events: SseEvent[];
  /** Raw text received (comments and retry: included) */
  text(): string;
  ended: Promise<void>;
  close(): void;
}

/** Opens GET /api/v1/events as a browser would (the client's cookies, its host) and parses the events. */
function openStream(t: TestApp, client: ApiClient, opts: { host?: string; query?: string; cookie?: string } = {}): Promise<Stream> {
  const host = opts.host ?? t.config.productDomain;
  const url = `${t.baseUrl}/api/v1/events${opts.query ?? ''}`;
  const headers: Record<string, string> = { host: `${host}:${t.port}`, accept: 'text/event-stream' };
  const cookie = opts.cookie ?? client.cookieHeader(host);
  if (cookie) headers.cookie = cookie;
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let raw = '';
      let buffer = '';
      const events: SseEvent[] = [];
      let endedResolve = () => {};
      const ended = new Promise<void>((r) => (endedResolve = r));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type && data !== undefined) events.push({ type, data: JSON.parse(data), at: Date.now() });
        }
      });
      res.on('end', endedResolve);
      res.on('close', endedResolve);
      const contentType = String(res.headers['content-type'] ?? '');
      const stream: Stream = {
        status: res.statusCode ?? 0,
        contentType,
        body: null,
        events,
        text: () => raw,
        ended,
        close: () => req.destroy(),
      };
      opened.push(stream);
      if (stream.status === 200) return resolve(stream);
      res.on('end', async () => {
        try {
          stream.body = JSON.parse(raw);
          await assertMatchesContract('GET', url, stream.status, contentType, stream.body);
          resolve(stream);
        } catch (e) {
          reject(e);
        }
      });
    });
    req.on('error', (e) => {
      if ((e as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(e);
    });
  });
}

/** Waits (at most 30 s) until `probe` answers something. */
const waitFor = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>) => waitUntil(probe, { what, timeoutMs: 30_000 });

describe.each(DB_KINDS)('live events on %s', (kind) => {
  let t: TestApp;
  let worker: ChildProcess;
  let location: { url?: string; file?: string };
  let acmeUser: { email: string; password: string };
  let target: http.Server;
  let targetUp = true;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let acmeAdmin: ApiClient;
  let globexAdmin: ApiClient;
  let root: ApiClient;
  const acmeHost = () => `${acme.subdomain}.${t.config.productDomain}`;
  const globexHost = () => `${globex.subdomain}.${t.config.productDomain}`;

  beforeAll(async () => {
    target = http.createServer((_req, res) => {
      res.statusCode = targetUp ? 200 : 500;
      res.end(targetUp ? 'ok' : 'boom');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    // The worker opens DATA_DIR/statuswatch.sqlite: the server uses that same file.
    const loc = await newDatabaseLocation(kind);
    const dataDir = loc.file ? path.dirname(loc.file) : tempDir();
    location = loc.url ? { url: loc.url } : { file: path.join(dataDir, 'statuswatch.sqlite') };
    const env = { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1', RUN_ENGINE: 'false' };
    t = await startTestApp({ db: kind, location, env });
    acme = await seedCompany(t.services, { plan: 'enterprise', name: 'Acme' });
    globex = await seedCompany(t.services, { plan: 'enterprise', name: 'Globex' });
    const users = {
      acme: await seedUser(t.services, { userType: 2, companyId: acme.id }),
      globex: await seedUser(t.services, { userType: 2, companyId: globex.id }),
      root: await seedUser(t.services, { userType: 1 }),
    };
    acmeUser = users.acme;
    acmeAdmin = t.client();
    globexAdmin = t.client();
    root = t.client();
    await signIn(acmeAdmin, users.acme, acmeHost());
    await signIn(globexAdmin, users.globex, globexHost());
    await signIn(root, users.root);
    worker = spawn(process.execPath, [WORKER], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        ...(loc.url ? { DATABASE_URL: loc.url } : {}),
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }, 60_000);

  afterEach(() => {
    for (const s of opened.splice(0)) s.close();
  });

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await new Promise((r) => worker.once('exit', r));
    }
    await t?.close();
    target?.closeAllConnections();
    await new Promise((r) => target?.close(r));
  });

  it('answers 401 with a problem, never a stream, without a session', async () => {
    const anonymous = t.client();
    const s = await openStream(t, anonymous);
    expect(s.status).toBe(401);
    expect(s.contentType).toMatch(/^application\/problem\+json/);
    expect(s.body.detail).toMatch(/sign in/i);
    const forged = await openStream(t, anonymous, { cookie: 'sw_at=not-a-token' });
    expect(forged.status).toBe(401);
  });

  it("reports a monitor going down and up within 2 s of the worker's write, to its own company only", async () => {
    const created = await acmeAdmin.post(
      '/api/v1/monitors',
      {
        name: 'Checkout',
        type: 'http',
        url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/`,
        interval_seconds: 1,
        timeout_seconds: 1,
        confirmations: 1,
        is_public: false,
      },
      { host: acmeHost() },
    );
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const stateOf = async () =>
      t.services.db.k.selectFrom('monitors').select(['status', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();
    await waitFor('the first check by the worker', async () => ((await stateOf()).status === 'operational' ? true : undefined));

    const acmeStream = await openStream(t, acmeAdmin, { host: acmeHost() });
    // a company admin's `tenant` is ignored: Globex's admin asking for Acme still gets Globex
    const globexStream = await openStream(t, globexAdmin, { host: globexHost(), query: `?tenant=${acme.id}` });
    const rootOnGlobex = await openStream(t, root, { query: `?tenant=${globex.id}` });
    const rootGlobal = await openStream(t, root);
    for (const s of [acmeStream, globexStream, rootOnGlobex, rootGlobal]) {
      expect(s.status).toBe(200);
      expect(s.contentType).toBe('text/event-stream; charset=utf-8');
    }
    expect(acmeStream.text()).toMatch(/^retry: \d+\n/);
    // the bell's count comes first
    const first = await waitFor('the unread count', () => acmeStream.events.find((e) => e.type === 'notifications'));
    expect(first.data).toEqual({ unread: 0 });

    const downEvent = (s: Stream, status: string, after = 0) =>
      s.events.find((e) => e.type === 'monitor' && e.at > after && e.data.monitors.some((m: any) => m.id === id && m.status === status));
    targetUp = false;
    const down = await waitFor('the down event', () => downEvent(acmeStream, 'down'));
    const written = await stateOf();
    expect(written.status).toBe('down');
    expect(down.at - written.updated_at).toBeLessThan(2000);
    const item = down.data.monitors.find((m: any) => m.id === id);
    expect(item).toMatchObject({ is_paused: false, last_http_code: 500 });
    expect(Date.parse(item.last_checked_at)).toBeGreaterThan(0);
    // a change of state tells the console to reload what it counts (dashboard tiles, filtered lists)
    const reload = await waitFor('the reload hint', () => acmeStream.events.find((e) => e.type === 'monitor' && e.data.reload));
    expect(reload.at - written.updated_at).toBeLessThan(2000);
    // the incident it opened and the notification it sent reach the same stream
    await waitFor('the incident event', () => acmeStream.events.find((e) => e.type === 'incident' && e.at >= down.at - 1000));
    await waitFor('the raised unread count', () => acmeStream.events.find((e) => e.type === 'notifications' && e.data.unread > 0));
    await waitFor('the global view', () => downEvent(rootGlobal, 'down'));

    targetUp = true;
    const up = await waitFor('the recovery event', () => downEvent(acmeStream, 'operational', down.at));
    expect(up.at - (await stateOf()).updated_at).toBeLessThan(2000);
    // a maintenance window scheduled by the company's admin
    const startsAt = Date.now() + 3_600_000;
    const w = await acmeAdmin.post(
      '/api/v1/maintenance-windows',
      { title: 'Upgrade', starts_at: new Date(startsAt).toISOString(), ends_at: new Date(startsAt + 3_600_000).toISOString() },
      { host: acmeHost() },
    );
    expect(w.status, w.text).toBe(201);
    const scheduled = Date.now();
    const maintenance = await waitFor('the maintenance event', () => acmeStream.events.find((e) => e.type === 'maintenance'));
    expect(maintenance.at - scheduled).toBeLessThan(2000);
    // checks go on every second, each one an event; those that change nothing are sent as rows
    // to patch, with no reload
    const laterEvents = () => acmeStream.events.filter((e) => e.type === 'monitor' && e.at > up.at + 1000);
    await waitFor('two later check events', () => (laterEvents().length >= 2 ? true : undefined));
    const later = laterEvents();
    expect(later.length).toBeGreaterThan(0);
    expect(later.map((e) => e.data.reload)).not.toContain(true);

    for (const other of [globexStream, rootOnGlobex]) {
      expect(other.text()).not.toContain(id);
      expect(other.events.filter((e) => e.type !== 'notifications')).toEqual([]);
    }
    expect(globexStream.events.map((e) => e.data)).toEqual([{ unread: 0 }]);
    // every event's data is what the OpenAPI document describes
    const schemas = (await loadSpec()).document.components.schemas;
    const ajv = (addFormatsModule as unknown as (a: Ajv) => Ajv)(new Ajv({ strict: false }));
    const check = { monitor: ajv.compile(schemas.LiveMonitorEvent), notifications: ajv.compile(schemas.LiveNotificationsEvent) };
    for (const e of [...acmeStream.events, ...rootGlobal.events]) {
      if (e.type === 'monitor' || e.type === 'notifications') expect(check[e.type](e.data), JSON.stringify(e.data)).toBe(true);
      else expect([e.type, e.data]).toEqual([expect.stringMatching(/^(incident|maintenance)$/), {}]);
    }
  }, 90_000);

  it('refuses the 11th open stream of one account with a 429 problem', async () => {
    const open: Stream[] = [];
    for (let i = 0; i < 10; i++) open.push(await openStream(t, globexAdmin, { host: globexHost() }));
    expect(open.map((s) => s.status)).toEqual(Array(10).fill(200));
    const refused = await openStream(t, globexAdmin, { host: globexHost() });
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/at most 10 live connections/i);
    // other accounts are not affected
    const other = await openStream(t, acmeAdmin, { host: acmeHost() });
    expect(other.status).toBe(200);
    other.close();
    open[0].close();
    await waitFor('a freed slot', async () => {
      const again = await openStream(t, globexAdmin, { host: globexHost() });
      if (again.status !== 200) return undefined;
      open.push(again);
      return true;
    });
    for (const s of open) s.close();
  });

  it('sends a heartbeat every 15 s, at which a signed-out session loses its stream', async () => {
    const user = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const leaving = t.client();
    await signIn(leaving, user, acmeHost());
    const s = await openStream(t, leaving, { host: acmeHost() });
    expect(s.status).toBe(200);
    const out = await leaving.post('/api/v1/auth/logout', {}, { host: acmeHost() });
    expect(out.status, out.text).toBe(200);
    const started = Date.now();
    await s.ended;
    expect(s.text()).toContain(': heartbeat\n\n');
    expect(Date.now() - started).toBeLessThan(17_000);
  }, 30_000);

  it("hears a write made through another web process's API on the same database", async () => {
    const other = await startTestApp({ db: kind, location, env: { RUN_ENGINE: 'false' } });
    try {
      const s = await openStream(t, acmeAdmin, { host: acmeHost() });
      await waitFor('the stream to start', () => s.events.find((e) => e.type === 'notifications'));
      const elsewhere = other.client();
      await signIn(elsewhere, acmeUser, acmeHost());
      const r = await elsewhere.post(
        '/api/v1/incidents',
        { title: 'Payments are slow', severity: 'medium', status: 'investigating', message: 'Looking into it.', is_public: false },
        { host: acmeHost() },
      );
      expect(r.status, r.text).toBe(201);
      const written = Date.now();
      const e = await waitFor('the incident event', () => s.events.find((x) => x.type === 'incident'));
      expect(e.at - written).toBeLessThan(2000);
    } finally {
      await other.close();
    }
  });

  it('ends open streams when the server closes, without waiting for them', async () => {
    const s = await openStream(t, acmeAdmin, { host: acmeHost() });
    expect(s.status).toBe(200);
    const started = Date.now();
    await t.app.close();
    await s.ended;
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
