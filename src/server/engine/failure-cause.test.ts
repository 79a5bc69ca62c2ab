import { describe, expect, it } from 'vitest';
import { isCertificateRefusal } from '../net/error-text.ts';
import { failureCause } from './failure-cause.ts';

describe('failure causes', () => {
  it('a down result with a refused certificate has the certificate as its cause; others have none', () => {
    expect(failureCause({ status: 'down', detail: { certValid: false, certProblem: 'Self-signed certificate' } })).toBe('certificate');
    expect(failureCause({ status: 'down' })).toBeNull();
    expect(failureCause({ status: 'degraded', detail: { certValid: true } })).toBeNull();
    expect(failureCause({ status: 'operational', detail: { certValid: true } })).toBeNull();
  });

  it.each([
    ['DEPTH_ZERO_SELF_SIGNED_CERT', true],
    ['SELF_SIGNED_CERT_IN_CHAIN', true],
    ['CERT_HAS_EXPIRED', true],
    ['ERR_TLS_CERT_ALTNAME_INVALID', true],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', true],
    ['INVALID_CA', true],
    ['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', false],
    ['ERR_SSL_WRONG_VERSION_NUMBER', false],
    ['ECONNREFUSED', false],
  ])('%s is a refused certificate: %s', (code, refused) => {
    expect(isCertificateRefusal(Object.assign(new Error('x'), { code }))).toBe(refused);
  });
});
