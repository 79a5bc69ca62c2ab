// Which names a company may point at its status page, and which Hosts are looked up as one.
import { describe, expect, it } from 'vitest';
import { challengeName, customDomainProblem, isForeignHost, normalizeCustomDomain } from './custom-domains.ts';

const PRODUCT = 'status.example.com';

describe('custom domain names', () => {
  it.each([
    ['status.acme.com', null],
    ['status.acme.co.uk', null],
    ['acme.com', null],
    ['xn--bcher-kva.example', null],
    ['', 'Domain is required.'],
    ['10.0.0.1', 'Enter a host name such as status.example.com, not an IP address.'],
    ['[::1]', 'Enter a host name such as status.example.com, not an IP address.'],
    ['acme', 'Enter a host name such as status.example.com (letters, digits and hyphens between dots).'],
    ['bad_label.acme.com', 'Enter a host name such as status.example.com (letters, digits and hyphens between dots).'],
    ['-acme.com', 'Enter a host name such as status.example.com (letters, digits and hyphens between dots).'],
    ['acme..com', 'Enter a host name such as status.example.com (letters, digits and hyphens between dots).'],
    ['status.acme.123', 'Enter a host name such as status.example.com (letters, digits and hyphens between dots).'],
    [PRODUCT, "Names under status.example.com are the platform's own; enter your company's domain."],
    [`acme.${PRODUCT}`, "Names under status.example.com are the platform's own; enter your company's domain."],
    [`www.${PRODUCT}`, "Names under status.example.com are the platform's own; enter your company's domain."],
    ['status.localhost', "Names under status.example.com are the platform's own; enter your company's domain."],
    [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`, 'A domain has at most 253 characters.'],
  ])('%s → %s', (name, problem) => {
    expect(customDomainProblem(name, PRODUCT)).toBe(problem);
  });

  it('normalizes what was typed and names the TXT record', () => {
    expect(normalizeCustomDomain('  Status.ACME.com. ')).toBe('status.acme.com');
    expect(challengeName('status.acme.com')).toBe('_statuswatch-challenge.status.acme.com');
  });

  it('looks up only Hosts outside the platform', () => {
    expect(isForeignHost('status.acme.com:8443', PRODUCT)).toBe(true);
    expect(isForeignHost('STATUS.ACME.COM.', PRODUCT)).toBe(true);
    for (const own of [PRODUCT, `acme.${PRODUCT}`, `www.${PRODUCT}:443`, 'localhost', '127.0.0.1', '[::1]:80', '']) {
      expect(isForeignHost(own, PRODUCT), own).toBe(false);
    }
  });
});
