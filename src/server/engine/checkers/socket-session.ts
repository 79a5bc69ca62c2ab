// The connection of the line-protocol checkers (redis, smtp, imap, pop3): TCP to the checked
// address, TLS at once (implicit) or later over the same socket (STARTTLS), verified against the
// host name the monitor names, with the certificate's facts kept for the result.
import net from 'node:net';
import tls, { rootCertificates } from 'node:tls';
import { certificateProblem } from '../../net/error-text.ts';
import type { CheckEnv } from './types.ts';

// A secure context per set of extra CAs: building one parses the ~150 root certificates, which
// cost more than the handshake itself when done for every check.
const contexts = new WeakMap<readonly string[], tls.SecureContext>();
/** The trusted roots with the configured extra CAs (undefined: Node's default roots, already shared). */
export function trustContext(env: CheckEnv): tls.SecureContext | undefined {
  const extra = env.extraCa;
  if (!extra?.length) return undefined;
  let context = contexts.get(extra);
  if (!context) {
    context = tls.createSecureContext({ ca: [...rootCertificates, ...extra] });
    contexts.set(extra, context);
  }
  return context;
}

export function connectTcp(address: string, port: number, signal: AbortSignal): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port, signal });
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

export interface TlsResult {
  socket: tls.TLSSocket;
  peer: tls.PeerCertificate;
  /** The certificate's problem as a sentence (expired, untrusted, another name); null: valid */
  problem: string | null;
}

/** A TLS handshake over `socket` (already connected); the certificate is judged, not refused, so its facts are kept. */
export function startTls(socket: net.Socket, host: string, env: CheckEnv, signal: AbortSignal): Promise<TlsResult> {
  return new Promise((resolve, reject) => {
    const secure = tls.connect({
      socket,
      servername: net.isIP(host) ? undefined : host,
      rejectUnauthorized: false,
      secureContext: trustContext(env),
    });
    const onAbort = () => secure.destroy(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    secure.once('secureConnect', () => {
      signal.removeEventListener('abort', onAbort);
      secure.off('error', reject);
      const peer = secure.getPeerCertificate();
      const code = secure.authorizationError
        ? String((secure.authorizationError as unknown as { code?: string }).code ?? secure.authorizationError)
        : null;
      const problem = code
        ? certificateProblem(code)
        : tls.checkServerIdentity(host, peer)
          ? 'Certificate does not match the host name'
          : null;
      resolve({ socket: secure, peer, problem });
    });
    secure.once('error', reject);
  });
}
