import { describe, expect, it } from 'vitest';
import { looksLikeHost, publicNameOf, PUBLIC_NAME_MAX } from './public-name.ts';

describe('looksLikeHost', () => {
  it.each([
    ['127.0.0.1 200', null],
    ['db 10.0.3.7', null],
    ['::1 health', null],
    ['fe80::1', null],
    ['https://status.acme.example/health', null],
    ['localhost', null],
    ['api.acme.internal', null],
    ['Payments (pay-01.corp)', null],
    ['Checkout', 'checkout'],
    ['My CHECKOUT probe', 'checkout'],
  ])('%s is host-like (target %s)', (name, target) => {
    expect(looksLikeHost(name, target)).toBe(true);
  });

  it.each([
    ['API', 'api.acme.example'],
    ['Website', null],
    ['Payments API v2.1', null],
    ['Status: OK', null],
    ['Checkout', null],
    ['EU region', 'eu'],
  ])('%s is not host-like (target %s)', (name, target) => {
    expect(looksLikeHost(name, target)).toBe(false);
  });
});

describe('publicNameOf', () => {
  it('is the public name when one is set', () => {
    expect(publicNameOf({ name: '127.0.0.1 200', publicName: 'Website', target: '127.0.0.1' }, 3)).toBe('Website');
  });
  it('is the monitor name when no public name is set and the name names no host', () => {
    expect(publicNameOf({ name: 'API', publicName: null, target: 'api.acme.example' }, 1)).toBe('API');
  });
  it('is "Service N" (its place on the page) when the monitor name looks like a host', () => {
    expect(publicNameOf({ name: '127.0.0.1 200', publicName: null, target: '127.0.0.1' }, 4)).toBe('Service 4');
    expect(publicNameOf({ name: 'db.internal', publicName: '  ', target: null }, 2)).toBe('Service 2');
  });
  it('allows names up to the limit', () => {
    expect(PUBLIC_NAME_MAX).toBe(100);
  });
});
