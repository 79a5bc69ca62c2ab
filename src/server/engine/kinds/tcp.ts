// TCP monitors: a connection to host:port opens within the time-out; slow connects are degraded.
import { TCP_FIELDS } from '../../../lib/monitor-kinds.ts';
import { tcpChecker, type TcpConfig } from '../checkers/tcp.ts';
import { validateHostPort } from './host-port.ts';
import { presentFields, type Kind } from './kind.ts';

const FIELDS = TCP_FIELDS;

export const tcpKind: Kind<TcpConfig> = {
  fields: FIELDS,
  validate(pick) {
    const { config, problems, target } = validateHostPort(pick, undefined);
    return { config: { ...config, degraded_threshold_ms: pick('degraded_threshold_ms') ?? null }, problems, target };
  },
  check: tcpChecker,
  present: (config) => presentFields(FIELDS, config),
  publicTarget: (config) => config.host || null,
};
