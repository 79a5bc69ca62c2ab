// gRPC checks: grpc.health.v1.Health/Check through @grpc/grpc-js, to the address the SSRF guard
// accepted (an ipv4:/ipv6: target, so grpc-js never resolves the name itself), with the host as
// the :authority and the TLS server name. Up when the answer is SERVING.
import * as grpc from '@grpc/grpc-js';
import { checkServerIdentity, rootCertificates } from 'node:tls';
import { networkErrorText } from '../../net/error-text.ts';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { decodeHealthResponse, encodeHealthRequest, HEALTH_CHECK_METHOD, UnreadableHealthAnswer } from './grpc-health.ts';
import { certificateFacts, type CertificateFacts } from './certificate.ts';
import { failed, round, type Checker, type CheckOutcome, type Timings } from './types.ts';

/** What a grpc monitor stores (engine/kinds/grpc.ts validates it). */
export interface GrpcConfig {
  host?: string;
  port?: number;
  grpc_service?: string;
  grpc_tls?: boolean;
  grpc_metadata?: Record<string, string> | null;
  degraded_threshold_ms?: number | null;
}

/** A health answer is 2 bytes; anything near this is not one. */
const MAX_ANSWER_BYTES = 4096;

const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  // The address is already checked: no proxy from the environment, no retries, no second try.
  'grpc.enable_http_proxy': 0,
  'grpc.enable_retries': 0,
  'grpc.max_receive_message_length': MAX_ANSWER_BYTES,
  'grpc.max_metadata_size': 16 * 1024,
  'grpc.service_config_disable_resolution': 1,
  'grpc.initial_reconnect_backoff_ms': 60_000,
  // Each check its own connection: grpc-js would otherwise share one across checks (and
  // companies) to the same address, and the connect phase would measure nothing.
  'grpc.use_local_subchannel_pool': 1,
};

const quoted = (s: string) => (s.length > 80 ? `${s.slice(0, 80)}…` : s);

/** A failed call's gRPC status as our sentence; `details` (the server's text) is only read, never shown. */
function statusText(e: grpc.ServiceError, cfg: GrpcConfig, seconds: number): string {
  const { status } = grpc;
  switch (e.code) {
    case status.DEADLINE_EXCEEDED:
      return `No answer within ${seconds} s`;
    case status.NOT_FOUND:
      return cfg.grpc_service
        ? `The server does not know the service "${quoted(cfg.grpc_service)}"`
        : 'The server does not know the service';
    case status.UNIMPLEMENTED:
      return 'The server does not implement the gRPC health checking protocol';
    case status.UNAUTHENTICATED:
    case status.PERMISSION_DENIED:
      return `The server refused the call (${status[e.code]}): check the metadata`;
    case status.RESOURCE_EXHAUSTED:
      return /received message larger|max/i.test(e.details)
        ? 'The health answer was too large'
        : 'The server is out of resources (RESOURCE_EXHAUSTED)';
    case status.INTERNAL:
      if (/parsing|deserializ/i.test(e.details)) return 'The server sent an unreadable health answer';
      return 'The server failed the call (INTERNAL)';
    case status.UNAVAILABLE:
      return unavailableText(e.details);
    default:
      return `The health check failed with gRPC status ${status[e.code] ?? e.code}`;
  }
}

/** UNAVAILABLE wraps the connection's error in its text ("… connect ECONNREFUSED …"). */
function unavailableText(details: string): string {
  const code = /\b(E[A-Z]+|ERR_[A-Z_]+|CERT_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_[A-Z_]+)\b/.exec(
    details,
  )?.[1];
  if (code) return networkErrorText({ code, message: details });
  if (/certificate|SSL|TLS|handshake/i.test(details)) return networkErrorText({ code: 'EPROTO', message: details });
  return 'The gRPC server is unavailable (the connection failed or it did not speak HTTP/2)';
}

function watchReady(channel: ReturnType<grpc.Client['getChannel']>, deadline: number, onReady: () => void): void {
  const state = channel.getConnectivityState(true);
  if (state === grpc.connectivityState.READY) {
    onReady();
    return;
  }
  if (state === grpc.connectivityState.SHUTDOWN) return;
  channel.watchConnectivityState(state, deadline, (e) => {
    if (!e) watchReady(channel, deadline, onReady);
  });
}

export const grpcChecker: Checker<GrpcConfig> = async (target, env, signal) => {
  const started = performance.now();
  const cfg = target.config;
  const seconds = target.timeoutMs / 1000;
  const timings: Timings = { total: 0 };
  const host = cfg.host ?? '';
  let client: grpc.Client | undefined;
  /** TLS: the certificate the server showed (its expiry warns as an https check's does) */
  let cert: CertificateFacts | null = null;
  try {
    const { address, family } = await resolveSafe(host, env.allowPrivateTargets, env.resolve, signal);
    timings.dns = round(performance.now() - started);
    const authority = `${host.includes(':') ? `[${host}]` : host}:${cfg.port}`;
    const credentials = cfg.grpc_tls
      ? grpc.credentials.createSsl(Buffer.from([...rootCertificates, ...(env.extraCa ?? [])].join('\n')), null, null, {
          checkServerIdentity: (name, peer) => {
            cert = certificateFacts(peer);
            return checkServerIdentity(name, peer);
          },
        })
      : grpc.credentials.createInsecure();
    client = new grpc.Client(family === 6 ? `ipv6:[${address}]:${cfg.port}` : `ipv4:${address}:${cfg.port}`, credentials, {
      ...CHANNEL_OPTIONS,
      'grpc.default_authority': authority,
      ...(cfg.grpc_tls ? { 'grpc.ssl_target_name_override': host } : {}),
    });
    // A little before the engine aborts, so the answer says the server was silent, not "timed out".
    const deadline = Date.now() + Math.max(1, target.timeoutMs - (performance.now() - started) - 100);
    const c = client;
    const onAbort = () => c.close();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      // The connect phase: when the channel is READY (TCP, TLS when asked, HTTP/2 settings). The
      // call itself fails fast (no waitForReady), so a refused or failed handshake is reported
      // as such instead of being retried until the deadline.
      watchReady(c.getChannel(), deadline, () => {
        timings.connect = round(performance.now() - started - (timings.dns ?? 0));
      });
      const metadata = new grpc.Metadata();
      for (const [k, v] of Object.entries(cfg.grpc_metadata ?? {})) metadata.set(k, v);
      const status = await new Promise<ReturnType<typeof decodeHealthResponse>>((resolve, reject) =>
        c.makeUnaryRequest(
          HEALTH_CHECK_METHOD,
          (req: Buffer) => req,
          decodeHealthResponse,
          encodeHealthRequest(cfg.grpc_service ?? ''),
          metadata,
          { deadline },
          (e, answer) => (e ? reject(e) : resolve(answer!)),
        ),
      );
      timings.ttfb = timings.total = round(performance.now() - started);
      return { ...judge(status, cfg, timings), ...(cert ?? {}) };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  } catch (e) {
    timings.total = round(performance.now() - started);
    if (signal.aborted) return failed(`Timed out after ${seconds} s`, timings);
    if (e instanceof TargetRefused) return failed(e.message, timings);
    if (e instanceof UnreadableHealthAnswer) return failed('The server sent an unreadable health answer', timings);
    const err = e as grpc.ServiceError;
    if (typeof err.code === 'number') return failed(statusText(err, cfg, seconds), timings);
    return failed(networkErrorText(e), timings);
  } finally {
    client?.close();
  }
};

function judge(status: ReturnType<typeof decodeHealthResponse>, cfg: GrpcConfig, timings: Timings): CheckOutcome {
  const ms = timings.total;
  const base = { responseTimeMs: ms, httpCode: null, timings, certExpiresAt: null };
  if (status !== 'SERVING') {
    const name = typeof status === 'number' ? `an unknown status (${status})` : status;
    return { ...base, status: 'down', error: `The server reports ${name}${cfg.grpc_service ? ` for "${quoted(cfg.grpc_service)}"` : ''}` };
  }
  if (cfg.degraded_threshold_ms && ms > cfg.degraded_threshold_ms)
    return { ...base, status: 'degraded', error: `Health check took ${Math.round(ms)} ms` };
  return { ...base, status: 'operational', error: null };
}
