// gRPC monitors: the standard health check (grpc.health.v1.Health/Check) of a server or one of its
// services, over plaintext or TLS, with metadata; up when SERVING, slow answers degraded.
import { hasControlCharacters } from '../../../lib/plain-text.ts';
import { GRPC_FIELDS } from '../../../lib/monitor-kinds.ts';
import { grpcChecker, type GrpcConfig } from '../checkers/grpc.ts';
import { validateHostPort } from './host-port.ts';
import { certificateExpiring } from './certificate-warnings.ts';
import type { Kind } from './kind.ts';

const FIELDS = GRPC_FIELDS;
/** gRPC metadata keys (HTTP/2 header names): lower case; `-bin` keys carry binary, not text. */
const METADATA_KEY = /^[0-9a-z_.-]{1,100}$/;
/** Set by gRPC itself: a monitor may not replace them. */
const RESERVED = new Set(['content-type', 'te', 'host', 'user-agent', 'connection', 'authority']);
const SERVICE = /^[A-Za-z0-9_.\-/]{0,200}$/;
const HIDDEN_SECRET = '(hidden)';

export const grpcKind: Kind<GrpcConfig> = {
  fields: FIELDS,
  validate(pick) {
    const { config: hp, problems, target } = validateHostPort(pick, undefined);
    const config: GrpcConfig = {
      ...hp,
      grpc_service: String(pick('grpc_service') ?? '').trim(),
      grpc_tls: pick('grpc_tls') ?? false,
      grpc_metadata: pick('grpc_metadata') ?? {},
      degraded_threshold_ms: pick('degraded_threshold_ms') ?? null,
    };
    if (!SERVICE.test(config.grpc_service!))
      problems.grpc_service =
        'Service must be a gRPC service name like grpc.health.v1.Health or my.package.Orders (or empty for the whole server)';
    for (const [k, v] of Object.entries(config.grpc_metadata ?? {})) {
      if (!METADATA_KEY.test(k) || k.endsWith('-bin') || k.startsWith('grpc-') || RESERVED.has(k))
        problems.grpc_metadata = `Metadata "${k.slice(0, 100)}" is not allowed (lower-case names; not grpc-*, -bin or ${[...RESERVED].join(', ')})`;
      else if (/[\r\n]/.test(String(v)) || hasControlCharacters(String(v)) || /[^\x20-\x7e]/.test(String(v)))
        problems.grpc_metadata = `Metadata "${k}" must be printable ASCII`;
    }
    return { config, problems, target };
  },
  check: grpcChecker,
  async afterResult(r) {
    // A TLS certificate seen by a successful check warns like an https check's.
    if (r.outcome.status !== 'down') await certificateExpiring(r, undefined);
  },
  present(config, { secrets }) {
    // Metadata values carry the target's credentials (tokens): only those who may change the monitor see them.
    const md = config.grpc_metadata;
    return {
      host: config.host ?? null,
      port: config.port ?? null,
      grpc_service: config.grpc_service ?? null,
      grpc_tls: config.grpc_tls ?? null,
      grpc_metadata: md == null ? null : secrets ? md : Object.fromEntries(Object.keys(md).map((k) => [k, HIDDEN_SECRET])),
      degraded_threshold_ms: config.degraded_threshold_ms ?? null,
    };
  },
  publicTarget: (config) => config.host || null,
  tlsEndpoint: (config) => (config.grpc_tls && config.host ? { host: config.host.toLowerCase(), port: config.port ?? 443 } : null),
};
