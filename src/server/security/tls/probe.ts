// The TLS probe: what a host:port shows a client, gathered by a bounded series of handshakes to
// the one address the SSRF guard approved (DESIGN.md section 4): the certificate and its chain,
// each protocol version tried alone, a bounded list of weak cipher families, OCSP stapling, and
// the HSTS header of one GET to /. Nothing here judges; grade.ts and findings.ts do.
import { X509Certificate } from 'node:crypto';
import https from 'node:https';
import { isIP } from 'node:net';
import tls, { rootCertificates } from 'node:tls';
import { resolveSafe, TargetRefused, type PrivateTargets, type Resolver } from '../../net/ssrf.ts';

export type ProtocolName = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
export const PROTOCOLS: readonly ProtocolName[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];

/**
 * Weak cipher families this Node's OpenSSL can still offer, each as an OpenSSL cipher string
 * tried alone (TLS 1.0-1.2; TLS 1.3 has no weak suites). RC4, 3DES, DES, EXPORT, IDEA and SEED
 * are compiled out of OpenSSL 3 and cannot be offered (docs/features/ssl-tls-monitoring.md).
 */
export const WEAK_CIPHER_FAMILIES = {
  null: 'eNULL',
  anonymous: 'aNULL',
  rsa_kx: 'kRSA',
  cbc_sha1: 'SHA1',
} as const;
export type WeakCipherFamily = keyof typeof WEAK_CIPHER_FAMILIES;

/** SECLEVEL=0 lets OpenSSL 3 speak TLS 1.0/1.1 and accept weak keys and SHA-1, so they can be seen and graded. */
const ANY_CIPHER = 'DEFAULT:@SECLEVEL=0';

export interface CertificateInfo {
  subject: string;
  issuer: string;
  /** DNS names and IP addresses the certificate covers */
  names: string[];
  validFrom: number;
  expiresAt: number;
  /** 'RSA', 'EC', 'Ed25519', … */
  keyType: string;
  keyBits: number | null;
  /** e.g. 'sha256WithRSAEncryption', 'ecdsa-with-SHA256' */
  signatureAlgorithm: string;
  selfSigned: boolean;
  fingerprint256: string;
}

export interface TlsProbe {
  host: string;
  port: number;
  /** null when the host could not be reached or refused by the guard */
  error: string | null;
  cert: CertificateInfo | null;
  /** Chain trusted by the platform's CA store (plus the operator's extra CAs) */
  trusted: boolean;
  /** OpenSSL's reason when not trusted, e.g. 'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_HAS_EXPIRED' */
  trustError: string | null;
  hostnameMatch: boolean;
  protocols: Record<ProtocolName, boolean>;
  /** Cipher suites negotiated during the probe (the server's choice for each handshake) */
  ciphersSeen: string[];
  weakCiphers: Record<WeakCipherFamily, boolean>;
  ocspStapled: boolean;
  /** The Strict-Transport-Security header of GET /, null when absent or unreadable */
  hsts: string | null;
}

export interface ProbeEnv {
  allowPrivateTargets: PrivateTargets;
  resolve: Resolver;
  /** Extra trusted CA certificates (PEM): tests and self-hosters with a private CA */
  extraCa?: string[];
  /** Bound of each connection; the whole probe is bounded by the caller's signal */
  connectTimeoutMs?: number;
}

const CONNECT_TIMEOUT_MS = 5000;
const MAX_NAMES = 100;

interface Handshake {
  socket: tls.TLSSocket;
  ocsp: Buffer | null;
}

/** One handshake with the given options; resolves null when the server refuses it. */
function handshake(opts: tls.ConnectionOptions, timeoutMs: number, signal: AbortSignal): Promise<Handshake | null> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(null);
    let ocsp: Buffer | null = null;
    // The host name is judged apart (hostnameMatch): authorizationError then speaks of the chain only.
    const socket = tls.connect({ ...opts, rejectUnauthorized: false, checkServerIdentity: () => undefined });
    const done = (h: Handshake | null) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
      if (!h) socket.destroy();
      resolve(h);
    };
    const abort = () => done(null);
    const timer = setTimeout(abort, timeoutMs);
    signal.addEventListener('abort', abort, { once: true });
    socket.once('OCSPResponse', (r: Buffer) => {
      ocsp = r;
    });
    socket.once('secureConnect', () => done({ socket, ocsp }));
    // `on`, not `once`: a late error (a reset after the handshake) must not go unhandled.
    socket.on('error', () => done(null));
  });
}

function certificateInfo(peer: tls.PeerCertificate): CertificateInfo | null {
  if (!peer?.raw) return null;
  const x = new X509Certificate(peer.raw);
  const key = x.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  const type = key.asymmetricKeyType ?? 'unknown';
  const keyType = type === 'rsa' || type === 'rsa-pss' ? 'RSA' : type === 'ec' ? 'EC' : type === 'ed25519' ? 'Ed25519' : type.toUpperCase();
  const curveBits: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521 };
  const keyBits = details.modulusLength ?? (details.namedCurve ? (curveBits[details.namedCurve] ?? null) : type === 'ed25519' ? 256 : null);
  const names = (x.subjectAltName ?? '')
    .split(', ')
    .map((n) => n.replace(/^(DNS|IP Address):/, ''))
    .filter((n) => n !== '')
    .slice(0, MAX_NAMES);
  return {
    subject: x.subject.replace(/\n/g, ', '),
    issuer: x.issuer.replace(/\n/g, ', '),
    names,
    validFrom: x.validFromDate.getTime(),
    expiresAt: x.validToDate.getTime(),
    keyType,
    keyBits,
    signatureAlgorithm: x.signatureAlgorithm ?? 'unknown',
    selfSigned: x.checkIssued(x) && x.verify(key),
    fingerprint256: x.fingerprint256,
  };
}

/** The HSTS header of one GET / to the approved address, headers only (the body is never read). */
function hstsHeader(
  base: tls.ConnectionOptions,
  host: string,
  port: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string | null> {
  return new Promise((resolve) => {
    const req = https.request({
      ...base,
      // Any version the host speaks: a TLS 1.0-only host still tells its HSTS.
      minVersion: 'TLSv1',
      method: 'GET',
      path: '/',
      headers: { host: port === 443 ? host : `${host}:${port}`, 'user-agent': 'StatusWatch-TLS-Check/1.0', accept: '*/*' },
      agent: false,
      rejectUnauthorized: false,
      signal,
      timeout: timeoutMs,
    });
    req.once('response', (res) => {
      const v = res.headers['strict-transport-security'];
      res.destroy();
      resolve(typeof v === 'string' ? v.slice(0, 500) : null);
    });
    req.once('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}

const REFUSED_PROTOCOLS = { TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': false, 'TLSv1.3': false };
const NO_WEAK = { null: false, anonymous: false, rsa_kx: false, cbc_sha1: false };

/** Probes host:port; never throws (a refused or unreachable target comes back with `error`). */
export async function probeTls(host: string, port: number, env: ProbeEnv, signal: AbortSignal): Promise<TlsProbe> {
  const empty: TlsProbe = {
    host,
    port,
    error: null,
    cert: null,
    trusted: false,
    trustError: null,
    hostnameMatch: false,
    protocols: { ...REFUSED_PROTOCOLS },
    ciphersSeen: [],
    weakCiphers: { ...NO_WEAK },
    ocspStapled: false,
    hsts: null,
  };
  let address: string;
  try {
    address = (await resolveSafe(host, env.allowPrivateTargets, env.resolve, signal)).address;
  } catch (e) {
    return { ...empty, error: e instanceof TargetRefused ? e.message : 'The host name could not be resolved' };
  }
  const timeout = env.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const base: tls.ConnectionOptions = {
    host: address,
    port,
    servername: isIP(host) ? undefined : host,
    ca: env.extraCa?.length ? [...rootCertificates, ...env.extraCa] : undefined,
    ciphers: ANY_CIPHER,
  };
  const ciphersSeen = new Set<string>();
  const firstOptions: tls.ConnectionOptions = { ...base, minVersion: 'TLSv1', requestOCSP: true };
  // One more try before "unreachable": a busy host (or a busy checker) may miss one handshake.
  const first = (await handshake(firstOptions, timeout, signal)) ?? (await handshake(firstOptions, timeout, signal));
  if (!first) return { ...empty, error: signal.aborted ? 'Timed out' : 'No TLS handshake was possible' };
  const peer = first.socket.getPeerCertificate();
  const cert = certificateInfo(peer);
  const authError = first.socket.authorizationError as unknown as { code?: string } | string | null;
  const trustError = authError ? String(typeof authError === 'object' ? (authError.code ?? authError) : authError) : null;
  const hostnameMatch = peer?.raw ? tls.checkServerIdentity(host, peer) === undefined : false;
  ciphersSeen.add(first.socket.getCipher().name);
  const ocspStapled = first.ocsp !== null && first.ocsp.length > 0;
  first.socket.destroy();

  const protocols = { ...REFUSED_PROTOCOLS };
  for (const v of PROTOCOLS) {
    const h = await handshake({ ...base, minVersion: v, maxVersion: v }, timeout, signal);
    if (!h) continue;
    protocols[v] = true;
    ciphersSeen.add(h.socket.getCipher().name);
    h.socket.destroy();
  }
  const weakCiphers = { ...NO_WEAK };
  const legacy = PROTOCOLS.filter((v) => v !== 'TLSv1.3' && protocols[v]);
  if (legacy.length > 0) {
    for (const [family, list] of Object.entries(WEAK_CIPHER_FAMILIES) as Array<[WeakCipherFamily, string]>) {
      const h = await handshake(
        { ...base, minVersion: legacy[0], maxVersion: legacy[legacy.length - 1], ciphers: `${list}:@SECLEVEL=0` },
        timeout,
        signal,
      );
      if (!h) continue;
      weakCiphers[family] = true;
      ciphersSeen.add(h.socket.getCipher().name);
      h.socket.destroy();
    }
  }
  const hsts = await hstsHeader(base, host, port, timeout, signal);
  return {
    ...empty,
    cert,
    trusted: trustError === null,
    trustError,
    hostnameMatch,
    protocols,
    ciphersSeen: [...ciphersSeen].sort(),
    weakCiphers,
    ocspStapled,
    hsts,
  };
}
