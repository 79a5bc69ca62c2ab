// Certificate checks: a TLS handshake to host:port; down when the certificate is invalid
// (expired, untrusted, wrong host); days to expiry reported so warnings fire at 30/14/7/1 days.
import { isIP } from 'node:net';
import { DAY_MS } from '../../../lib/timeline.ts';
import tls from 'node:tls';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { certificateFacts } from './certificate.ts';
import { certificateProblem, networkErrorText } from '../../net/error-text.ts';
import { trustContext } from './socket-session.ts';
import { failed, round, type Checker } from './types.ts';

/** What an ssl monitor stores (engine/kinds/ssl.ts validates it). */
export interface SslConfig {
  host?: string;
  port?: number;
  /** Days before expiry at which a warning goes out */
  ssl_warning_days?: number[];
}

export const sslChecker: Checker<SslConfig> = async (target, env, signal) => {
  const started = performance.now();
  const cfg = target.config;
  const host = (cfg.host ?? '').trim();
  let dns = 0;
  try {
    const { address } = await resolveSafe(host, env.allowPrivateTargets, env.resolve, signal);
    dns = round(performance.now() - started);
    const { cert, authError } = await new Promise<{ cert: tls.PeerCertificate; authError: string | null }>((resolve, reject) => {
      const socket = tls.connect({
        host: address,
        port: cfg.port ?? 443,
        servername: isIP(host) ? undefined : host,
        rejectUnauthorized: false,
        secureContext: trustContext(env),
      });
      signal.addEventListener('abort', () => socket.destroy(new Error('aborted')), { once: true });
      socket.once('secureConnect', () => {
        const peer = socket.getPeerCertificate();
        const err = socket.authorizationError
          ? String((socket.authorizationError as unknown as { code?: string }).code ?? socket.authorizationError)
          : null;
        const hostErr = tls.checkServerIdentity(host, peer);
        socket.destroy();
        resolve({ cert: peer, authError: err ? certificateProblem(err) : hostErr ? 'Certificate does not match the host name' : null });
      });
      socket.once('error', reject);
    });
    const total = round(performance.now() - started);
    const facts = certificateFacts(cert);
    const expiresAt = facts.certExpiresAt;
    const base = { responseTimeMs: total, httpCode: null, timings: { dns, tls: round(total - dns), total }, ...facts };
    if (authError) return { ...base, status: 'down', error: authError, detail: { certValid: false, certProblem: authError } };
    const daysLeft = expiresAt === null ? null : Math.floor((expiresAt - env.now()) / DAY_MS);
    const minWarn = Math.min(...(cfg.ssl_warning_days?.length ? cfg.ssl_warning_days : [7]));
    if (daysLeft !== null && daysLeft <= minWarn) {
      return { ...base, status: 'degraded', error: `Certificate expires in ${daysLeft} day(s)`, detail: { certValid: true } };
    }
    return { ...base, status: 'operational', error: null, detail: { certValid: true } };
  } catch (e) {
    const timings = { dns, total: round(performance.now() - started) };
    if (signal.aborted) return failed(`Timed out after ${target.timeoutMs / 1000} s`, timings);
    if (e instanceof TargetRefused) return failed(e.message, timings);
    return failed(networkErrorText(e), timings);
  }
};
