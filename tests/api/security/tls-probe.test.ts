// The TLS analysis against loopback servers with certificates made at test time: each target's
// grade letter and finding keys exactly as docs/features/ssl-tls-monitoring.md documents them.
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTlsTargets, type CertKind, type TlsTargets } from '../../fixtures/targets/tls-targets.ts';
import { tlsFindings } from '../../../src/server/security/tls/findings.ts';
import { gradeTls } from '../../../src/server/security/tls/grade.ts';
import { probeTls, type ProbeEnv } from '../../../src/server/security/tls/probe.ts';

let targets: TlsTargets;
const env = (): ProbeEnv => ({
  allowPrivateTargets: true,
  resolve: async () => [{ address: '127.0.0.1', family: 4 }],
  extraCa: [targets.caPem],
});
beforeAll(async () => {
  targets = await startTlsTargets();
});
afterAll(async () => targets?.close());

const analyse = async (kind: CertKind, host = 'localhost') => {
  const probe = await probeTls(host, targets.port[kind], env(), AbortSignal.timeout(20_000));
  const now = Date.now();
  return { probe, grade: gradeTls(probe, now), keys: tlsFindings(probe, now).map((f) => f.key) };
};

describe('TLS analysis of loopback targets', () => {
  it('a good server (ECDSA, TLS 1.2+1.3, AEAD only, HSTS a year) gets A+ and no finding', async () => {
    const { probe, grade, keys } = await analyse('good');
    expect(probe.protocols).toEqual({ TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': true });
    expect(probe.cert).toMatchObject({
      keyType: 'EC',
      keyBits: 256,
      signatureAlgorithm: 'ecdsa-with-SHA256',
      names: ['localhost', '127.0.0.1'],
    });
    expect(probe.cert?.issuer).toContain('CN=Test CA R1');
    expect(probe.trusted).toBe(true);
    expect(probe.hostnameMatch).toBe(true);
    expect(probe.hsts).toBe('max-age=31536000; includeSubDomains');
    expect(grade.grade).toBe('A+');
    expect(keys).toEqual([]);
  });

  it('a weak server (TLS 1.0, RSA-1024, SHA-1) is capped at C with each weakness a finding', async () => {
    const { probe, grade, keys } = await analyse('weak');
    expect(probe.protocols).toEqual({ TLSv1: true, 'TLSv1.1': true, 'TLSv1.2': true, 'TLSv1.3': false });
    expect(probe.cert).toMatchObject({ keyType: 'RSA', keyBits: 1024, signatureAlgorithm: 'ecdsa-with-SHA1' });
    expect(grade.grade).toBe('C');
    expect(keys).toEqual([
      'tls.key.weak',
      'tls.cert.weak_signature',
      'tls.protocol.tls1_0',
      'tls.protocol.tls1_1',
      'tls.protocol.no_tls1_3',
      'tls.cipher.rsa_kx',
      'tls.cipher.cbc_sha1',
    ]);
  });

  it('an expired certificate grades T (A if it were trusted) with one finding: expired', async () => {
    const { grade, keys } = await analyse('expired');
    expect(grade).toMatchObject({ grade: 'T', gradeIfTrusted: 'A' });
    expect(keys).toEqual(['tls.cert.expired', 'tls.cipher.cbc_sha1']);
  });

  it('a self-signed certificate (30 days) grades T: untrusted, and expiring', async () => {
    const { probe, grade, keys } = await analyse('selfSigned');
    expect(probe.trustError).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(probe.cert?.selfSigned).toBe(true);
    expect(grade.grade).toBe('T');
    expect(keys).toEqual(['tls.cert.expiring', 'tls.cert.untrusted', 'tls.cipher.cbc_sha1']);
  });

  it('a certificate for another host grades T: hostname', async () => {
    const { probe, grade, keys } = await analyse('wrongHost');
    expect(probe.trusted).toBe(true);
    expect(probe.hostnameMatch).toBe(false);
    expect(grade.grade).toBe('T');
    expect(keys).toEqual(['tls.cert.hostname', 'tls.cipher.cbc_sha1']);
  });

  it('a certificate expiring in 10 days keeps its grade (A, no HSTS) and is an expiring finding', async () => {
    const { grade, keys } = await analyse('expiring');
    expect(grade.grade).toBe('A');
    expect(keys).toEqual(['tls.cert.expiring', 'tls.cipher.cbc_sha1']);
  });

  it('a refused target is never connected to: the SSRF guard answers', async () => {
    const probe = await probeTls('localhost', targets.port.good, { ...env(), allowPrivateTargets: false }, AbortSignal.timeout(5000));
    expect(probe.error).toMatch(/Target refused/);
    expect(gradeTls(probe, Date.now()).grade).toBeNull();
    expect(tlsFindings(probe, Date.now()).map((f) => f.key)).toEqual(['tls.unreachable']);
  });

  it('a port that speaks no TLS is unreachable: no grade, one finding', async () => {
    const sockets = new Set<net.Socket>();
    const plain = net.createServer((c) => {
      sockets.add(c);
      c.end('SSH-2.0-OpenSSH_9.6\r\n');
    });
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    try {
      const probe = await probeTls('localhost', (plain.address() as AddressInfo).port, env(), AbortSignal.timeout(20_000));
      expect(probe.error).toBe('No TLS handshake was possible');
      expect(gradeTls(probe, Date.now()).grade).toBeNull();
      expect(tlsFindings(probe, Date.now()).map((f) => f.key)).toEqual(['tls.unreachable']);
    } finally {
      for (const c of sockets) c.destroy();
      await new Promise((r) => plain.close(r));
    }
  });
});
