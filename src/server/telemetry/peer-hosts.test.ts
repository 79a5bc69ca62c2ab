import { describe, expect, it } from 'vitest';
import { peerCalls } from './peer-hosts.ts';

const span = (service: string, kind: number, attrs: Record<string, unknown>, startMs = 1000) => ({
  service,
  kind,
  start_us: startMs * 1000,
  attributes: JSON.stringify(attrs),
});

describe('peer hosts of client spans', () => {
  it('takes the called host from server.address, net.peer.name or the URL, once per host and service with the latest call', () => {
    expect(
      peerCalls('co', [
        span('checkout', 3, { 'server.address': 'Pay.Evil.example', 'url.full': 'https://other.example/' }, 1000),
        span('checkout', 3, { 'url.full': 'https://pay.evil.example:8443/charge' }, 5000),
        span('billing', 3, { 'net.peer.name': '198.51.100.7' }),
        span('billing', 3, { 'http.url': 'http://[2001:db8::1]:8080/x' }),
        span('frontend', 2, { 'server.address': 'www.acme.example' }), // a server span: its own name, not a call
        span('worker', 3, { 'db.system': 'postgresql' }), // no peer named
        span('worker', 3, { 'server.address': 'not a host' }),
      ]),
    ).toEqual([
      { company_id: 'co', host: 'pay.evil.example', service: 'checkout', seen_at: 5000 },
      { company_id: 'co', host: '198.51.100.7', service: 'billing', seen_at: 1000 },
      { company_id: 'co', host: '2001:db8::1', service: 'billing', seen_at: 1000 },
    ]);
  });
});
