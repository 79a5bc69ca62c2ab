import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.ts';

describe('redactUrl', () => {
  it.each([
    ['/api/v1/push/abcdefghijklmnop', '/api/v1/push/[redacted]'],
    ['/api/v1/push/abc/def?x=1', '/api/v1/push/[redacted]?x=1'],
    ['/api/v1/%70ush/abcdefghijklmnop', '/api/v1/%70ush/[redacted]'],
    ['/share/tok.sig', '/share/[redacted]'],
    ['/Subscribe/Confirm/tok', '/Subscribe/Confirm/[redacted]'],
    ['/unsubscribe/id.nonce.sig', '/unsubscribe/[redacted]'],
    ['/ack/tok/', '/ack/[redacted]'],
    ['/auth/handoff?code=abc&next=%2F', '/auth/handoff?code=[redacted]&next=%2F'],
    ['/invite?TOKEN=abc', '/invite?TOKEN=[redacted]'],
    ['/login?unlock=abc&x=y&unlock=def', '/login?unlock=[redacted]&x=y&unlock=[redacted]'],
    ['/reset-password?t%6Fken=abc', '/reset-password?t%6Fken=[redacted]'],
  ])('%s -> %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
  it.each(['/', '/api/v1/monitors/123?page=2', '/share', '/ack', '/history.rss', '/api/v1/public/public-status/acme', '/shared/x'])(
    'keeps %s as it is',
    (url) => {
      expect(redactUrl(url)).toBe(url);
    },
  );
});
