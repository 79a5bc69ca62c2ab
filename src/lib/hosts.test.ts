import { describe, expect, it } from 'vitest';
import {
  classifyHost,
  companyLoginAvailable,
  safeLocalPath,
  hostName,
  hostPort,
  portSuffix,
  isIpHost,
  isRootHost,
  isTenantHost,
  mainOrigin,
  slugifySubdomain,
  subdomainOf,
  subdomainProblem,
  tenantOrigin,
} from './hosts.ts';

describe('host rules (spec section 1)', () => {
  it.each([
    // host, product domain, root?, tenant?, subdomain, company login available?
    ['localhost', 'localhost', true, false, null, false],
    ['localhost:4321', 'localhost', true, false, null, false],
    ['acme.localhost:4321', 'localhost', false, true, 'acme', true],
    ['ACME.LocalHost', 'localhost', false, true, 'acme', true],
    ['status.example.com', 'status.example.com', true, false, null, false],
    ['www.status.example.com', 'status.example.com', true, false, null, false],
    ['acme.status.example.com', 'status.example.com', false, true, 'acme', true],
    ['a.b.status.example.com', 'status.example.com', false, true, null, true],
    ['example.com', 'example.com', true, false, null, false],
    ['acme.example.com', 'example.com', false, true, 'acme', true],
    ['acme.example.org', 'example.com', false, false, null, false],
    ['evilexample.com', 'example.com', false, false, null, false],
    ['127.0.0.1:4321', 'localhost', false, false, null, false],
    ['[::1]:4321', 'localhost', false, false, null, false],
    ['-bad-.localhost', 'localhost', false, true, null, true],
  ] as const)('%s on %s', (host, domain, root, tenant, sub, companyLogin) => {
    expect(isRootHost(host, domain)).toBe(root);
    expect(isTenantHost(host, domain)).toBe(tenant);
    expect(subdomainOf(host, domain)).toBe(sub);
    expect(companyLoginAvailable(host, domain)).toBe(companyLogin);
  });

  it('classifies hosts', () => {
    expect(classifyHost('localhost:80', 'localhost')).toEqual({ kind: 'root' });
    expect(classifyHost('acme.localhost', 'localhost')).toEqual({ kind: 'tenant', subdomain: 'acme' });
    expect(classifyHost('10.0.0.1', 'localhost')).toEqual({ kind: 'invalid' });
    expect(classifyHost('other.org', 'localhost')).toEqual({ kind: 'invalid' });
  });

  it('splits host and port', () => {
    expect(hostName('Acme.Localhost:4321')).toBe('acme.localhost');
    expect(hostName('[::1]:80')).toBe('[::1]');
    expect(hostName('example.com.')).toBe('example.com');
    expect(hostPort('acme.localhost:4321')).toBe(':4321');
    expect(hostPort('acme.localhost')).toBe('');
    expect(hostPort('[::1]:80')).toBe(':80');
    expect(portSuffix('http', 80)).toBe('');
    expect(portSuffix('https', 443)).toBe('');
    expect(portSuffix('http', 443)).toBe(':443');
    expect(portSuffix('https', 8443)).toBe(':8443');
    expect(isIpHost('192.168.1.1')).toBe(true);
    expect(isIpHost('acme.localhost')).toBe(false);
  });

  it('validates subdomains: lowercase DNS label, not reserved', () => {
    expect(subdomainProblem('acme')).toBeNull();
    expect(subdomainProblem('acme-2')).toBeNull();
    expect(subdomainProblem('')).toBe('Subdomain is required.');
    expect(subdomainProblem('Acme')).toMatch(/only lowercase letters/);
    expect(subdomainProblem('-acme')).toMatch(/only lowercase letters/);
    expect(subdomainProblem('acme-')).toMatch(/only lowercase letters/);
    expect(subdomainProblem('ac.me')).toMatch(/only lowercase letters/);
    expect(subdomainProblem('a'.repeat(64))).toBe('Subdomain must be at most 63 characters.');
    for (const r of ['www', 'api', 'admin', 'app', 'status', 'mail', 'localhost']) {
      expect(subdomainProblem(r)).toBe(`The subdomain '${r}' is reserved. Please choose another.`);
    }
  });

  it('derives subdomains from names and builds origins keeping the port', () => {
    expect(slugifySubdomain('Acme Corp.')).toBe('acme-corp');
    expect(slugifySubdomain('Café  Zürich')).toBe('cafe-zurich');
    expect(slugifySubdomain('!!!')).toBe('');
    expect(tenantOrigin('https', 'acme', 'status.example.com', '')).toBe('https://acme.status.example.com');
    expect(tenantOrigin('http', 'acme', 'localhost', ':4321')).toBe('http://acme.localhost:4321');
    expect(mainOrigin('http', 'localhost', ':4321')).toBe('http://localhost:4321');
  });

  it('keeps a redirect path only when it stays on this host', () => {
    expect(safeLocalPath('/metrics?range=7d')).toBe('/metrics?range=7d');
    expect(safeLocalPath('/traces/abc#span')).toBe('/traces/abc#span');
    for (const bad of [
      '//evil.test/x',
      '/\\evil.test',
      'https://evil.test/',
      'javascript:alert(1)',
      'metrics',
      '/a\nb',
      '',
      undefined,
      42,
      `/${'a'.repeat(3000)}`,
    ]) {
      expect(safeLocalPath(bad), String(bad)).toBe('/dashboard');
    }
  });
});
