import { describe, expect, it } from 'vitest';
import { afterLoginTarget, companySiteUrl, mainSiteUrl, statusPageAddress } from './hosts.ts';

const here = { protocol: 'http:', port: '4321' };
const company = { id: 'c1', name: 'Acme', subdomain: 'acme' };

describe('after sign-in', () => {
  const t = (user_type: '1' | '2' | '3', onTenantHost: boolean, extra: Partial<Parameters<typeof afterLoginTarget>[0]> = {}) =>
    afterLoginTarget({
      user: { user_type, company: user_type === '1' ? null : company },
      onTenantHost,
      productDomain: 'localhost',
      here,
      ...extra,
    });

  it('super admin: /dashboard on the main host, the main site dashboard from a subdomain', () => {
    expect(t('1', false)).toBe('/dashboard');
    expect(t('1', true)).toBe('http://localhost:4321/dashboard');
  });
  it('company admin and viewer: their subdomain dashboard from the main host, /dashboard on it', () => {
    expect(t('2', false)).toBe('http://acme.localhost:4321/dashboard');
    expect(t('3', false)).toBe('http://acme.localhost:4321/dashboard');
    expect(t('2', true)).toBe('/dashboard');
    expect(t('3', true)).toBe('/dashboard');
  });
  it('the subdomain falls back to the company fetch, then /dashboard', () => {
    expect(
      afterLoginTarget({
        user: { user_type: '2', company: null },
        onTenantHost: false,
        productDomain: 'example.com',
        companySubdomain: 'beta',
        here: { protocol: 'https:', port: '' },
      }),
    ).toBe('https://beta.example.com/dashboard');
    expect(afterLoginTarget({ user: { user_type: '2', company: null }, onTenantHost: false, productDomain: 'localhost', here })).toBe(
      '/dashboard',
    );
  });
  it("the server's redirect_to wins (it carries the handoff code)", () => {
    expect(t('2', false, { redirectTo: 'http://acme.localhost:4321/auth/handoff?code=x' })).toBe(
      'http://acme.localhost:4321/auth/handoff?code=x',
    );
  });
  it('a page that asked for the sign-in is where the user returns, unless the sign-in moves them to another host', () => {
    expect(t('2', true, { redirectTo: '/dashboard', next: '/notifications' })).toBe('/notifications');
    expect(t('1', false, { next: '/notifications' })).toBe('/notifications');
    expect(t('2', false, { redirectTo: 'http://acme.localhost:4321/auth/handoff?code=x', next: '/notifications' })).toBe(
      'http://acme.localhost:4321/auth/handoff?code=x',
    );
    expect(t('1', true, { next: '/notifications' })).toBe('http://localhost:4321/dashboard');
  });
  it('other user types go to /', () => {
    expect(
      afterLoginTarget({ user: { user_type: '9' as '1', company: null }, onTenantHost: false, productDomain: 'localhost', here }),
    ).toBe('/');
  });
  it('builds host URLs with and without a port', () => {
    expect(mainSiteUrl('example.com', '/x', { protocol: 'https:', port: '' })).toBe('https://example.com/x');
    expect(companySiteUrl('a', 'localhost', '/y', here)).toBe('http://a.localhost:4321/y');
  });
});

describe("a company's status page address", () => {
  it('is the root of its subdomain, shown without the scheme', () => {
    expect(statusPageAddress('acme', 'localhost', here)).toEqual({ href: 'http://acme.localhost:4321/', text: 'acme.localhost:4321' });
    expect(statusPageAddress('acme', 'status.example.com', { protocol: 'https:', port: '' })).toEqual({
      href: 'https://acme.status.example.com/',
      text: 'acme.status.example.com',
    });
    expect(statusPageAddress(null, 'localhost', here)).toBeNull();
  });
});
