import { describe, expect, it } from 'vitest';
import { assetHostname, isUnder, proofInstructions } from './security-assets.ts';

describe('asset host names', () => {
  it.each([
    ['Example.COM.', { hostname: 'example.com' }],
    ['  www.example.com ', { hostname: 'www.example.com' }],
    ['bücher.example', { hostname: 'xn--bcher-kva.example' }],
    ['', { error: 'Enter a host name, such as example.com or www.example.com.' }],
    ['https://example.com/', { error: 'Enter a host name (letters, digits and hyphens between dots), not an address or a URL.' }],
    ['192.0.2.1', { error: 'Enter a host name (letters, digits and hyphens between dots), not an address or a URL.' }],
    ['2001:db8::1', { error: 'Enter a host name (letters, digits and hyphens between dots), not an address or a URL.' }],
    ['example.com:443', { error: 'Enter a host name (letters, digits and hyphens between dots), not an address or a URL.' }],
    ['_dmarc.example.com', { error: 'Enter a host name (letters, digits and hyphens between dots), not an address or a URL.' }],
    ['intranet', { error: 'Enter a fully qualified name with at least one dot, such as example.com.' }],
  ])('%j → %j', (raw, expected) => {
    expect(assetHostname(raw)).toEqual(expected);
  });

  it('counts a host as under a domain only at a label boundary', () => {
    expect(isUnder('www.example.com', 'example.com')).toBe(true);
    expect(isUnder('example.com', 'example.com')).toBe(true);
    expect(isUnder('badexample.com', 'example.com')).toBe(false);
    expect(isUnder('example.com.evil.test', 'example.com')).toBe(false);
  });

  it('tells what to publish', () => {
    expect(proofInstructions('www.example.com', 'tok')).toEqual({
      txt_name: 'www.example.com',
      txt_alt_name: '_statuswatch.www.example.com',
      txt_value: 'statuswatch-verification=tok',
      file_url: 'https://www.example.com/.well-known/statuswatch-verification.txt',
      file_body: 'tok',
    });
  });
});
