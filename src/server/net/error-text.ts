// Network and TLS failures as sentences the product writes: Node's own messages carry OpenSSL
// internals ("error:0A00010B:SSL routines:…:../deps/openssl/…"), syscall names and whatever a
// target sent, none of which belongs in a check result a tenant (or its public page) reads.

const BY_CODE: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset by the server',
  EPIPE: 'Connection closed by the server',
  ECONNABORTED: 'Connection aborted',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
  EADDRNOTAVAIL: 'Address not available',
  ETIMEDOUT: 'Connection timed out',
  ETIMEOUT: 'DNS lookup of the host timed out', // c-ares: no server answered
  HPE_HEADER_OVERFLOW: 'Response headers too large',
  UND_ERR_HEADERS_OVERFLOW: 'Response headers too large',
  CERT_HAS_EXPIRED: 'Certificate has expired',
  CERT_NOT_YET_VALID: 'Certificate is not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'Self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'Self-signed certificate in the chain',
  ERR_TLS_CERT_ALTNAME_INVALID: 'Certificate does not match the host name',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'Certificate issuer is not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'Certificate issuer is not trusted',
  UNABLE_TO_GET_ISSUER_CERT: 'Certificate issuer is not trusted',
  CERT_REVOKED: 'Certificate has been revoked',
  CERT_SIGNATURE_FAILURE: 'Certificate signature is invalid',
  CERT_UNTRUSTED: 'Certificate is not trusted',
  CERT_REJECTED: 'Certificate is not trusted',
  INVALID_CA: 'Certificate issuer is not a valid CA',
  CERT_CHAIN_TOO_LONG: 'Certificate chain is too long',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS handshake failed: the server did not answer with TLS',
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 'TLS handshake failed: the server requires a client certificate',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: 'TLS handshake failed: no protocol version or cipher in common',
  ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: 'TLS handshake failed: no protocol version in common',
  ERR_SSL_UNSUPPORTED_PROTOCOL: 'TLS handshake failed: no protocol version in common',
  ERR_SSL_NO_PROTOCOLS_AVAILABLE: 'TLS handshake failed: no protocol version in common',
  ERR_SSL_TLSV1_UNRECOGNIZED_NAME: 'TLS handshake failed: the server does not know this host name',
  ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR: 'TLS handshake failed: the server reported an internal error',
};

/** OpenSSL's reason ("wrong version number") when Node gave no specific code (EPROTO). */
const BY_REASON: Array<[RegExp, string]> = [
  [/wrong version number|packet length too long|http request/i, BY_CODE.ERR_SSL_WRONG_VERSION_NUMBER],
  [/certificate required/i, BY_CODE.ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED],
  [/handshake failure|no shared cipher|no suitable signature/i, BY_CODE.ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE],
  [/protocol version|unsupported protocol/i, BY_CODE.ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION],
  [/unrecognized name/i, BY_CODE.ERR_SSL_TLSV1_UNRECOGNIZED_NAME],
];

/** A product sentence for a connection or TLS failure; never the error's own message. */
export function networkErrorText(e: unknown): string {
  const err = e as NodeJS.ErrnoException | undefined;
  const code = typeof err?.code === 'string' ? err.code : '';
  if (BY_CODE[code]) return BY_CODE[code];
  const message = typeof err?.message === 'string' ? err.message : '';
  const tls = code === 'EPROTO' || code.startsWith('ERR_SSL_') || /SSL routines|alert/i.test(message);
  if (tls) return BY_REASON.find(([re]) => re.test(message))?.[1] ?? 'TLS handshake failed';
  if (/CERT|^UNABLE_TO_|^INVALID_/.test(code)) return 'Certificate is not trusted'; // other verification failures
  if (code.startsWith('HPE_')) return 'The server sent an invalid HTTP response';
  if (message === 'socket hang up') return 'Connection closed by the server before a response';
  return 'Connection failed';
}

/** A certificate verification code from OpenSSL ('CERT_HAS_EXPIRED') as a sentence. */
export function certificateProblem(code: string): string {
  return BY_CODE[code] ?? 'Certificate is not trusted';
}

/**
 * Whether a connection failed because the target's certificate was refused (untrusted, expired,
 * self-signed, for another name), as opposed to the handshake or the network failing.
 */
export function isCertificateRefusal(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || code.startsWith('ERR_SSL_')) return false;
  return code === 'ERR_TLS_CERT_ALTNAME_INVALID' || /CERT|^UNABLE_TO_|^INVALID_CA$/.test(code);
}
