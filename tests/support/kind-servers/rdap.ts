// A loopback RDAP server (RFC 9082/9083) for domain monitors, friendly and hostile: each domain
// the test names answers its registry object, or misbehaves as told (garbage that is not JSON, an
// answer larger than any registry's, an answer that never ends, a slow one). Unknown names answer
// 404 as registries do. Reused by bench/kinds.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Hostile = 'garbage' | 'huge' | 'endless' | 'slow';

export interface RdapKindServer {
  host: string;
  port: number;
  /** Base URL for RDAP_BASE_URLS / an RDAP directory */
  url: string;
  /** domain (lower case) → its RDAP domain object, or how it misbehaves */
  domains: Map<string, object | { hostile: Hostile; body?: object }>;
  /** How long `slow` answers wait before their headers */
  slowMs: number;
  /** Domain queries received, in order */
  asked: string[];
  close(): Promise<void>;
}

/** A registry's domain object: registrar, expiry and EPP statuses as RDAP spells them ("client hold"). */
export function registration(o: { name: string; expires: string | number; registrar?: string; status?: string[] }): object {
  return {
    objectClassName: 'domain',
    rdapConformance: ['rdap_level_0'],
    ldhName: o.name.toUpperCase(),
    status: o.status ?? ['client transfer prohibited'],
    events: [
      { eventAction: 'registration', eventDate: '2015-03-02T10:00:00Z' },
      { eventAction: 'expiration', eventDate: typeof o.expires === 'number' ? new Date(o.expires).toISOString() : o.expires },
    ],
    entities: [
      {
        objectClassName: 'entity',
        roles: ['registrar'],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', o.registrar ?? 'Example Registrar, Inc.'],
          ],
        ],
      },
    ],
    nameservers: [{ objectClassName: 'nameserver', ldhName: 'NS1.EXAMPLE.NET' }],
  };
}

export async function startRdapKindServer(): Promise<RdapKindServer> {
  const sockets = new Set<import('node:net').Socket>();
  const state = { domains: new Map<string, object | { hostile: Hostile; body?: object }>(), slowMs: 300, asked: [] as string[] };
  const server = http.createServer((req, res) => {
    const m = /^\/domain\/([^/?]+)$/.exec(req.url ?? '');
    const name = m ? decodeURIComponent(m[1]).toLowerCase() : '';
    state.asked.push(name);
    const found = state.domains.get(name);
    const json = (status: number, body: object) =>
      res.writeHead(status, { 'content-type': 'application/rdap+json' }).end(JSON.stringify(body));
    if (!found) return json(404, { errorCode: 404, title: 'Not Found' });
    if (!('hostile' in found)) return json(200, found);
    switch (found.hostile) {
      case 'garbage':
        return void res.writeHead(200, { 'content-type': 'application/rdap+json' }).end('<html>Service Temporarily Unavailable{{');
      case 'huge': {
        res.writeHead(200, { 'content-type': 'application/rdap+json' });
        // 2 MiB of a valid-looking JSON start: more than any registry answer.
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        res.write('{"objectClassName":"domain","remarks":"');
        let sent = 0;
        const more = () => {
          while (sent < 32 && res.write(chunk)) sent++;
          if (sent < 32) res.once('drain', more);
          else res.end('"}');
        };
        return more();
      }
      case 'endless': {
        res.writeHead(200, { 'content-type': 'application/rdap+json' });
        res.write('{"objectClassName":"domain",');
        const timer = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'slow': {
        const timer = setTimeout(() => json(200, found.body ?? {}), state.slowMs);
        res.on('close', () => clearTimeout(timer));
        return;
      }
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  // Never what keeps a process alive: a spec may start it when its module loads (see the e2e spec).
  server.unref();
  const port = (server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    url: `http://127.0.0.1:${port}/`,
    get domains() {
      return state.domains;
    },
    get slowMs() {
      return state.slowMs;
    },
    set slowMs(v: number) {
      state.slowMs = v;
    },
    asked: state.asked,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
