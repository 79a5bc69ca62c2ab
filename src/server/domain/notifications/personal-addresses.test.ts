import { describe, expect, it } from 'vitest';
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { checkWebhookUrl } from './personal-addresses.ts';

const closed = { config: { allowPrivateTargets: false } } as unknown as Services;
const open = { config: { allowPrivateTargets: true } } as unknown as Services;

const refusal = (s: Services, url: string): string | undefined => {
  try {
    checkWebhookUrl(s, url);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    return (e as DomainError).fields?.webhook_url;
  }
};

describe('a personal webhook URL', () => {
  it.each([
    ['ftp://example.com/x', /https:\/\/ or http:\/\//],
    ['https://me:secret@example.com/x', /user name or password/],
    ['not a url', /full URL/],
    ['http://127.0.0.1:8080/hook', /./],
    ['http://169.254.169.254/latest', /./],
    ['http://[::1]/hook', /./],
  ])('refuses %s like a webhook channel would', (url, why) => {
    expect(refusal(closed, url)).toMatch(why);
  });

  it('takes a public URL, and an internal one only when the operator allows private targets (metadata never)', () => {
    expect(checkWebhookUrl(closed, 'https://hooks.example.com/me')).toBe('https://hooks.example.com/me');
    expect(checkWebhookUrl(open, 'http://127.0.0.1:8080/hook')).toBe('http://127.0.0.1:8080/hook');
    expect(refusal(open, 'http://169.254.169.254/latest')).toBeDefined();
  });
});
